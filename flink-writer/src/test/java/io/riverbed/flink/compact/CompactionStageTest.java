package io.riverbed.flink.compact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.commit.WriteMessages;
import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.FlinkTables;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sink.WriterFixtures;
import io.riverbed.flink.sink.WriterFixtures.Change;
import io.riverbed.flink.write.RowDataToAvro;
import io.riverbed.flink.write.RowTypeAvroConverter;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import io.riverbed.format.write.WriteRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.hadoop.fs.FileStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three operators of the compaction stage, each driven alone in Flink's operator test harness
 * on a real MERGE_ON_READ table (written by the core's single-task engine, a compaction scheduled
 * by the core's scheduler), the write coordinator replaced by a fake whose answers the test gives:
 * the planner's events per operation and its gate, a compaction task's retries, the committer's
 * commit when (and only when) every operation of one run reported, a planner restarted mid-run,
 * and the committer's end-of-input compactions.
 */
class CompactionStageTest {
  private static final OperatorID WRITER = new OperatorID();

  @TempDir
  Path dir;

  private FlinkWriteOptions options;
  private Table table;
  private Schema schema;
  private SingleTaskEngine engine;
  private final FakeCoordinator coordinator = new FakeCoordinator();
  private final List<OneInputStreamOperatorTestHarness<byte[], ?>> harnesses = new ArrayList<>();

  @BeforeEach
  void createTable() {
    Map<String, String> conf = new LinkedHashMap<>(WriterFixtures.options(dir, "MERGE_ON_READ"));
    conf.put(FlinkWriteOptions.COMPACTION_ASYNC, "true");
    options = FlinkWriteOptions.fromMap(conf);
    schema = RowTypeAvroConverter.toAvroSchema(WriterFixtures.ROW_TYPE, "trips");
    table = FlinkTables.openOrCreate(options, schema);
    engine = new SingleTaskEngine(table, schema, options.writeOptions());
  }

  @AfterEach
  void close() throws Exception {
    FaultInjection.reset();
    for (var h : harnesses) {
      h.close();
    }
  }

  // ---------------------------------------------------------------- the planner

  @Test
  void thePlannerBeginsAPendingCompactionOnceAndSendsOneEventPerOperation() throws Exception {
    String c = scheduledCompaction();
    var planner = planner();
    planner.processElement(new CompactionEvent.WriterCoordinator(WRITER).toBytes(), 0);
    coordinator.answer(WriteMessages.CompactionStageStarted.class);

    planner.notifyOfCompletedCheckpoint(1);
    List<CompactionEvent> first = drain(planner);
    planner.notifyOfCompletedCheckpoint(2);

    assertThat(first.get(0)).as("the writer's coordinator, forwarded").isEqualTo(new CompactionEvent.WriterCoordinator(WRITER));
    List<CompactionEvent.Operation> operations = operations(first);
    assertThat(operations).hasSize(2);
    assertThat(operations).extracting(CompactionEvent.Operation::index).containsExactly(0, 1);
    assertThat(operations).allSatisfy(o -> {
      assertThat(o.instant()).isEqualTo(c);
      assertThat(o.count()).isEqualTo(2);
      assertThat(o.generation()).isEqualTo(operations.get(0).generation());
    });
    assertThat(operations).extracting(o -> o.operation().partitionPath()).containsExactlyInAnyOrder("eu/fr/paris",
        "eu/fr/lyon");
    assertThat(store().exists(Instant.inflight(c, Action.COMPACTION))).isTrue();
    assertThat(drain(planner)).as("begun once per attempt").isEmpty();
  }

  @Test
  void thePlannerBeginsNothingBeforeTheCoordinatorHasRecovered() throws Exception {
    String c = scheduledCompaction();
    var planner = planner();
    planner.notifyOfCompletedCheckpoint(1);
    planner.processElement(new CompactionEvent.WriterCoordinator(WRITER).toBytes(), 0);
    planner.notifyOfCompletedCheckpoint(2);
    assertThat(operations(drain(planner))).as("no answer yet").isEmpty();
    assertThat(coordinator.received).containsExactly(new WriteMessages.CompactionStageStarted());
    assertThat(store().exists(Instant.inflight(c, Action.COMPACTION))).isFalse();

    coordinator.answer(WriteMessages.CompactionStageStarted.class);
    planner.notifyOfCompletedCheckpoint(3);

    assertThat(operations(drain(planner))).hasSize(2);
  }

  @Test
  void thePlannerStartsWhatIsPendingAtTheEndOfItsInput() throws Exception {
    scheduledCompaction();
    var planner = planner();
    planner.processElement(new CompactionEvent.WriterCoordinator(WRITER).toBytes(), 0);
    coordinator.answer(WriteMessages.CompactionStageStarted.class);

    planner.endInput();
    planner.notifyOfCompletedCheckpoint(1);

    assertThat(operations(drain(planner))).as("at the end of input, not again after it").hasSize(2);
  }

  // ---------------------------------------------------------------- a compaction task

  @Test
  void aCompactionTaskReportsEachOperationsBaseFile() throws Exception {
    String c = scheduledCompaction();
    List<CompactionEvent.Operation> operations = begin(c);
    var task = task();
    for (var o : operations) {
      task.processElement(o.toBytes(), 0);
    }
    task.endInput();

    List<CompactionEvent.Result> results = results(drain(task));
    assertThat(results).extracting(CompactionEvent.Result::index).containsExactly(0, 1);
    assertThat(results).allSatisfy(r -> {
      assertThat(r.isFailed()).isFalse();
      assertThat(r.stat()).isPresent();
      assertThat(r.stat().get().fileName()).contains("_" + r.index() + "-1-0_").endsWith("_" + c + ".parquet");
    });
  }

  /** Forced: the fault point fails the first attempt after its file is written; the retry writes attempt 1. */
  @Test
  void aFailedOperationIsRetriedWithTheNextAttemptAndTheCommitDeletesTheFailedFile() throws Exception {
    String c = scheduledCompaction();
    Map<String, String> before = WriterFixtures.read(table);
    List<CompactionEvent.Operation> operations = begin(c);
    FaultInjection.arm(FaultInjection.COMPACTOR_DURING_COMPACTION, 1);
    var task = task();
    task.processElement(operations.get(0).toBytes(), 0);
    task.processElement(operations.get(1).toBytes(), 0);
    task.endInput();
    List<CompactionEvent.Result> results = results(drain(task));
    assertThat(FaultInjection.fired(FaultInjection.COMPACTOR_DURING_COMPACTION)).isEqualTo(1);
    WriteStat retried = results.get(0).stat().orElseThrow();
    assertThat(retried.fileName()).as("attempt 1 of operation 0").contains("_0-1-1_");
    assertThat(baseFilesOf(c)).as("the failed attempt's file is still there").hasSize(3);

    var committer = committer();
    results.forEach(r -> process(committer, r));

    assertThat(completedCompactions()).containsExactly(c);
    assertThat(baseFilesOf(c)).hasSize(2).contains(retried.fileName());
    assertThat(WriterFixtures.read(table)).isEqualTo(before);
  }

  /** Forced: every attempt of operation 0 fails; the task reports the failure and fails. */
  @Test
  void anOperationFailingEveryAttemptIsReportedAndFailsTheTask() throws Exception {
    String c = scheduledCompaction();
    List<CompactionEvent.Operation> operations = begin(c);
    FaultInjection.arm(FaultInjection.COMPACTOR_DURING_COMPACTION, 1, 2, 3);
    var task = task();
    task.processElement(operations.get(0).toBytes(), 0);

    assertThatThrownBy(task::endInput).hasMessageContaining("failed " + CompactionTaskOperator.MAX_ATTEMPTS + " times")
        .hasMessageContaining(c);
    List<CompactionEvent.Result> results = results(drain(task));
    assertThat(results).hasSize(1);
    assertThat(results.get(0).failure()).get().asString().contains("injected failure");
  }

  // ---------------------------------------------------------------- the committer

  @Test
  void theCommitterCommitsOnlyOnceEveryOperationReported() throws Exception {
    String c = scheduledCompaction();
    Map<String, String> before = WriterFixtures.read(table);
    List<CompactionEvent.Result> results = compact(begin(c));
    var committer = committer();

    process(committer, results.get(1));
    assertThat(completedCompactions()).as("one of two operations reported").isEmpty();
    process(committer, results.get(0));

    assertThat(completedCompactions()).containsExactly(c);
    CommitMetadata metadata = completedMetadata(c);
    assertThat(metadata.compacted()).isTrue();
    assertThat(metadata.writeStats()).hasSize(2);
    assertThat(WriterFixtures.read(table)).isEqualTo(before);
  }

  @Test
  void aFailedOperationKeepsItsRunFromBeingCommitted() throws Exception {
    String c = scheduledCompaction();
    List<CompactionEvent.Operation> operations = begin(c);
    List<CompactionEvent.Result> results = compact(operations);
    var committer = committer();

    process(committer, CompactionEvent.Result.failed(operations.get(0), "disk on fire"));
    results.forEach(r -> process(committer, r));

    assertThat(completedCompactions()).isEmpty();
  }

  /**
   * Results of an older run of a compaction (begun again after a restore: its files deleted) never
   * join those of the newer run: the committer keeps results per run, a newer generation resets
   * them, an older one is dropped.
   */
  @Test
  void theCommitterNeverMixesResultsOfTwoRuns() throws Exception {
    String c = scheduledCompaction();
    Map<String, String> before = WriterFixtures.read(table);
    // the old run's operation 0 needed a retry: its file (attempt 1) is named unlike the new run's
    FaultInjection.arm(FaultInjection.COMPACTOR_DURING_COMPACTION, 1);
    List<CompactionEvent.Result> oldRun = compact(begin(c));
    FaultInjection.reset();
    List<CompactionEvent.Result> newRun = compact(regenerate(begin(c), 2));
    assertThat(oldRun.get(0).stat().orElseThrow().fileName()).contains("_0-1-1_");
    var committer = committer();

    process(committer, oldRun.get(0));
    process(committer, newRun.get(1));
    process(committer, oldRun.get(1));
    assertThat(completedCompactions()).as("one operation of the newer run reported").isEmpty();
    process(committer, newRun.get(0));

    assertThat(completedCompactions()).containsExactly(c);
    assertThat(completedMetadata(c).writeStats()).extracting(WriteStat::fileName)
        .containsExactlyInAnyOrderElementsOf(newRun.stream().map(r -> r.stat().orElseThrow().fileName()).toList());
    assertThat(WriterFixtures.read(table)).isEqualTo(before);
  }

  /**
   * A failover in the middle of a compaction: operation 0 was merged by the old run, then a new
   * planner attempt begins the inflight compaction again (deleting that file) and sends every
   * operation again; the new run commits the table as one uninterrupted run would.
   */
  @Test
  void aRestartedPlannerResumesAnInterruptedCompaction() throws Exception {
    String c = scheduledCompaction();
    Map<String, String> before = WriterFixtures.read(table);
    var oldPlanner = planner();
    oldPlanner.processElement(new CompactionEvent.WriterCoordinator(WRITER).toBytes(), 0);
    coordinator.answer(WriteMessages.CompactionStageStarted.class);
    oldPlanner.notifyOfCompletedCheckpoint(1);
    List<CompactionEvent.Operation> oldRun = operations(drain(oldPlanner));
    String partial = compact(List.of(oldRun.get(0))).get(0).stat().orElseThrow().fileName();
    assertThat(baseFilesOf(c)).containsExactly(partial);

    var restarted = planner();
    restarted.processElement(new CompactionEvent.WriterCoordinator(WRITER).toBytes(), 0);
    restarted.notifyOfCompletedCheckpoint(1);
    List<CompactionEvent.Operation> newRun = operations(drain(restarted));
    assertThat(newRun).hasSize(2);
    assertThat(baseFilesOf(c)).as("the interrupted run's file, deleted by the new begin").isEmpty();

    var committer = committer();
    compact(newRun).forEach(r -> process(committer, r));
    assertThat(completedCompactions()).containsExactly(c);
    assertThat(WriterFixtures.read(table)).isEqualTo(before);
  }

  /**
   * Writers keep writing while the stage compacts: a delta commit made after the plan was begun and
   * before the compaction's tasks ran appends its log to the next file slice (base instant: the
   * compaction's), which the compaction's commit leaves visible.
   */
  @Test
  void aDeltaCommitMadeWhileACompactionRunsGoesIntoTheNextSliceAndStaysVisible() throws Exception {
    String c = scheduledCompaction();
    List<CompactionEvent.Operation> operations = begin(c);
    upsert(new Change("k1", "during", 2000, 0, false, false), new Change("k5", "new", 2000, 1, false, false));
    Map<String, String> expected = WriterFixtures.read(table);
    assertThat(expected).containsEntry("k1", "during|2000|eu/fr/paris").containsKey("k5");
    String lateDeltaCommit = store().load().ofAction(Action.DELTA_COMMIT).completed().last().orElseThrow().time();
    CommitMetadata late = CommitMetadata.fromJson(store().read(Instant.completed(lateDeltaCommit, Action.DELTA_COMMIT)),
        lateDeltaCommit);
    assertThat(late.writeStats()).extracting(WriteStat::fileName).as("logs of the slice the compaction starts")
        .allMatch(name -> name.contains("_" + c + ".log."));

    var committer = committer();
    compact(operations).forEach(r -> process(committer, r));

    assertThat(completedCompactions()).containsExactly(c);
    assertThat(WriterFixtures.read(table)).isEqualTo(expected);
  }

  /**
   * The end of input: at the first checkpoint it snapshotted after its input ended, the committer
   * waits for the coordinator's answer that every writer finished, runs the compactions still
   * pending (here one never begun and one a crash left inflight), then reports the stage finished.
   */
  @Test
  void atTheEndOfInputTheCommitterRunsEveryPendingCompactionOnceTheWritersFinished() throws Exception {
    Map<String, String> first = WriterFixtures.read(table);
    String interrupted = scheduledCompaction();
    compact(List.of(begin(interrupted).get(0)));
    upsert(new Change("k-late", "late", 5000, 2, false, false));
    String requested = CompactionScheduler.of(table).execute().instantTime().orElseThrow();
    Map<String, String> expected = WriterFixtures.read(table);
    assertThat(expected).isNotEqualTo(first);
    var committer = committer();
    committer.processElement(new CompactionEvent.WriterCoordinator(WRITER).toBytes(), 0);
    committer.snapshot(1, 0);
    committer.endInput();
    CompletableFuture<CoordinationResponse> writersFinished = coordinator.answer(WriteMessages.FinalCompactionRequest.class);
    coordinator.answer(WriteMessages.CompactionStageFinished.class).complete(response());

    // the writers finish a moment later, on another thread, while the committer waits in its notification
    List<String> completedBeforeWritersFinished = new CopyOnWriteArrayList<>(List.of("not looked"));
    Thread writers = new Thread(() -> {
      try {
        io.riverbed.format.testing.Await.await("the committer's final request", java.time.Duration.ofMinutes(2))
            .until(() -> coordinator.received.contains(new WriteMessages.FinalCompactionRequest()));
        completedBeforeWritersFinished.clear();
        completedBeforeWritersFinished.addAll(completedCompactions());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        writersFinished.complete(response());
      }
    });
    writers.start();
    committer.notifyOfCompletedCheckpoint(1);
    assertThat(coordinator.received).as("checkpoint 1 was taken before the input ended").isEmpty();
    committer.snapshot(2, 0);
    committer.notifyOfCompletedCheckpoint(2);
    writers.join();
    assertThat(completedBeforeWritersFinished).as("run before the writers finished").isEmpty();

    assertThat(completedCompactions()).containsExactly(interrupted, requested);
    assertThat(store().load().pendingCompactions().instants()).isEmpty();
    assertThat(coordinator.received).containsExactly(new WriteMessages.FinalCompactionRequest(),
        new WriteMessages.CompactionStageFinished());
    assertThat(WriterFixtures.read(table)).isEqualTo(expected);
  }

  // ---------------------------------------------------------------- the table

  /** Two partitions (two file groups) with base files and log files, and a compaction of both scheduled. */
  private String scheduledCompaction() {
    upsert(new Change("k1", "a", 1000, 0, false, false), new Change("k2", "b", 1000, 1, false, false),
        new Change("k3", "c", 1000, 0, false, false));
    upsert(new Change("k1", "a2", 1001, 0, false, false), new Change("k3", "deleted", 1001, 0, true, false),
        new Change("k4", "d", 1000, 1, false, false));
    return CompactionScheduler.of(table).execute().instantTime().orElseThrow();
  }

  private void upsert(Change... changes) {
    RowDataToAvro converter = RowDataToAvro.of(WriterFixtures.ROW_TYPE, schema);
    List<WriteRecord> records = new ArrayList<>();
    for (Change change : changes) {
      GenericRecord r = converter.convert(change.row());
      Comparable<?> ordering = OrderingValues.ofLogRecord(r, "ts", change.key());
      records.add(change.delete() ? WriteRecord.delete(change.key(), change.partition(), ordering)
          : WriteRecord.upsert(change.key(), change.partition(), r, ordering));
    }
    engine.write(WriteOperationType.UPSERT, records, Map.of());
  }

  /** Begins compaction {@code c} as the planner would (generation 1) and returns its operation events. */
  private List<CompactionEvent.Operation> begin(String c) {
    var plan = CompactionRunner.of(table, c).begin().orElseThrow();
    List<CompactionEvent.Operation> out = new ArrayList<>();
    for (int i = 0; i < plan.operations().size(); i++) {
      out.add(new CompactionEvent.Operation(c, 1, i, plan.operations().size(), plan.operations().get(i)));
    }
    return out;
  }

  private static List<CompactionEvent.Operation> regenerate(List<CompactionEvent.Operation> operations, long generation) {
    return operations.stream().map(o -> new CompactionEvent.Operation(o.instant(), generation, o.index(), o.count(),
        o.operation())).toList();
  }

  /** Runs {@code operations} through a compaction task; their results. */
  private List<CompactionEvent.Result> compact(List<CompactionEvent.Operation> operations) throws Exception {
    var task = task();
    for (var o : operations) {
      task.processElement(o.toBytes(), 0);
    }
    task.endInput();
    return results(drain(task));
  }

  private List<String> completedCompactions() {
    return store().load().commitsTimeline().completed().filter(i -> i.action() == Action.COMMIT).times();
  }

  private CommitMetadata completedMetadata(String c) {
    Instant done = Instant.completed(c, Action.COMPACTION);
    return CommitMetadata.fromJson(store().read(done), c);
  }

  /** The base files compaction {@code c} has written so far, in both partitions. */
  private List<String> baseFilesOf(String c) throws Exception {
    List<String> out = new ArrayList<>();
    for (String partition : List.of("eu/fr/paris", "eu/fr/lyon")) {
      for (FileStatus f : table.fs().listStatus(table.partitionPath(partition))) {
        if (f.getPath().getName().endsWith("_" + c + ".parquet")) {
          out.add(f.getPath().getName());
        }
      }
    }
    return out;
  }

  private TimelineStore store() {
    return TimelineStore.at(table.fs(), table.metaPath());
  }

  // ---------------------------------------------------------------- harnesses

  private OneInputStreamOperatorTestHarness<byte[], byte[]> planner() throws Exception {
    return harness(CompactionOperatorFactory.plan(options).withRequests(coordinator));
  }

  private OneInputStreamOperatorTestHarness<byte[], byte[]> task() throws Exception {
    return harness(CompactionOperatorFactory.task(options).withRequests(coordinator));
  }

  private OneInputStreamOperatorTestHarness<byte[], Void> committer() throws Exception {
    var h = new OneInputStreamOperatorTestHarness<byte[], Void>(
        CompactionOperatorFactory.commit(options).withRequests(coordinator), BytePrimitiveArraySerializer.INSTANCE);
    harnesses.add(h);
    h.setup();
    h.open();
    return h;
  }

  private OneInputStreamOperatorTestHarness<byte[], byte[]> harness(CompactionOperatorFactory<byte[]> factory)
      throws Exception {
    var h = new OneInputStreamOperatorTestHarness<byte[], byte[]>(factory, BytePrimitiveArraySerializer.INSTANCE);
    harnesses.add(h);
    h.setup(BytePrimitiveArraySerializer.INSTANCE);
    h.open();
    return h;
  }

  private static void process(OneInputStreamOperatorTestHarness<byte[], Void> committer, CompactionEvent event) {
    try {
      committer.processElement(event.toBytes(), 0);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The events emitted since the last call. */
  private static List<CompactionEvent> drain(OneInputStreamOperatorTestHarness<byte[], byte[]> h) {
    List<CompactionEvent> out = h.extractOutputValues().stream().map(CompactionEvent::fromBytes).toList();
    h.getOutput().clear();
    return out;
  }

  private static List<CompactionEvent.Operation> operations(List<CompactionEvent> events) {
    return events.stream().filter(e -> e instanceof CompactionEvent.Operation).map(e -> (CompactionEvent.Operation) e)
        .toList();
  }

  private static List<CompactionEvent.Result> results(List<CompactionEvent> events) {
    return events.stream().filter(e -> e instanceof CompactionEvent.Result).map(e -> (CompactionEvent.Result) e)
        .sorted(java.util.Comparator.comparingInt(CompactionEvent.Result::index)).toList();
  }

  private static CoordinationResponse response() {
    return new CollectCoordinationResponse("test", -1L, List.of());
  }

  /** The write coordinator as the stage sees it: requests recorded, answered when the test says. */
  private static final class FakeCoordinator implements CoordinatorRequests {
    final List<CoordinationRequest> received = new CopyOnWriteArrayList<>();
    private final Map<Class<?>, CompletableFuture<CoordinationResponse>> answers = new ConcurrentHashMap<>();

    @Override
    public CompletableFuture<CoordinationResponse> send(OperatorID target, CoordinationRequest request) {
      assertThat(target).as("requests go to the writer's coordinator").isEqualTo(WRITER);
      received.add(request);
      return future(request.getClass());
    }

    /** The answer to requests of {@code type}: completed now for the stage start, else for the test to complete. */
    CompletableFuture<CoordinationResponse> answer(Class<? extends CoordinationRequest> type) {
      CompletableFuture<CoordinationResponse> f = future(type);
      if (type == WriteMessages.CompactionStageStarted.class) {
        f.complete(response());
      }
      return f;
    }

    private CompletableFuture<CoordinationResponse> future(Class<?> type) {
      return answers.computeIfAbsent(type, t -> new CompletableFuture<>());
    }
  }
}
