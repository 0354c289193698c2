package io.riverbed.flink.index;

import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.write.RowDataToAvro;
import io.riverbed.flink.write.RowTypeAvroConverter;
import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.record.KeyGenerator;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Record key and partition path of a row, computed by the core's {@link KeyGenerator} (so keys
 * and paths are exactly Hudi's and the core's partition path rule applies) on an Avro record that
 * holds only the row's key and partition columns: the row itself stays binary, and an error
 * message shows those columns' values as the row has them, not nulls for the rest.
 * Serializable; resolves the conversion on first use.
 */
public final class RecordKeys implements Serializable {
  private static final long serialVersionUID = 1L;

  private final RowType rowType;
  private final FlinkWriteOptions options;
  private transient RowDataToAvro converter;
  private transient Schema keySchema;
  private transient int[] keyColumns;
  private transient KeyGenerator.Bound keyGenerator;

  private RecordKeys(RowType rowType, FlinkWriteOptions options) {
    this.rowType = rowType;
    this.options = options;
  }

  public static RecordKeys of(RowType rowType, FlinkWriteOptions options) {
    return new RecordKeys(rowType, options);
  }

  /**
   * Resolves the key and partition columns now (done on first use otherwise).
   *
   * @throws InvalidRecordException when a key or partition field is not a column of the row type
   */
  public RecordKeys resolve() {
    init();
    return this;
  }

  private void init() {
    if (keyGenerator != null) {
      return;
    }
    Schema schema = RowTypeAvroConverter.toAvroSchema(rowType, options.tableName());
    Set<Integer> columns = new LinkedHashSet<>();
    for (String field : options.recordKeyFields()) {
      columns.add(topLevelIndex(field));
    }
    for (String field : options.partitionFields()) {
      columns.add(topLevelIndex(field));
    }
    int[] positions = columns.stream().mapToInt(Integer::intValue).toArray();
    List<Schema.Field> fields = new ArrayList<>(positions.length);
    for (int i : positions) {
      fields.add(new Schema.Field(schema.getFields().get(i), schema.getFields().get(i).schema()));
    }
    keySchema = Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false, fields);
    converter = RowDataToAvro.of(rowType, schema);
    keyColumns = positions;
    keyGenerator = KeyGenerator.of(options.keyGeneratorOptions()).forSchema(keySchema);
  }

  private int topLevelIndex(String path) {
    String top = path.contains(".") ? path.substring(0, path.indexOf('.')) : path;
    int i = rowType.getFieldNames().indexOf(top);
    if (i < 0) {
      throw new InvalidRecordException("key or partition field '" + path + "' is not a column of " + rowType
          + " (table " + options.path() + ")");
    }
    return i;
  }

  /** The row's key and partition columns as an Avro record of those columns only. */
  public GenericRecord keyFields(RowData row) {
    init();
    GenericRecord full = converter.convertFields(row, keyColumns);
    GenericData.Record record = new GenericData.Record(keySchema);
    for (int j = 0; j < keyColumns.length; j++) {
      record.put(j, full.get(keyColumns[j]));
    }
    return record;
  }

  /**
   * @throws InvalidRecordException when the key is null or empty
   */
  public String recordKey(GenericRecord keyFields) {
    init();
    return keyGenerator.recordKey(keyFields);
  }

  /**
   * @throws InvalidRecordException naming the record key, field and value when the partition path
   *     rule refuses a partition value
   */
  public String partitionPath(GenericRecord keyFields) {
    init();
    return keyGenerator.partitionPath(keyFields);
  }
}
