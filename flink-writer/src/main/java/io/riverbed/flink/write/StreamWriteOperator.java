package io.riverbed.flink.write;

import io.riverbed.flink.commit.WriteCoordinator;
import io.riverbed.flink.commit.WriteMessages;
import io.riverbed.flink.commit.WriteResult;
import io.riverbed.flink.compact.CompactionEvent;
import io.riverbed.flink.index.WriteEnvelope;
import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.FlinkTables;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.source.BadRecordException;
import io.riverbed.format.TableException;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.record.AvroBinaryRecord;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.timeline.KafkaOffsets;
import io.riverbed.format.write.StoredKeyVersions;
import io.riverbed.format.write.TableWriter;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.accumulators.LongMaximum;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.runtime.operators.coordination.OperatorEventGateway;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.SerializedValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream writer, a thin operator over the core's {@link TableWriter}: keyed by file group, it
 * hands each change to the writer, which buffers them per file group in bounded memory
 * ({@code write.batch.size} per task) and writes every buffer in {@code snapshotState}
 * ({@link TableWriter#prepareCommit}). A change is encoded to Avro binary as it arrives
 * ({@link RowDataAvroEncoder}), so a checkpoint's flush only writes bytes; when the encoder does not
 * cover the schema, or the schema widens while the job runs ({@link AddedColumns}), the binary row
 * is buffered and converted to an Avro record when its group is written ({@link #toConvertedWriteRecord}). The operator then reports the write stats to the
 * {@link WriteCoordinator} (protocol there).
 *
 * <p>Its one output, once per attempt (before its first checkpoint barrier, or at the end of its
 * input), is the id of its coordinator ({@link CompactionEvent.WriterCoordinator}), for the
 * compaction stage downstream, which asks that coordinator when it may start and when the writers
 * are done; without the stage a discarding sink drops it.
 *
 * <p>Exposes the gauges {@code riverbedBufferedBytes} and {@code riverbedMaxBufferedBytes} and the
 * accumulator {@value #MAX_BUFFERED_ACCUMULATOR} (the most bytes any buffer set ever held).
 */
final class StreamWriteOperator extends AbstractStreamOperator<byte[]>
    implements OneInputStreamOperator<RowData, byte[]>, BoundedOneInput {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(StreamWriteOperator.class);

  static final String MAX_BUFFERED_ACCUMULATOR = "riverbed-writer-max-buffered-bytes";
  private static final Duration INSTANT_TIMEOUT = Duration.ofMinutes(10);
  /** The record, the key string, the Avro wrapper and the ordering value of one encoded change. */
  private static final long ENCODED_RECORD_OVERHEAD_BYTES = 160;

  private final FlinkWriteOptions options;
  private final RowType dataType;
  private final String schemaJson;
  /** The rows end with a new-fields column whose fields this writer adds as columns ({@link AddedColumns}). */
  private final boolean addsColumns;

  private transient WriterMetrics metrics;
  private transient OperatorEventGateway eventGateway;
  private transient ListState<byte[]> resultState;
  private transient List<WriteResult> unconfirmed;
  private transient long epoch;
  private transient String instant;
  /** The instant of this task's last reported epoch: the coordinator must not give it again. */
  private transient String previousInstant;
  private transient Table table;
  /** Buffers {@link WriteRecord}s encoded on arrival, or {@link BinaryRowData} rows converted when written. */
  private transient TableWriter<Object> writer;
  private transient RowDataToAvro converter;
  /** With {@link #addsColumns}: the columns added so far and the schema they make; else null. */
  private transient AddedColumns addedColumns;
  /** Encodes rows straight to Avro binary; null when the schema has a shape it does not cover. */
  private transient RowDataAvroEncoder encoder;
  private transient AvroBinaryRecord.Codec binaryRecords;
  /** The ordering field's position in the row; -1 if there is none. */
  private transient int orderingPosition;
  private transient RowDataSerializer envelopeSerializer;
  private transient LongMaximum maxBufferedAccumulator;
  private transient String orderingField;
  /** Changes the assigner dropped as stale since the last reported result (state index). */
  private transient long staleInEpoch;
  private transient boolean inputEnded;
  /** The first checkpoint snapshotted after the input ended (it flushed everything); -1 before. */
  private transient long finalCheckpoint;
  /** Kafka offsets received since the last reported result. */
  private transient KafkaOffsets kafkaOffsets;
  /** Whether this attempt has sent its coordinator's id downstream. */
  private transient boolean coordinatorAnnounced;

  StreamWriteOperator(FlinkWriteOptions options, RowType dataType, String schemaJson, boolean addsColumns) {
    this.options = options;
    this.dataType = dataType;
    this.schemaJson = schemaJson;
    this.addsColumns = addsColumns;
  }

  void setOperatorEventGateway(OperatorEventGateway gateway) {
    this.eventGateway = gateway;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    resultState = context.getOperatorStateStore().getListState(
        new ListStateDescriptor<>("riverbed-unconfirmed-write-results", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
    unconfirmed = new ArrayList<>();
    if (context.isRestored()) {
      for (byte[] bytes : resultState.get()) {
        unconfirmed.add(WriteResult.fromBytes(bytes));
      }
    }
    epoch = context.getRestoredCheckpointId().orElse(0L);
  }

  @Override
  public void open() throws Exception {
    super.open();
    Schema schema = new Schema.Parser().parse(schemaJson);
    if (addsColumns) {
      // the schema widens as new fields arrive: rows are converted to records of the current one
      List<RowType.RowField> columns = dataType.getFields().subList(0, dataType.getFieldCount() - 1);
      addedColumns = new AddedColumns(new RowType(dataType.isNullable(), columns), options.tableName());
    } else {
      converter = RowDataToAvro.of(dataType, schema);
      encoder = RowDataAvroEncoder.of(dataType, schema).orElse(null);
      binaryRecords = new AvroBinaryRecord.Codec(schema);
    }
    envelopeSerializer = new RowDataSerializer(WriteEnvelope.rowType(dataType));
    finalCheckpoint = -1;
    orderingField = options.precombineField();
    Schema.Field orderingSchemaField = orderingField == null ? null : schema.getField(orderingField);
    orderingPosition = orderingSchemaField == null ? -1 : orderingSchemaField.pos();
    table = FlinkTables.open(options);
    var task = getRuntimeContext().getTaskInfo();
    WriteOptions writeOptions = options.writeOptions();
    boolean bucketIndex = options.indexType() == FlinkWriteOptions.IndexType.BUCKET;
    TableWriter.Builder<Object> builder = TableWriter.builder(table, schema, writeOptions)
        .task(task.getIndexOfThisSubtask(), task.getNumberOfParallelSubtasks(), task.getAttemptNumber())
        .routing(bucketIndex ? TableWriter.Routing.BUCKET : TableWriter.Routing.FILE_ID)
        .bufferLimitBytes(options.batchSizeBytes())
        .afterFileWritten(() -> FaultInjection.check(FaultInjection.WRITER_DURING_FLUSH));
    if (bucketIndex && options.ordersAcrossCommits()) {
      var tombstones = KeyedTombstones.of(getKeyedStateStore(), options.tombstoneRetention(), this::setCurrentKey);
      builder.keyVersions(StoredKeyVersions.of(table, ReadSettings.fromOptions(options.raw()), tombstones,
          options.tombstoneRetention()));
    }
    writer = builder.build(this::currentInstant,
        (buffered, partition) -> buffered instanceof WriteRecord encoded ? encoded
            : toConvertedWriteRecord((BinaryRowData) buffered, partition));
    if (addedColumns != null) {
      // the columns the table has already, so the first rows of new fields are typed as committed
      TableSchemaResolver.resolve(table, table.refreshTimeline()).filter(addedColumns::adopt)
          .ifPresent(s -> writer.schema(addedColumns.schema()));
    }
    maxBufferedAccumulator = new LongMaximum();
    getRuntimeContext().addAccumulator(MAX_BUFFERED_ACCUMULATOR, maxBufferedAccumulator);
    getMetricGroup().gauge("riverbedBufferedBytes", () -> writer.bufferedBytes());
    getMetricGroup().gauge("riverbedMaxBufferedBytes", () -> writer.maxBufferedBytes());
    metrics = new WriterMetrics(getMetricGroup());
    eventGateway.sendEventToCoordinator(new WriteMessages.WriterStarted(
        getRuntimeContext().getJobInfo().getJobId().toString(), unconfirmed));
  }

  @Override
  public void processElement(StreamRecord<RowData> element) throws Exception {
    RowData row = element.getValue();
    if (WriteEnvelope.op(row) == WriteEnvelope.KAFKA_OFFSETS) {
      KafkaOffsets offsets = KafkaOffsets.parse(WriteEnvelope.key(row));
      kafkaOffsets = kafkaOffsets == null ? offsets : kafkaOffsets.overlaidWith(offsets);
      return;
    }
    if (WriteEnvelope.op(row) == WriteEnvelope.STALE) {
      staleInEpoch++;
      return;
    }
    if (addedColumns != null && !WriteEnvelope.hasNoData(row)) {
      addColumnsFor(row);
    }
    if (encoder != null) {
      String partition = WriteEnvelope.partition(row);
      WriteRecord record = toEncodedWriteRecord(row, partition);
      writer.write(partition, WriteEnvelope.fileGroup(row), record, bufferedSize(record));
    } else {
      BinaryRowData binary = row instanceof BinaryRowData b ? b.copy() : envelopeSerializer.toBinaryRow(row).copy();
      writer.write(WriteEnvelope.partition(binary), WriteEnvelope.fileGroup(binary), binary, binary.getSizeInBytes());
    }
    maxBufferedAccumulator.add(writer.maxBufferedBytes());
  }

  /** Widens the schema for {@code row}'s new fields before it is buffered, so every buffered row converts. */
  private void addColumnsFor(RowData row) {
    boolean changed;
    try {
      changed = addedColumns.observe(WriteEnvelope.data(row, dataType.getFieldCount()));
    } catch (BadRecordException e) {
      throw new BadRecordException("record key " + WriteEnvelope.key(row) + " of table " + options.path() + ": "
          + e.getMessage());
    }
    if (changed) {
      writer.schema(addedColumns.schema());
      LOG.info("Writer task {} of table {} writes with the new schema {}",
          getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), options.path(), addedColumns.schema());
    }
  }

  /** The change {@code row} stands for, its data encoded straight to Avro binary (the log block copies the bytes). */
  private WriteRecord toEncodedWriteRecord(RowData row, String partition) {
    String key = WriteEnvelope.key(row);
    RowData data = WriteEnvelope.data(row, dataType.getFieldCount());
    Object ordering = orderingPosition < 0 ? null : converter.convertField(data, orderingPosition);
    if (WriteEnvelope.op(row) == WriteEnvelope.DELETE) {
      return WriteRecord.delete(key, partition, ordering == null ? null
          : OrderingValues.ofLogValue(ordering, orderingField, key));
    }
    return WriteRecord.upsert(key, partition, binaryRecords.wrap(encoder.encode(data)),
        orderingPosition < 0 ? OrderingValues.NATURAL_ORDER : OrderingValues.ofLogValue(ordering, orderingField, key));
  }

  /** What an encoded change holds in memory: its bytes, its key's characters and the objects around them. */
  private static long bufferedSize(WriteRecord record) {
    long data = record.data() instanceof AvroBinaryRecord encoded ? encoded.bytes().length : 0;
    return data + 2L * record.recordKey().length() + ENCODED_RECORD_OVERHEAD_BYTES;
  }

  private WriteRecord toConvertedWriteRecord(BinaryRowData row, String partition) {
    String key = WriteEnvelope.key(row);
    RowData fields = WriteEnvelope.data(row, dataType.getFieldCount());
    GenericRecord data = addedColumns != null ? addedColumns.convert(fields) : converter.convert(fields);
    if (WriteEnvelope.op(row) == WriteEnvelope.DELETE) {
      Comparable<?> ordering = orderingField == null || data.get(orderingField) == null ? null
          : OrderingValues.ofLogRecord(data, orderingField, key);
      return WriteRecord.delete(key, partition, ordering);
    }
    Comparable<?> ordering = orderingField == null ? OrderingValues.NATURAL_ORDER
        : OrderingValues.ofLogRecord(data, orderingField, key);
    return WriteRecord.upsert(key, partition, data, ordering);
  }

  /** The instant of the current epoch, asked of the coordinator on the epoch's first write. */
  private String currentInstant() {
    if (instant == null) {
      try {
        var gateway = getContainingTask().getEnvironment().getOperatorCoordinatorEventGateway();
        var request = new WriteMessages.InstantRequest(getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), epoch,
            previousInstant);
        var response = gateway.sendRequestToCoordinator(getOperatorID(), new SerializedValue<>(request))
            .get(INSTANT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        instant = WriteMessages.instantOf(response);
        if (addedColumns != null) {
          WriteMessages.tableSchemaOf(response).map(s -> new Schema.Parser().parse(s))
              .filter(addedColumns::adopt).ifPresent(s -> writer.schema(addedColumns.schema()));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TableException("interrupted while asking for the instant of epoch " + epoch + " of table "
            + options.path(), e);
      } catch (Exception e) {
        throw new TableException("cannot get the instant of epoch " + epoch + " of table " + options.path()
            + " from the write coordinator", e);
      }
    }
    return instant;
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    announceCoordinator();
  }

  /** Sends the coordinator's id downstream, once per attempt (before a barrier or the end of input). */
  private void announceCoordinator() {
    if (!coordinatorAnnounced) {
      coordinatorAnnounced = true;
      output.collect(new StreamRecord<>(new CompactionEvent.WriterCoordinator(getOperatorID()).toBytes()));
    }
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    TableWriter.Prepared written = writer.prepareCommit();
    metrics.flushed(written.writeStats());
    FaultInjection.check(FaultInjection.WRITER_AFTER_FLUSH_BEFORE_BARRIER);
    long checkpointId = context.getCheckpointId();
    if (instant == null && (staleInEpoch > 0 || kafkaOffsets != null)) {
      // the count and the offsets go into this checkpoint's instant, even if nothing else was written; asked
      // for only now, so a late change does not open the next instant early (a due compaction waits for it)
      currentInstant();
    }
    if (instant != null) {
      long stale = staleInEpoch + written.staleRecords();
      staleInEpoch = 0;
      WriteResult result = WriteResult.of(getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), checkpointId,
          instant, written.writeStats(), stale, kafkaOffsets,
          addedColumns == null ? Optional.empty() : Optional.of(addedColumns.schema()));
      kafkaOffsets = null;
      unconfirmed.add(result);
      eventGateway.sendEventToCoordinator(new WriteMessages.Written(result));
    }
    List<byte[]> state = new ArrayList<>(unconfirmed.size());
    unconfirmed.forEach(r -> state.add(r.toBytes()));
    resultState.update(state);
    epoch = checkpointId;
    if (instant != null) {
      previousInstant = instant;
    }
    instant = null;
    if (inputEnded && finalCheckpoint < 0) {
      finalCheckpoint = checkpointId;
    }
  }

  /** The input has ended; what is buffered is flushed by the final checkpoint that follows. */
  @Override
  public void endInput() {
    inputEnded = true;
    announceCoordinator();
  }

  /**
   * Once a checkpoint taken after the input ended completes (its snapshot flushed everything),
   * waits until the coordinator has committed what it covers: Flink finishes the task (and a
   * bounded job) once this returns, so the job's end means its last data is on the timeline.
   */
  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    super.notifyCheckpointComplete(checkpointId);
    unconfirmed.removeIf(r -> r.checkpointId() <= checkpointId);
    if (finalCheckpoint >= 0 && checkpointId >= finalCheckpoint) {
      var gateway = getContainingTask().getEnvironment().getOperatorCoordinatorEventGateway();
      var request = new WriteMessages.CommitAwaitRequest(getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
          checkpointId);
      try {
        gateway.sendRequestToCoordinator(getOperatorID(), new SerializedValue<>(request))
            .get(INSTANT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        throw new TableException("the last commit of table " + options.path() + " (checkpoint " + checkpointId
            + ") failed", e.getCause());
      }
    }
  }

  /** Bytes buffered right now (for tests and the gauge). */
  long bufferedBytes() {
    return writer.bufferedBytes();
  }
}
