package io.riverbed.flink;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.record.KeyGenerator;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.OrderingValueCodec;
import io.riverbed.format.record.OrderingValues;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

/**
 * The first operator of the write: turns a user row into a {@link WriteEnvelope} with its record
 * key, partition path and operation. Operation: {@code write.operation=delete} makes every row a
 * delete; otherwise {@link RowKind#DELETE} rows and rows with {@code _hoodie_is_deleted = true}
 * are deletes, {@link RowKind#UPDATE_BEFORE} rows are dropped, the rest are upserts. With the
 * bucket index the file-group column carries the record's bucket.
 *
 * <p>Keys are computed by the core's {@link KeyGenerator} on an Avro record holding only the key
 * and partition columns (so key strings are exactly Hudi's); the row itself stays binary. With the
 * state index and event-time ordering ({@link FlinkWriteOptions#ordersAcrossCommits}) the envelope
 * also carries the row's ordering value, which the bucket assigner compares with the key's last one.
 */
final class ToRecordFunction extends RichFlatMapFunction<RowData, RowData> {
  private static final long serialVersionUID = 1L;

  private final RowType rowType;
  private final FlinkWriteOptions options;
  private transient RowDataToAvro keyConverter;
  private transient KeyGenerator.Bound keyGenerator;
  private transient int[] keyColumns;
  private transient int isDeletedColumn;
  private transient String orderingField;

  ToRecordFunction(RowType rowType, FlinkWriteOptions options) {
    this.rowType = rowType;
    this.options = options;
  }

  @Override
  public void open(OpenContext openContext) {
    Schema schema = RowTypeAvroConverter.toAvroSchema(rowType, options.tableName());
    keyConverter = RowDataToAvro.of(rowType, schema);
    keyGenerator = KeyGenerator.of(options.keyGeneratorOptions()).forSchema(schema);
    Set<Integer> columns = new LinkedHashSet<>();
    for (String field : options.recordKeyFields()) {
      columns.add(topLevelIndex(field));
    }
    for (String field : options.partitionFields()) {
      columns.add(topLevelIndex(field));
    }
    orderingField = options.indexType() == FlinkWriteOptions.IndexType.FLINK_STATE && options.ordersAcrossCommits()
        && rowType.getFieldNames().contains(options.precombineField()) ? options.precombineField() : null;
    if (orderingField != null) {
      columns.add(rowType.getFieldIndex(orderingField));
    }
    keyColumns = columns.stream().mapToInt(Integer::intValue).toArray();
    int deleted = rowType.getFieldNames().indexOf(MetaFields.IS_DELETED);
    isDeletedColumn = deleted >= 0 && rowType.getTypeAt(deleted).getTypeRoot() == LogicalTypeRoot.BOOLEAN ? deleted : -1;
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

  @Override
  public void flatMap(RowData row, Collector<RowData> out) {
    RowKind kind = row.getRowKind();
    if (kind == RowKind.UPDATE_BEFORE && options.operation() != FlinkWriteOptions.Operation.DELETE) {
      return;
    }
    boolean delete = options.operation() == FlinkWriteOptions.Operation.DELETE || kind == RowKind.DELETE
        || (isDeletedColumn >= 0 && !row.isNullAt(isDeletedColumn) && row.getBoolean(isDeletedColumn));
    GenericRecord keyFields = keyConverter.convertFields(row, keyColumns);
    String key = keyGenerator.recordKey(keyFields);
    String partition = keyGenerator.partitionPath(keyFields);
    if (delete && options.operation() == FlinkWriteOptions.Operation.INSERT) {
      throw new InvalidRecordException("write.operation=insert cannot apply the delete of record key '" + key
          + "' in partition '" + partition + "' of table " + options.path() + "; use write.operation=upsert");
    }
    String fileGroup = null;
    if (options.indexType() == FlinkWriteOptions.IndexType.BUCKET) {
      fileGroup = Integer.toString(BucketIndex.bucket(key, options.bucketHashFields(), options.numBuckets()));
    }
    byte[] ordering = null;
    if (orderingField != null && keyFields.get(orderingField) != null) {
      ordering = OrderingValueCodec.encode(OrderingValues.ofLogRecord(keyFields, orderingField, key));
    }
    out.collect(WriteEnvelope.of(delete ? WriteEnvelope.DELETE : WriteEnvelope.UPSERT, key, partition, fileGroup, row,
        ordering));
  }
}
