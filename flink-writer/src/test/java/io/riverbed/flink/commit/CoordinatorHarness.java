package io.riverbed.flink.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sink.WriterFixtures;
import io.riverbed.flink.write.RowDataToAvro;
import io.riverbed.flink.write.RowTypeAvroConverter;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.write.TableWriter;
import io.riverbed.format.write.WriteRecord;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.operators.coordination.EventReceivingTasks;
import org.apache.flink.runtime.operators.coordination.MockOperatorCoordinatorContext;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;

/**
 * Drives a {@link WriteCoordinator} directly, as Flink's scheduler would, with writer subtasks
 * simulated the way {@link io.riverbed.flink.write.StreamWriteOperator} behaves (lazy instant
 * requests, results reported in the snapshot and kept in state until a checkpoint completes),
 * writing real files of a table on the local file system with the core's {@link TableWriter}.
 */
final class CoordinatorHarness implements AutoCloseable {
  static final long TIMEOUT_SECONDS = 120;
  static final String JOB_ID = new JobID().toString();

  final Map<String, String> options;
  final int parallelism;
  final Schema schema;
  private final List<Coordinator> coordinators = new ArrayList<>();

  CoordinatorHarness(Path dir, String tableType, int parallelism, Map<String, String> extraOptions) {
    this.options = new LinkedHashMap<>(WriterFixtures.options(dir, tableType));
    this.options.putAll(extraOptions);
    this.parallelism = parallelism;
    this.schema = RowTypeAvroConverter.toAvroSchema(WriterFixtures.ROW_TYPE, "trips");
  }

  /** A new coordinator instance (not started), as the JobMaster creates one. */
  Coordinator newCoordinator() {
    Coordinator c = new Coordinator(this);
    coordinators.add(c);
    return c;
  }

  /** A writer subtask's attempt, restored from {@code restored} (its state at the restored checkpoint) and {@code epoch}. */
  Writer writer(Coordinator coordinator, int subtask, int attempt, List<WriteResult> restored, long epoch) {
    return new Writer(this, coordinator, subtask, attempt, restored, epoch);
  }

  Table table() {
    return WriterFixtures.table(options);
  }

  /** The table's snapshot as key → "name|ts|partition"; fails on a key read twice. */
  Map<String, String> read() {
    return WriterFixtures.read(table());
  }

  Timeline timeline() {
    Table t = table();
    return TimelineStore.at(t.fs(), t.metaPath()).load();
  }

  /** Completed write instant → its commit metadata, in time order. */
  Map<String, CommitMetadata> commits() {
    Table t = table();
    TimelineStore store = TimelineStore.at(t.fs(), t.metaPath());
    Map<String, CommitMetadata> out = new LinkedHashMap<>();
    for (Instant i : store.load().commitsTimeline().completed().instants()) {
      out.put(i.time(), CommitMetadata.fromJson(store.read(i), store.pathOf(i).toString()));
    }
    return out;
  }

  /** Times of rolled-back instants (the rollbacks' targets are not named here, only counted). */
  int rollbacks() {
    return timeline().ofAction(Action.ROLLBACK).completed().size();
  }

  /** Records written by all commits (inserts + updates + deletes, as their stats count them). */
  long committedWrites() {
    return commits().values().stream().flatMap(m -> m.writeStats().stream())
        .mapToLong(s -> s.numWrites() + s.numDeletes()).sum();
  }

  @Override
  public void close() throws Exception {
    for (Coordinator c : coordinators) {
      c.coordinator.close();
    }
  }

  /** A {@link WriteCoordinator} with a mock context, and the gateways of the subtasks it was told about. */
  static final class Coordinator {
    final MockOperatorCoordinatorContext context;
    final WriteCoordinator coordinator;
    final EventReceivingTasks tasks = EventReceivingTasks.createForRunningTasks();
    private final int parallelism;

    Coordinator(CoordinatorHarness harness) {
      this.parallelism = harness.parallelism;
      this.context = new MockOperatorCoordinatorContext(new OperatorID(), harness.parallelism);
      this.coordinator = new WriteCoordinator(context, FlinkWriteOptions.fromMap(harness.options),
          harness.schema.toString());
    }

    void start() throws Exception {
      coordinator.start();
      sync();
    }

    /** Every subtask's {@code attempt} is running (Flink calls this before the attempt's events). */
    void attemptsReady(int attempt) throws Exception {
      for (int s = 0; s < parallelism; s++) {
        coordinator.executionAttemptReady(s, attempt, tasks.createGatewayForSubtask(s, attempt));
      }
      sync();
    }

    void event(int subtask, int attempt, OperatorEvent event) throws Exception {
      coordinator.handleEventFromOperator(subtask, attempt, event);
      sync();
    }

    CompletableFuture<CoordinationResponse> request(WriteMessages.InstantRequest request) {
      return coordinator.handleCoordinationRequest(request);
    }

    /** Any request (the compaction stage's), after which the coordinator thread has run what it started. */
    CompletableFuture<CoordinationResponse> ask(CoordinationRequest request) throws Exception {
      var response = coordinator.handleCoordinationRequest(request);
      sync();
      return response;
    }

    CompletableFuture<CoordinationResponse> awaitCommit(int subtask, long checkpointId) throws Exception {
      var response = coordinator.handleCoordinationRequest(new WriteMessages.CommitAwaitRequest(subtask, checkpointId));
      sync();
      return response;
    }

    /** {@code checkpointCoordinator(c)}: the coordinator's state for checkpoint {@code c}. */
    byte[] checkpoint(long checkpointId) throws Exception {
      CompletableFuture<byte[]> state = new CompletableFuture<>();
      coordinator.checkpointCoordinator(checkpointId, state);
      return state.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    void checkpointComplete(long checkpointId) throws Exception {
      coordinator.notifyCheckpointComplete(checkpointId);
      sync();
    }

    void resetTo(long checkpointId, byte[] state) throws Exception {
      coordinator.resetToCheckpoint(checkpointId, state);
      sync();
    }

    void subtaskReset(int subtask, long checkpointId) throws Exception {
      coordinator.subtaskReset(subtask, checkpointId);
      sync();
    }

    void attemptFailed(int subtask, int attempt) throws Exception {
      coordinator.executionAttemptFailed(subtask, attempt, new RuntimeException("test: attempt failed"));
      sync();
    }

    boolean failed() {
      return context.isJobFailed();
    }

    Throwable failure() {
      return context.getJobFailureReason();
    }

    /**
     * Waits until the coordinator thread has run everything handed to it so far. The coordinator
     * runs all protocol work on one single-thread executor, so a no-op submitted now runs after it.
     */
    void sync() throws Exception {
      ExecutorService executor = executor();
      if (executor != null && !executor.isShutdown()) {
        executor.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      }
    }

    private ExecutorService executor() throws ReflectiveOperationException {
      Field f = WriteCoordinator.class.getDeclaredField("executor");
      f.setAccessible(true);
      return (ExecutorService) f.get(coordinator);
    }
  }

  /**
   * One writer subtask attempt, as {@link io.riverbed.flink.write.StreamWriteOperator} behaves:
   * announces itself with its restored results, asks for the instant on the first file of an
   * epoch, reports the epoch's result in its snapshot and keeps it in its state until a checkpoint
   * covering it completes.
   * New keys go to a file group of its own per attempt and partition, so a change written twice
   * (once before a crash, once replayed) and committed twice is read twice.
   */
  static final class Writer {
    final int subtask;
    final int attempt;
    private final Coordinator coordinator;
    private final RowDataToAvro converter;
    private final TableWriter<GenericRecord> tableWriter;
    private final List<WriteResult> unconfirmed;
    private final Map<String, String> fileIds = new HashMap<>();
    /** Rows cost 1 byte; the last row of a {@link #write} costs more than this, so the group is written at once. */
    private static final long BUFFER_LIMIT = 1 << 30;
    private long epoch;
    private String instant;
    private String previousInstant;

    private Writer(CoordinatorHarness harness, Coordinator coordinator, int subtask, int attempt,
        List<WriteResult> restored, long epoch) {
      this.subtask = subtask;
      this.attempt = attempt;
      this.coordinator = coordinator;
      this.unconfirmed = new ArrayList<>(restored);
      this.epoch = epoch;
      this.converter = RowDataToAvro.of(WriterFixtures.ROW_TYPE, harness.schema);
      var options = FlinkWriteOptions.fromMap(harness.options);
      this.tableWriter = TableWriter.<GenericRecord>builder(harness.table(), harness.schema, options.writeOptions())
          .task(subtask, harness.parallelism, attempt)
          .bufferLimitBytes(BUFFER_LIMIT)
          .build(this::currentInstant, (row, partition) -> {
            String key = row.get("uuid").toString();
            return WriteRecord.upsert(key, partition, row, OrderingValues.ofLogRecord(row, "ts", key));
          });
    }

    /** Sends {@link WriteMessages.WriterStarted} with the restored results (StreamWriteOperator#open). */
    Writer start() throws Exception {
      coordinator.event(subtask, attempt, new WriteMessages.WriterStarted(JOB_ID, unconfirmed));
      return this;
    }

    /** Writes {@code changes} (upserts of new keys) as one file per partition, now. */
    void write(List<WriterFixtures.Change> changes) {
      Map<String, List<GenericRecord>> byPartition = new LinkedHashMap<>();
      for (WriterFixtures.Change c : changes) {
        byPartition.computeIfAbsent(c.partition(), p -> new ArrayList<>()).add(converter.convert(c.row()));
      }
      byPartition.forEach((partition, rows) -> {
        String fileId = fileIds.computeIfAbsent(partition, p -> FileNames.newFileId());
        for (int i = 0; i < rows.size(); i++) {
          // the last row costs more than any buffer may hold: the group is written now
          tableWriter.write(partition, fileId, rows.get(i), i == rows.size() - 1 ? Long.MAX_VALUE : 1);
        }
      });
    }

    /** {@code snapshotState(c)}: flushes, reports the epoch's result, returns the state the checkpoint holds. */
    List<WriteResult> snapshot(long checkpointId) throws Exception {
      var prepared = tableWriter.prepareCommit();
      if (instant != null) {
        WriteResult result = WriteResult.of(subtask, checkpointId, instant, prepared.writeStats(),
            prepared.staleRecords(), null);
        unconfirmed.add(result);
        coordinator.event(subtask, attempt, new WriteMessages.Written(result));
      }
      epoch = checkpointId;
      if (instant != null) {
        previousInstant = instant;
      }
      instant = null;
      return List.copyOf(unconfirmed);
    }

    /** {@code notifyCheckpointComplete(c)}: results up to {@code c} are no longer kept. */
    void checkpointComplete(long checkpointId) {
      unconfirmed.removeIf(r -> r.checkpointId() <= checkpointId);
    }

    /** The instant of the current epoch, if this attempt asked for one. */
    String instant() {
      return instant;
    }

    private String currentInstant() {
      if (instant == null) {
        try {
          instant = WriteMessages.instantOf(coordinator.request(new WriteMessages.InstantRequest(subtask, epoch, previousInstant))
              .get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        } catch (Exception e) {
          throw new IllegalStateException("subtask " + subtask + " got no instant for epoch " + epoch, e);
        }
      }
      return instant;
    }
  }
}
