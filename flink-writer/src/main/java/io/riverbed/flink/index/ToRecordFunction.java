package io.riverbed.flink.index;

import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.write.NullListElements;
import io.riverbed.flink.write.RowDataToAvro;
import io.riverbed.flink.write.RowTypeAvroConverter;
import io.riverbed.flink.write.UnwritableRecordException;
import io.riverbed.format.base.BaseFileOptions;
import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.record.KeyGenerator;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.OrderingValueCodec;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.write.BucketIndex;
import io.riverbed.format.write.RecordRateLimit;
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
 * <p>Keys are computed by {@link RecordKeys} (the core's {@link KeyGenerator}, so key strings are
 * exactly Hudi's); the row itself stays binary. A row without a key, or with a partition value the
 * core's partition path rule refuses, fails the job naming the table, the record key, the field
 * and the value; the write job refuses such rows earlier, where it knows their source line. With
 * the state index and event-time ordering ({@link FlinkWriteOptions#ordersAcrossCommits}) the
 * envelope also carries the row's ordering value, which the bucket assigner compares with the
 * key's last one.
 *
 * <p>Public for {@code RiverbedSink}, which puts it into the topology.
 */
public final class ToRecordFunction extends RichFlatMapFunction<RowData, RowData> {
  private static final long serialVersionUID = 1L;

  private final RowType rowType;
  private final FlinkWriteOptions options;
  private final RecordKeys keys;
  private transient int isDeletedColumn;
  /** With the state index and event-time ordering: the ordering column, and its conversion to Avro. */
  private transient String orderingField;
  private transient int[] orderingColumn;
  private transient RowDataToAvro orderingConverter;
  /** With two-level Parquet lists: finds the array null elements they cannot store; else null. */
  private transient NullListElements nullListElements;
  /** This task's share of {@code write.rate.limit}, or null without a limit. */
  private transient RecordRateLimit rateLimit;

  public ToRecordFunction(RowType rowType, FlinkWriteOptions options) {
    this.rowType = rowType;
    this.options = options;
    this.keys = RecordKeys.of(rowType, options);
  }

  @Override
  public void open(OpenContext openContext) {
    keys.resolve();
    if (options.rateLimit() > 0) {
      rateLimit = RecordRateLimit.perSecond(
          options.rateLimit() / (double) getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks());
    }
    if (options.indexType() == FlinkWriteOptions.IndexType.FLINK_STATE && options.ordersAcrossCommits()
        && rowType.getFieldNames().contains(options.precombineField())) {
      orderingField = options.precombineField();
      orderingColumn = new int[] {rowType.getFieldIndex(orderingField)};
      orderingConverter = RowDataToAvro.of(rowType, RowTypeAvroConverter.toAvroSchema(rowType, options.tableName()));
    }
    if (options.writeOptions().baseFile().writeOldListStructure()) {
      nullListElements = new NullListElements(rowType);
    }
    int deleted = rowType.getFieldNames().indexOf(MetaFields.IS_DELETED);
    isDeletedColumn = deleted >= 0 && rowType.getTypeAt(deleted).getTypeRoot() == LogicalTypeRoot.BOOLEAN ? deleted : -1;
  }

  @Override
  public void flatMap(RowData row, Collector<RowData> out) {
    if (rateLimit != null) {
      rateLimit.acquire();
    }
    RowKind kind = row.getRowKind();
    if (kind == RowKind.UPDATE_BEFORE && options.operation() != FlinkWriteOptions.Operation.DELETE) {
      return;
    }
    boolean delete = options.operation() == FlinkWriteOptions.Operation.DELETE || kind == RowKind.DELETE
        || (isDeletedColumn >= 0 && !row.isNullAt(isDeletedColumn) && row.getBoolean(isDeletedColumn));
    GenericRecord keyFields = keys.keyFields(row);
    String key;
    String partition;
    try {
      key = keys.recordKey(keyFields);
      partition = keys.partitionPath(keyFields);
    } catch (InvalidRecordException e) {
      throw new InvalidRecordException("table " + options.path() + ": " + e.getMessage());
    }
    if (delete && options.operation() == FlinkWriteOptions.Operation.INSERT) {
      throw new InvalidRecordException("write.operation=insert cannot apply the delete of record key '" + key
          + "' in partition '" + partition + "' of table " + options.path() + "; use write.operation=upsert");
    }
    if (!delete && nullListElements != null) {
      refuseNullListElement(row, key, partition);
    }
    String fileGroup = null;
    if (options.indexType() == FlinkWriteOptions.IndexType.BUCKET) {
      fileGroup = Integer.toString(BucketIndex.bucket(key, options.bucketHashFields(), options.numBuckets()));
    }
    out.collect(WriteEnvelope.of(delete ? WriteEnvelope.DELETE : WriteEnvelope.UPSERT, key, partition, fileGroup, row,
        ordering(row, key)));
  }

  private void refuseNullListElement(RowData row, String key, String partition) {
    String element = nullListElements.firstIn(row);
    if (element != null) {
      throw new UnwritableRecordException("table " + options.path() + ": record key '" + key + "' in partition '"
          + partition + "': field " + element + " is a null array element, which Parquet's two-level lists ("
          + BaseFileOptions.WRITE_OLD_LIST_STRUCTURE + "=true, the default, as in Hudi 0.15) cannot store; remove the "
          + "null elements, or set " + BaseFileOptions.WRITE_OLD_LIST_STRUCTURE + "=false to write three-level lists");
    }
  }

  /** The row's encoded ordering value when the assigner compares it with the key's last one; else null. */
  private byte[] ordering(RowData row, String key) {
    if (orderingField == null || row.isNullAt(orderingColumn[0])) {
      return null;
    }
    GenericRecord value = orderingConverter.convertFields(row, orderingColumn);
    return OrderingValueCodec.encode(OrderingValues.ofLogRecord(value, orderingField, key));
  }
}
