package io.riverbed.flink.index;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
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
 * 4 data        ROW&lt;user row type&gt;  (null in {@link #INDEX}, {@link #TOMBSTONE}, {@link #BOOTSTRAPPED}
 *                                  and {@link #STALE} rows)
 * 5 ordering    BYTES              the change's ordering value ({@code OrderingValueCodec}), set when the
 *                                  state index orders changes across commits; else null
 * </pre>
 */
public final class WriteEnvelope {
  public static final byte UPSERT = 0;
  public static final byte DELETE = 1;
  /** Index bootstrap: the key lives in (partition, file group); nothing is written. */
  public static final byte INDEX = 2;
  /** Index bootstrap: a bootstrap subtask has sent all its {@link #INDEX} rows ({@link BootstrapMarker}). */
  public static final byte BOOTSTRAPPED = 3;
  /** Index bootstrap: the key is deleted in the table's logs, with the delete's ordering value. */
  public static final byte TOMBSTONE = 4;
  /** A change the assigner dropped as older than its key's last write or delete: only counted. */
  public static final byte STALE = 5;
  /** The Kafka offsets consumed up to the next checkpoint barrier, in the key column; only recorded. */
  public static final byte KAFKA_OFFSETS = 6;

  static final int OP = 0;
  static final int KEY = 1;
  static final int PARTITION = 2;
  static final int FILE_GROUP = 3;
  static final int DATA = 4;
  static final int ORDERING = 5;

  private WriteEnvelope() {}

  /** The envelope row type around {@code dataType}. */
  public static RowType rowType(RowType dataType) {
    List<RowType.RowField> fields = new ArrayList<>();
    fields.add(new RowType.RowField("_rb_op", new TinyIntType(false)));
    fields.add(new RowType.RowField("_rb_key", new VarCharType(false, VarCharType.MAX_LENGTH)));
    fields.add(new RowType.RowField("_rb_partition", new VarCharType(false, VarCharType.MAX_LENGTH)));
    fields.add(new RowType.RowField("_rb_file_group", new VarCharType(true, VarCharType.MAX_LENGTH)));
    fields.add(new RowType.RowField("_rb_data", dataType.copy(true)));
    fields.add(new RowType.RowField("_rb_ordering", new VarBinaryType(true, VarBinaryType.MAX_LENGTH)));
    return new RowType(false, fields);
  }

  public static InternalTypeInfo<RowData> typeInfo(RowType dataType) {
    return InternalTypeInfo.of(rowType(dataType));
  }

  static GenericRowData of(byte op, String key, String partition, String fileGroup, RowData data, byte[] ordering) {
    return GenericRowData.of(op, StringData.fromString(key), StringData.fromString(partition),
        fileGroup == null ? null : StringData.fromString(fileGroup), data, ordering);
  }

  /**
   * An index-bootstrap row: {@code key} lives in file group {@code fileId} of {@code partition}
   * ({@link #INDEX}), or was deleted there ({@link #TOMBSTONE}), with its ordering value or null.
   */
  static GenericRowData index(byte op, String key, String partition, String fileId, byte[] ordering) {
    return of(op, key, partition, fileId, null, ordering);
  }

  /** A {@link #KAFKA_OFFSETS} row (one file-group key, so one writer subtask gets them all). */
  public static GenericRowData kafkaOffsets(String offsets) {
    return of(KAFKA_OFFSETS, offsets, "", "\u0001kafka-offsets", null, null);
  }

  /** {@code envelope} with another operation, partition and file group (same key, data and ordering). */
  static GenericRowData route(RowData envelope, byte op, String partition, String fileGroup, int dataArity) {
    return GenericRowData.of(op, envelope.getString(KEY), StringData.fromString(partition),
        fileGroup == null ? null : StringData.fromString(fileGroup), envelope.getRow(DATA, dataArity),
        envelope.isNullAt(ORDERING) ? null : envelope.getBinary(ORDERING));
  }

  /** A {@link #STALE} row for {@code envelope}'s change (no data), to be counted by the writer. */
  static GenericRowData stale(RowData envelope, String fileGroup) {
    return GenericRowData.of(STALE, envelope.getString(KEY), envelope.getString(PARTITION),
        fileGroup == null ? null : StringData.fromString(fileGroup), null, null);
  }

  /** The row's operation: {@link #UPSERT}, {@link #DELETE}, ... */
  public static byte op(RowData envelope) {
    return envelope.getByte(OP);
  }

  /** The record key. */
  public static String key(RowData envelope) {
    return envelope.getString(KEY).toString();
  }

  /** The partition path ({@code ""} when non-partitioned). */
  public static String partition(RowData envelope) {
    return envelope.getString(PARTITION).toString();
  }

  /** The file id (state index) or bucket routing key (bucket index), or null before routing. */
  public static String fileGroup(RowData envelope) {
    return envelope.isNullAt(FILE_GROUP) ? null : envelope.getString(FILE_GROUP).toString();
  }

  /** Whether the row carries no user row (index, tombstone, stale and offsets rows; a delete may). */
  public static boolean hasNoData(RowData envelope) {
    return envelope.isNullAt(DATA);
  }

  /** The user's row, of {@code dataArity} fields. */
  public static RowData data(RowData envelope, int dataArity) {
    return envelope.getRow(DATA, dataArity);
  }

  /** The encoded ordering value, or null. */
  static byte[] ordering(RowData envelope) {
    return envelope.isNullAt(ORDERING) ? null : envelope.getBinary(ORDERING);
  }
}
