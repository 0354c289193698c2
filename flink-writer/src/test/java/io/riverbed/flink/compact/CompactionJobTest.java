package io.riverbed.flink.compact;

import static io.riverbed.flink.sink.WriterFixtures.assertTableHolds;
import static io.riverbed.flink.sink.WriterFixtures.assertNoPendingWrites;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.read;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.ChunkedSource;
import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sink.RiverbedSink;
import io.riverbed.flink.sink.WriterFixtures;
import io.riverbed.flink.sink.WriterFixtures.Change;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.write.commit.TableCommitter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compaction stage in MiniCluster jobs on MERGE_ON_READ tables, read back with the core's
 * reader: compactions every 2 delta commits with 2 compaction tasks while the writers go on; a
 * bounded job whose source ends at once, so its data is (usually) committed by the final
 * checkpoint; a compaction that fails every attempt of a file group and is redone after the
 * failover; and the topology with and without the stage.
 */
class CompactionJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir
  Path dir;

  @AfterEach
  void disarm() {
    FaultInjection.reset();
  }

  private Map<String, String> options(int deltaCommits, int compactionTasks) {
    var o = WriterFixtures.options(dir, "MERGE_ON_READ");
    o.put(FlinkWriteOptions.COMPACTION_ASYNC, "true");
    o.put(FlinkWriteOptions.COMPACTION_DELTA_COMMITS, Integer.toString(deltaCommits));
    o.put(FlinkWriteOptions.COMPACTION_TASKS, Integer.toString(compactionTasks));
    return o;
  }

  @Test
  void aBoundedJobCompactingEveryTwoDeltaCommitsEndsWithTheRowsAndNoPendingCompaction() throws Exception {
    List<List<Change>> stream = changes(31, 4000, 8, 0.4, 0.02, 0.01);
    var options = options(2, 2);
    // one idle checkpoint after each chunk: every commit finds no instant open, so every second one schedules
    write("compaction-job", stream, options, 2, 0, 1);

    Table table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
    Timeline timeline = timeline(table);
    assertThat(timeline.pendingCompactions().instants()).as("pending compactions").isEmpty();
    List<Instant> compactions = completedCompactions(table);
    // how many: after every second delta commit unless the previous compaction still holds every file group
    assertThat(compactions).isNotEmpty();
    assertThat(timeline.ofAction(Action.DELTA_COMMIT).completed().size()).isEqualTo(8);
    assertCompactionsChangeNoSnapshot(table, compactions);
  }

  /**
   * A steady stream, as a production job sees it: no idle checkpoint between chunks, late changes
   * in every chunk (the assigner drops and counts them), and write buffers small enough to flush
   * within a chunk, so when a commit makes a compaction due the writers have mostly begun the next
   * instant already. The plan waits for that instant's commit, holding only the writers that would
   * begin yet another one; the last chunk waits for a completed compaction, so a job that never
   * plans one while data flows fails here (its source gives up after ten minutes).
   */
  @Test
  void compactionsArePlannedAndRunWhileASteadyStreamWithLateChangesFlows() throws Exception {
    List<List<Change>> stream = changes(33, 6000, 12, 0.5, 0.02, 0.01);
    var options = options(2, 2);
    options.put(FlinkWriteOptions.BATCH_SIZE, "0.02");
    String name = "compaction-steady-stream";
    ChunkedSource.holdBefore(name, 11, () -> completedCompactions(table(options)).size() >= 2);
    write(name, stream, options, 2, 0, 0);

    Table table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
    TimelineStore store = table.timelineStore();
    long stale = timeline(table).ofAction(Action.DELTA_COMMIT).completed().instants().stream()
        .map(i -> CommitMetadata.fromJson(store.read(i), i.time()).extraMetadata().get(TableCommitter.STALE_RECORDS_KEY))
        .filter(v -> v != null).mapToLong(Long::parseLong).sum();
    assertThat(stale).as("late changes dropped").isPositive();
    List<Instant> compactions = completedCompactions(table);
    List<Instant> deltaCommits = timeline(table).ofAction(Action.DELTA_COMMIT).completed().instants();
    assertThat(compactions.get(1).time()).as("the second compaction, before the last delta commit")
        .isLessThan(deltaCommits.get(deltaCommits.size() - 1).time());
    assertCompactionsChangeNoSnapshot(table, compactions);
  }

  /**
   * The source ends right after its rows; with checkpoints every 500 ms the writers' data is
   * usually committed by the final checkpoint, after every operator's input ended, and the
   * compaction that commit makes due is run by the committer's end-of-input step (a checkpoint
   * before the end of input would commit it earlier, and the planner would start the compaction).
   * Either way the job ends with the compaction after its last delta commit completed and none
   * pending; {@code CompactionStageTest} forces the end-of-input step.
   */
  @Test
  void theCompactionDueAfterTheLastCommitOfABoundedJobRunsBeforeTheJobEnds() throws Exception {
    List<List<Change>> stream = changes(32, 1000, 1, 0.3, 0.02, 0.0);
    var options = options(1, 2);
    StreamExecutionEnvironment env = WriterFixtures.env(2, 0);
    env.enableCheckpointing(500);
    var rows = env.fromData(WriterFixtures.rows(stream).get(0), InternalTypeInfo.of(WriterFixtures.ROW_TYPE))
        .setParallelism(1);
    RiverbedSink.forRowData(WriterFixtures.ROW_TYPE, options).sinkTo(rows);
    env.execute("compaction-at-end-of-input");

    Table table = table(options);
    assertTableHolds(table, stream);
    Timeline timeline = timeline(table);
    assertThat(timeline.pendingCompactions().instants()).as("pending compactions").isEmpty();
    List<Instant> compactions = completedCompactions(table);
    List<Instant> deltaCommits = timeline.ofAction(Action.DELTA_COMMIT).completed().instants();
    assertThat(deltaCommits).isNotEmpty();
    assertThat(compactions).isNotEmpty();
    assertThat(compactions.get(compactions.size() - 1).time()).as("a compaction after the last delta commit")
        .isGreaterThan(deltaCommits.get(deltaCommits.size() - 1).time());
    assertCompactionsChangeNoSnapshot(table, compactions);
  }

  /**
   * Forced: with one compaction task, the first three passes of {@code compactor.during-compaction}
   * are the three attempts of the first compaction's first file group, so the task fails; the job
   * restarts from its last checkpoint, the planner begins the inflight compaction again (deleting
   * what the failed run wrote) and the compaction completes. No record is lost or read twice.
   */
  @Test
  void aCompactionFailingEveryAttemptIsRedoneAfterTheFailover() throws Exception {
    List<List<Change>> stream = changes(33, 3000, 8, 0.4, 0.02, 0.01);
    var options = options(2, 1);
    FaultInjection.arm(FaultInjection.COMPACTOR_DURING_COMPACTION, 1, 2, 3);
    String name = "compaction-failover";
    write(name, stream, options, 2, 5, 1);

    assertThat(FaultInjection.fired(FaultInjection.COMPACTOR_DURING_COMPACTION)).isEqualTo(3);
    assertThat(ChunkedSource.attempts(name)).as("the job restarted").isGreaterThanOrEqualTo(2);
    Table table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
    assertThat(timeline(table).pendingCompactions().instants()).as("pending compactions").isEmpty();
    List<Instant> compactions = completedCompactions(table);
    assertThat(compactions).isNotEmpty();
    assertCompactionsChangeNoSnapshot(table, compactions);
  }

  @Test
  void theStageIsInTheTopologyOnlyForMergeOnReadWithAsyncCompaction() {
    assertThat(operatorNames(options(2, 3))).contains("riverbed: compact-plan [trips]",
        "riverbed: compact-task [trips]", "riverbed: compact-commit [trips]");
    assertThat(parallelismOf(options(2, 3), "riverbed: compact-task [trips]")).isEqualTo(3);
    assertThat(parallelismOf(options(2, 3), "riverbed: compact-plan [trips]")).isEqualTo(1);
    var defaults = WriterFixtures.options(dir, "MERGE_ON_READ");
    assertThat(operatorNames(defaults)).noneMatch(n -> n.contains("compact"));
    var cow = options(2, 3);
    cow.put("table.type", "COPY_ON_WRITE");
    cow.put(FlinkWriteOptions.PATH, dir.resolve("cow").toString());
    assertThat(operatorNames(cow)).noneMatch(n -> n.contains("compact"));
    var tasksDefault = options(2, 1);
    tasksDefault.remove(FlinkWriteOptions.COMPACTION_TASKS);
    tasksDefault.put(FlinkWriteOptions.WRITE_TASKS, "2");
    assertThat(parallelismOf(tasksDefault, "riverbed: compact-task [trips]")).as("the writer's parallelism")
        .isEqualTo(2);
  }

  // ---------------------------------------------------------------- helpers

  private static List<StreamNode> nodes(Map<String, String> options) {
    StreamExecutionEnvironment env = WriterFixtures.env(2, 0);
    ChunkedSource.register("graph", List.of());
    var source = env.addSource(new ChunkedSource("graph", 0), "chunks", InternalTypeInfo.of(WriterFixtures.ROW_TYPE))
        .setParallelism(1);
    RiverbedSink.forRowData(WriterFixtures.ROW_TYPE, options).sinkTo(source);
    return new ArrayList<>(env.getStreamGraph().getStreamNodes());
  }

  private static List<String> operatorNames(Map<String, String> options) {
    return nodes(options).stream().map(StreamNode::getOperatorName).toList();
  }

  private static int parallelismOf(Map<String, String> options, String operator) {
    return nodes(options).stream().filter(n -> n.getOperatorName().equals(operator)).findFirst().orElseThrow()
        .getParallelism();
  }

  private static Timeline timeline(Table table) {
    return TimelineStore.at(table.fs(), table.metaPath()).load();
  }

  /** Completed compactions (commits with {@code compacted: true}), oldest first. */
  private static List<Instant> completedCompactions(Table table) {
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    return store.load().commitsTimeline().completed().instants().stream()
        .filter(i -> i.action() == Action.COMMIT)
        .filter(i -> CommitMetadata.fromJson(store.read(i), i.time()).compacted())
        .toList();
  }

  /** Each compaction read as of itself equals the newest delta commit before it read as of that one. */
  private static void assertCompactionsChangeNoSnapshot(Table table, List<Instant> compactions) {
    List<Instant> writes = timeline(table).ofAction(Action.DELTA_COMMIT).completed().instants();
    for (Instant compaction : compactions) {
      Instant before = writes.stream().filter(w -> w.time().compareTo(compaction.time()) < 0)
          .reduce((a, b) -> b).orElseThrow();
      assertThat(read(table, QuerySpec.asOf(compaction.time()))).as("compaction %s", compaction)
          .isEqualTo(read(table, QuerySpec.asOf(before.time())));
    }
  }
}
