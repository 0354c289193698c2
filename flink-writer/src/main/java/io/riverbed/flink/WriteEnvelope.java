package io.riverbed.flink;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The row that travels between the writer's operators: the change's operation, record key,
 * partition path and file group (filled by the bucket assigner), then the user's row as a nested
 * row. Serialized by Flink's own {@code RowDataSerializer} ({@link #typeInfo}), never Kryo, so a
 * record stays binary from the to-record map to the writer's buffer.
 *
 * <pre>
 * 0 op          TINYINT  NOT NULL  {@link #UPSERT}, {@link #DELETE}, or between index bootstrap and
 *                                  bucket assigner {@link #INDEX} / {@link #BOOTSTRAPPED}
 * 1 key         STRING   NOT NULL  record key
 * 2 partition   STRING   NOT NULL  partition path ("" when non-partitioned)
 * 3 file_group  STRING             file id (state index) or bucket routing key (bucket index)
 * 4 data        ROW&lt;user row type&gt;  (null in {@link #INDEX} and {@link #BOOTSTRAPPED} rows)
 * </pre>
 */
public final class WriteEnvelope {
  public static final byte UPSERT = 0;
  public static final byte DELETE = 1;
  /** Index bootstrap: the key lives in (partition, file group); nothing is written. */
  public static final byte INDEX = 2;
  /** Index bootstrap: a bootstrap subtask has sent all its {@link #INDEX} rows ({@link BootstrapMarker}). */
  public static final byte BOOTSTRAPPED = 3;

  static final int OP = 0;
  static final int KEY = 1;
  static final int PARTITION = 2;
  static final int FILE_GROUP = 3;
  static final int DATA = 4;

  private WriteEnvelope() {}

  /** The envelope row type around {@code dataType}. */
  public static RowType rowType(RowType dataType) {
    List<RowType.RowField> fields = new ArrayList<>();
    fields.add(new RowType.RowField("_rb_op", new TinyIntType(false)));
    fields.add(new RowType.RowField("_rb_key", new VarCharType(false, VarCharType.MAX_LENGTH)));
    fields.add(new RowType.RowField("_rb_partition", new VarCharType(false, VarCharType.MAX_LENGTH)));
    fields.add(new RowType.RowField("_rb_file_group", new VarCharType(true, VarCharType.MAX_LENGTH)));
    fields.add(new RowType.RowField("_rb_data", dataType.copy(true)));
    return new RowType(false, fields);
  }

  public static InternalTypeInfo<RowData> typeInfo(RowType dataType) {
    return InternalTypeInfo.of(rowType(dataType));
  }

  static GenericRowData of(byte op, String key, String partition, String fileGroup, RowData data) {
    return GenericRowData.of(op, StringData.fromString(key), StringData.fromString(partition),
        fileGroup == null ? null : StringData.fromString(fileGroup), data);
  }

  /** An index-bootstrap row: {@code key} lives in file group {@code fileId} of {@code partition}. */
  static GenericRowData index(String key, String partition, String fileId) {
    return of(INDEX, key, partition, fileId, null);
  }

  /** {@code envelope} with another operation, partition and file group (same key and data). */
  static GenericRowData route(RowData envelope, byte op, String partition, String fileGroup, int dataArity) {
    return GenericRowData.of(op, envelope.getString(KEY), StringData.fromString(partition),
        fileGroup == null ? null : StringData.fromString(fileGroup), envelope.getRow(DATA, dataArity));
  }

  static byte op(RowData envelope) {
    return envelope.getByte(OP);
  }

  static String key(RowData envelope) {
    return envelope.getString(KEY).toString();
  }

  static String partition(RowData envelope) {
    return envelope.getString(PARTITION).toString();
  }

  static String fileGroup(RowData envelope) {
    return envelope.isNullAt(FILE_GROUP) ? null : envelope.getString(FILE_GROUP).toString();
  }

  static RowData data(RowData envelope, int dataArity) {
    return envelope.getRow(DATA, dataArity);
  }
}
