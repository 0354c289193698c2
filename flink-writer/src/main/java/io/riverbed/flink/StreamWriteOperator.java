package io.riverbed.flink;

import io.riverbed.format.TableException;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.KafkaOffsets;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.StoredKeyVersions;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.accumulators.LongMaximum;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.runtime.operators.coordination.OperatorEventGateway;
import org.apache.flink.runtime.operators.coordination.OperatorEventHandler;
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

/**
 * The stream writer: keyed by file group, it buffers the binary envelope rows per file group in
 * bounded memory ({@code write.batch.size} per task; before a row would exceed it, the largest
 * buffer is flushed) and flushes every buffer in {@code snapshotState}. A flush converts the rows
 * to Avro records and writes one file with the core's handles: MERGE_ON_READ appends a log file
 * ({@link FileGroupFlusher}), COPY_ON_WRITE writes a new base file version. It then reports its
 * write stats to the {@link WriteCoordinator} (protocol there).
 *
 * <p>Exposes the gauges {@code riverbedBufferedBytes} and {@code riverbedMaxBufferedBytes} and the
 * accumulator {@value #MAX_BUFFERED_ACCUMULATOR} (the most bytes any buffer set ever held).
 */
final class StreamWriteOperator extends AbstractStreamOperator<Void>
    implements OneInputStreamOperator<RowData, Void>, OperatorEventHandler, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  static final String MAX_BUFFERED_ACCUMULATOR = "riverbed-writer-max-buffered-bytes";
  private static final Duration INSTANT_TIMEOUT = Duration.ofMinutes(10);

  private final FlinkWriteOptions options;
  private final RowType dataType;
  private final String schemaJson;

  private transient OperatorEventGateway eventGateway;
  private transient ListState<byte[]> resultState;
  private transient List<WriteResult> unconfirmed;
  private transient long epoch;
  private transient String instant;
  private transient Table table;
  private transient FileGroupFlusher flusher;
  private transient RowDataToAvro converter;
  private transient RowDataSerializer envelopeSerializer;
  private transient Map<String, Buffer> buffers;
  private transient long bufferedBytes;
  private transient long maxBufferedBytes;
  private transient LongMaximum maxBufferedAccumulator;
  private transient String orderingField;
  /** Changes the assigner dropped as stale since the last reported result (state index). */
  private transient long staleInEpoch;
  private transient boolean inputEnded;
  /** The first checkpoint snapshotted after the input ended (it flushed everything); -1 before. */
  private transient long finalCheckpoint;
  /** Kafka offsets received since the last reported result. */
  private transient KafkaOffsets kafkaOffsets;

  /** The rows of one file group waiting to be written. */
  private static final class Buffer {
    final String partition;
    final String fileGroup;
    final List<BinaryRowData> rows = new ArrayList<>();
    long bytes;

    Buffer(String partition, String fileGroup) {
      this.partition = partition;
      this.fileGroup = fileGroup;
    }
  }

  StreamWriteOperator(FlinkWriteOptions options, RowType dataType, String schemaJson) {
    this.options = options;
    this.dataType = dataType;
    this.schemaJson = schemaJson;
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
    converter = RowDataToAvro.of(dataType, schema);
    envelopeSerializer = new RowDataSerializer(WriteEnvelope.rowType(dataType));
    buffers = new LinkedHashMap<>();
    finalCheckpoint = -1;
    orderingField = options.precombineField();
    table = FlinkTables.open(options);
    var task = getRuntimeContext().getTaskInfo();
    WriteOptions writeOptions = options.writeOptions();
    var tombstones = options.indexType() == FlinkWriteOptions.IndexType.BUCKET && options.ordersAcrossCommits()
        ? KeyedTombstones.of(getKeyedStateStore(), options.tombstoneRetention(), this::setCurrentKey)
        : StoredKeyVersions.TombstoneStore.NONE;
    flusher = new FileGroupFlusher(table, schema, writeOptions, options, task.getIndexOfThisSubtask(),
        task.getNumberOfParallelSubtasks(), task.getAttemptNumber(), tombstones);
    maxBufferedAccumulator = new LongMaximum();
    getRuntimeContext().addAccumulator(MAX_BUFFERED_ACCUMULATOR, maxBufferedAccumulator);
    getMetricGroup().gauge("riverbedBufferedBytes", () -> bufferedBytes);
    getMetricGroup().gauge("riverbedMaxBufferedBytes", () -> maxBufferedBytes);
    eventGateway.sendEventToCoordinator(new WriteMessages.WriterStarted(
        getRuntimeContext().getJobInfo().getJobId().toString(), unconfirmed));
  }

  @Override
  public void processElement(StreamRecord<RowData> element) throws Exception {
    RowData row = element.getValue();
    if (WriteEnvelope.op(row) == WriteEnvelope.KAFKA_OFFSETS) {
      currentInstant(); // the offsets go into this checkpoint's instant, even if nothing else is written
      KafkaOffsets offsets = KafkaOffsets.parse(WriteEnvelope.key(row));
      kafkaOffsets = kafkaOffsets == null ? offsets : kafkaOffsets.overlaidWith(offsets);
      return;
    }
    if (WriteEnvelope.op(row) == WriteEnvelope.STALE) {
      currentInstant(); // the count goes into this checkpoint's instant, even if nothing else is written
      staleInEpoch++;
      return;
    }
    BinaryRowData binary = row instanceof BinaryRowData b ? b.copy() : envelopeSerializer.toBinaryRow(row).copy();
    long size = binary.getSizeInBytes();
    String partition = WriteEnvelope.partition(binary);
    String fileGroup = WriteEnvelope.fileGroup(binary);
    String bufferKey = partition + '\u0000' + fileGroup;
    if (size > options.batchSizeBytes()) {
      Buffer alone = new Buffer(partition, fileGroup);
      alone.rows.add(binary);
      flush(alone);
      return;
    }
    while (bufferedBytes + size > options.batchSizeBytes()) {
      flush(largestBuffer());
    }
    Buffer buffer = buffers.computeIfAbsent(bufferKey, k -> new Buffer(partition, fileGroup));
    buffer.rows.add(binary);
    buffer.bytes += size;
    bufferedBytes += size;
    if (bufferedBytes > maxBufferedBytes) {
      maxBufferedBytes = bufferedBytes;
      maxBufferedAccumulator.add(bufferedBytes);
    }
  }

  private Buffer largestBuffer() {
    Buffer largest = null;
    for (Buffer b : buffers.values()) {
      if (largest == null || b.bytes > largest.bytes) {
        largest = b;
      }
    }
    return largest;
  }

  private void flush(Buffer buffer) {
    buffers.remove(buffer.partition + '\u0000' + buffer.fileGroup);
    bufferedBytes -= buffer.bytes;
    int arity = dataType.getFieldCount();
    List<WriteRecord> records = new ArrayList<>(buffer.rows.size());
    for (BinaryRowData row : buffer.rows) {
      String key = WriteEnvelope.key(row);
      GenericRecord data = converter.convert(WriteEnvelope.data(row, arity));
      if (WriteEnvelope.op(row) == WriteEnvelope.DELETE) {
        Comparable<?> ordering = orderingField == null || data.get(orderingField) == null ? null
            : OrderingValues.ofLogRecord(data, orderingField, key);
        records.add(WriteRecord.delete(key, buffer.partition, ordering));
      } else {
        Comparable<?> ordering = orderingField == null ? OrderingValues.NATURAL_ORDER
            : OrderingValues.ofLogRecord(data, orderingField, key);
        records.add(WriteRecord.upsert(key, buffer.partition, data, ordering));
      }
    }
    buffer.rows.clear();
    flusher.write(currentInstant(), buffer.partition, buffer.fileGroup, records);
  }

  /** The instant of the current epoch, asked of the coordinator on the epoch's first write. */
  private String currentInstant() {
    if (instant == null) {
      try {
        var gateway = getContainingTask().getEnvironment().getOperatorCoordinatorEventGateway();
        var request = new WriteMessages.InstantRequest(getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), epoch);
        var response = gateway.sendRequestToCoordinator(getOperatorID(), new SerializedValue<>(request))
            .get(INSTANT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        instant = WriteMessages.instantOf(response);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TableException("interrupted while asking for the instant of epoch " + epoch + " of table "
            + options.path(), e);
      } catch (Exception e) {
        throw new TableException("cannot get the instant of epoch " + epoch + " of table " + options.path()
            + " from the write coordinator", e);
      }
      flusher.startInstant(instant);
    }
    return instant;
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    while (!buffers.isEmpty()) {
      flush(largestBuffer());
    }
    FaultInjection.check(FaultInjection.WRITER_AFTER_FLUSH_BEFORE_BARRIER);
    long checkpointId = context.getCheckpointId();
    if (instant != null) {
      List<WriteStat> stats = flusher.finishInstant();
      long stale = staleInEpoch + flusher.takeStaleCount();
      staleInEpoch = 0;
      WriteResult result = WriteResult.of(getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), checkpointId,
          instant, stats, stale, kafkaOffsets);
      kafkaOffsets = null;
      unconfirmed.add(result);
      eventGateway.sendEventToCoordinator(new WriteMessages.Written(result));
    }
    List<byte[]> state = new ArrayList<>(unconfirmed.size());
    unconfirmed.forEach(r -> state.add(r.toBytes()));
    resultState.update(state);
    epoch = checkpointId;
    instant = null;
    if (inputEnded && finalCheckpoint < 0) {
      finalCheckpoint = checkpointId;
    }
  }

  /** The input has ended; what is buffered is flushed by the final checkpoint that follows. */
  @Override
  public void endInput() {
    inputEnded = true;
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

  @Override
  public void handleOperatorEvent(OperatorEvent event) {
    if (event instanceof WriteMessages.Compact c) {
      FlinkCompaction.run(table, c.instant(), options);
    } else {
      throw new IllegalArgumentException("unexpected event " + event);
    }
  }

  /** Bytes buffered right now (for tests and the gauge). */
  long bufferedBytes() {
    return bufferedBytes;
  }
}
