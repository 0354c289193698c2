package io.riverbed.flink.commit;

import static io.riverbed.flink.commit.WriteCoordinatorTest.inserts;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.commit.CoordinatorHarness.Coordinator;
import io.riverbed.flink.commit.CoordinatorHarness.Writer;
import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.WriterFixtures;
import io.riverbed.format.timeline.CommitMetadata;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Recovery of the write coordinator at every step of its protocol: the job crashes at a named
 * point of round 2 (round 1 is committed) and restarts from the last completed checkpoint — with a
 * new coordinator restored from its snapshot, a global failover resetting the same one, or every
 * writer subtask reset — and the source replays what that checkpoint does not cover. Each case
 * forces one interleaving; in each the table ends with every record committed exactly once.
 */
class WriteCoordinatorRecoveryTest {
  @TempDir
  Path dir;

  private CoordinatorHarness harness;

  @AfterEach
  void close() throws Exception {
    FaultInjection.reset();
    if (harness != null) {
      harness.close();
    }
  }

  /** Where round 2 (checkpoint 2) stops. */
  enum CrashPoint {
    /** The writers asked for the instant and wrote their files. */
    AFTER_INSTANT_OPENED,
    /** ... and the coordinator snapshotted checkpoint 2 (the writers did not). */
    AFTER_CHECKPOINT_COORDINATOR,
    /** ... and the writers snapshotted checkpoint 2 and reported; checkpoint 2 never completes. */
    AFTER_RESULTS_REPORTED,
    /** Checkpoint 2 completed; the coordinator crashed before it handled the notification. */
    AFTER_CHECKPOINT_COMPLETE_BEFORE_COMMIT,
    /** The coordinator wrote the commit of checkpoint 2 and failed before it recorded it or answered anyone. */
    AFTER_COMMIT_BEFORE_ANSWER;

    /** The checkpoint the job restarts from. */
    long restoredCheckpoint() {
      return this == AFTER_CHECKPOINT_COMPLETE_BEFORE_COMMIT || this == AFTER_COMMIT_BEFORE_ANSWER ? 2 : 1;
    }
  }

  /** How Flink restarts. */
  enum Restart {
    /** A new coordinator instance (JobManager failover, or a new job from the checkpoint): resetToCheckpoint, then start. */
    NEW_COORDINATOR,
    /** The same coordinator, resetToCheckpoint (global failover; after a coordinator failure always this). */
    GLOBAL_FAILOVER,
    /** The same coordinator, subtaskReset of every writer subtask (regional failover of the writers' region). */
    REGIONAL_FAILOVER
  }

  static Stream<Arguments> crashes() {
    List<Arguments> out = new ArrayList<>();
    for (CrashPoint point : CrashPoint.values()) {
      for (Restart restart : Restart.values()) {
        // after its own failure the coordinator ignores subtask resets: Flink fails the job over globally
        if (!(point == CrashPoint.AFTER_COMMIT_BEFORE_ANSWER && restart == Restart.REGIONAL_FAILOVER)) {
          out.add(Arguments.of(point, restart));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("crashes")
  void crashInRoundTwoEndsWithEveryRecordCommittedOnce(CrashPoint point, Restart restart) throws Exception {
    harness = new CoordinatorHarness(dir, "MERGE_ON_READ", 2, Map.of());
    var round1 = List.of(inserts("r1s0", 3, 0), inserts("r1s1", 2, 3));
    var round2 = List.of(inserts("r2s0", 2, 0), inserts("r2s1", 4, 5));

    Coordinator first = harness.newCoordinator();
    first.start();
    first.attemptsReady(0);
    List<Writer> writers = List.of(harness.writer(first, 0, 0, List.of(), 0).start(),
        harness.writer(first, 1, 0, List.of(), 0).start());

    // round 1: committed on checkpoint 1
    writers.get(0).write(round1.get(0));
    writers.get(1).write(round1.get(1));
    byte[] state1 = first.checkpoint(1);
    List<List<WriteResult>> writerState1 = List.of(writers.get(0).snapshot(1), writers.get(1).snapshot(1));
    first.checkpointComplete(1);
    writers.forEach(w -> w.checkpointComplete(1));

    // round 2, up to the crash
    writers.get(0).write(round2.get(0));
    writers.get(1).write(round2.get(1));
    String instant2 = writers.get(0).instant();
    byte[] state2 = null;
    List<List<WriteResult>> writerState2 = null;
    Throwable injected = null;
    if (point.compareTo(CrashPoint.AFTER_CHECKPOINT_COORDINATOR) >= 0) {
      state2 = first.checkpoint(2);
    }
    if (point.compareTo(CrashPoint.AFTER_RESULTS_REPORTED) >= 0) {
      writerState2 = List.of(writers.get(0).snapshot(2), writers.get(1).snapshot(2));
    }
    if (point == CrashPoint.AFTER_COMMIT_BEFORE_ANSWER) {
      var waiter = first.awaitCommit(0, 2);
      FaultInjection.arm(FaultInjection.COORDINATOR_DURING_COMMIT, 1);
      first.checkpointComplete(2);
      assertThat(first.failed()).as("the injected fault failed the job").isTrue();
      assertThat(harness.commits()).as("the commit point was passed").containsKey(instant2);
      assertThat(waiter).as("the end-of-input waiter is not told it committed").isCompletedExceptionally();
      injected = first.failure();
    }

    // restart from the last completed checkpoint
    long c = point.restoredCheckpoint();
    byte[] coordinatorState = c == 1 ? state1 : state2;
    List<List<WriteResult>> writerState = c == 1 ? writerState1 : writerState2;
    Coordinator recovered = switch (restart) {
      case NEW_COORDINATOR -> {
        Coordinator fresh = harness.newCoordinator();
        fresh.resetTo(c, coordinatorState);
        fresh.start();
        yield fresh;
      }
      case GLOBAL_FAILOVER -> {
        first.resetTo(c, coordinatorState);
        yield first;
      }
      case REGIONAL_FAILOVER -> {
        for (int s = 0; s < harness.parallelism; s++) {
          first.attemptFailed(s, 0);
          first.subtaskReset(s, c);
        }
        if (point == CrashPoint.AFTER_CHECKPOINT_COMPLETE_BEFORE_COMMIT) {
          first.checkpointComplete(2); // the late notification arrives while the coordinator recovers
        }
        yield first;
      }
    };
    recovered.attemptsReady(1);
    List<Writer> again = List.of(harness.writer(recovered, 0, 1, writerState.get(0), c).start(),
        harness.writer(recovered, 1, 1, writerState.get(1), c).start());

    WriterFixtures.assertNoPendingWrites(harness.table());
    if (c == 1) {
      assertThat(harness.commits()).as("round 2's instant is rolled back, not committed").doesNotContainKey(instant2);
      assertThat(harness.rollbacks()).isEqualTo(1);
      again.get(0).write(round2.get(0)); // the source replays round 2
      again.get(1).write(round2.get(1));
    } else {
      assertThat(harness.commits()).as("checkpoint 2's instant is committed on recovery").containsKey(instant2);
      assertThat(harness.rollbacks()).isZero();
    }
    recovered.checkpoint(3);
    again.get(0).snapshot(3);
    again.get(1).snapshot(3);
    recovered.checkpointComplete(3);

    Map<String, CommitMetadata> commits = harness.commits();
    assertThat(commits).as("round 1 and round 2, one instant each").hasSize(2);
    assertThat(commits.values()).extracting(m -> m.extraMetadata().get(WriteCoordinator.CHECKPOINT_ID_KEY))
        .containsExactly("1", c == 1 ? "3" : "2");
    assertThat(harness.committedWrites()).as("records in the commits' stats").isEqualTo(11);
    var expected = WriterFixtures.expected(List.of(round1.get(0), round1.get(1), round2.get(0), round2.get(1)));
    assertThat(harness.read()).isEqualTo(expected);
    WriterFixtures.assertNoPendingWrites(harness.table());
    if (injected != null && recovered == first) {
      assertThat(recovered.failure()).as("no failure after the injected one").isSameAs(injected);
    } else {
      assertThat(recovered.failed()).as("recovered without failing: %s", recovered.failure()).isFalse();
    }
  }

  /**
   * The coordinator's snapshot is where a result lives once its writer confirmed it: subtask 0's
   * part of an instant shared with epoch 2 is reported at checkpoint 2 and dropped by the writer
   * when checkpoint 2 completes, but the instant waits for subtask 1 (checkpoint 3). A crash after
   * checkpoint 3 completed, before its commit, recovers subtask 0's part from the coordinator's
   * state of checkpoint 3 and subtask 1's from its writer state: one commit with both.
   */
  @Test
  void resultOnlyInTheCoordinatorSnapshotIsCommittedAfterRestore() throws Exception {
    harness = new CoordinatorHarness(dir, "MERGE_ON_READ", 2, Map.of());
    Coordinator first = harness.newCoordinator();
    first.start();
    first.attemptsReady(0);
    List<Writer> w = List.of(harness.writer(first, 0, 0, List.of(), 0).start(),
        harness.writer(first, 1, 0, List.of(), 0).start());
    first.checkpoint(1);
    w.get(0).snapshot(1);
    w.get(1).snapshot(1);
    first.checkpointComplete(1);
    w.forEach(x -> x.checkpointComplete(1));

    first.checkpoint(2);
    w.get(1).snapshot(2);
    w.get(1).write(inserts("late", 3, 1));
    w.get(0).write(inserts("early", 2, 0));
    String shared = w.get(0).instant();
    w.get(0).snapshot(2);
    first.checkpointComplete(2);
    w.forEach(x -> x.checkpointComplete(2));

    byte[] state3 = first.checkpoint(3);
    List<WriteResult> writer0 = w.get(0).snapshot(3);
    List<WriteResult> writer1 = w.get(1).snapshot(3);
    assertThat(writer0).as("subtask 0 no longer keeps its part").isEmpty();
    assertThat(harness.commits()).isEmpty();
    // checkpoint 3 completes; the coordinator crashes before it commits

    Coordinator recovered = harness.newCoordinator();
    recovered.resetTo(3, state3);
    recovered.start();
    recovered.attemptsReady(1);
    harness.writer(recovered, 0, 1, writer0, 3).start();
    harness.writer(recovered, 1, 1, writer1, 3).start();

    assertThat(harness.commits()).containsOnlyKeys(shared);
    assertThat(harness.read()).containsOnlyKeys("early-0", "early-1", "late-0", "late-1", "late-2");
    assertThat(recovered.failed()).isFalse();
  }

  /**
   * An instant shared by two epochs, restored from the earlier checkpoint: subtask 0's epoch-1
   * part is covered by checkpoint 2 and committed on recovery; subtask 1's epoch-2 files in the
   * same instant are not covered (the source replays them). They must not become visible with the
   * commit, or the replayed records are read twice.
   */
  @Test
  void sharedInstantRecoveredFromTheEarlierCheckpointKeepsNoFilesOfTheLaterEpoch() throws Exception {
    harness = new CoordinatorHarness(dir, "MERGE_ON_READ", 2, Map.of());
    Coordinator first = harness.newCoordinator();
    first.start();
    first.attemptsReady(0);
    List<Writer> w = List.of(harness.writer(first, 0, 0, List.of(), 0).start(),
        harness.writer(first, 1, 0, List.of(), 0).start());
    w.get(0).write(inserts("r1", 2, 2));
    first.checkpoint(1);
    w.get(0).snapshot(1);
    w.get(1).snapshot(1);
    first.checkpointComplete(1);
    w.forEach(x -> x.checkpointComplete(1));

    byte[] state2 = first.checkpoint(2);
    List<WriteResult> writer1 = w.get(1).snapshot(2);
    var late = inserts("late", 3, 1);
    w.get(1).write(late);                       // epoch 2: after checkpoint 2
    w.get(0).write(inserts("early", 2, 0));     // epoch 1: covered by checkpoint 2
    String shared = w.get(0).instant();
    assertThat(w.get(1).instant()).isEqualTo(shared);
    List<WriteResult> writer0 = w.get(0).snapshot(2);
    first.checkpointComplete(2);
    w.forEach(x -> x.checkpointComplete(2));
    // crash before checkpoint 3: restart from checkpoint 2

    Coordinator recovered = harness.newCoordinator();
    recovered.resetTo(2, state2);
    recovered.start();
    recovered.attemptsReady(1);
    harness.writer(recovered, 0, 1, writer0, 2).start();
    Writer replay = harness.writer(recovered, 1, 1, writer1, 2).start();

    assertThat(harness.commits()).containsKey(shared);
    assertThat(harness.read()).as("after recovery: what checkpoint 2 covers")
        .containsOnlyKeys("r1-0", "r1-1", "early-0", "early-1");
    replay.write(late);
    recovered.checkpoint(3);
    replay.snapshot(3);
    recovered.checkpointComplete(3);

    assertThat(harness.read()).containsOnlyKeys("r1-0", "r1-1", "early-0", "early-1", "late-0", "late-1", "late-2");
    assertThat(recovered.failed()).isFalse();
  }
}
