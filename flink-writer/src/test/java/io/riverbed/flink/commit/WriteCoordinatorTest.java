package io.riverbed.flink.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.commit.CoordinatorHarness.Coordinator;
import io.riverbed.flink.commit.CoordinatorHarness.Writer;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sink.WriterFixtures;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.WriterLease;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The write coordinator's protocol, driven step by step without a cluster (as Hudi's
 * {@code StreamWriteOperatorCoordinatorTest}): instants opened on request, one commit per covered
 * instant with every subtask's stats, deferred commits, end-of-input waiters, attempts and resets
 * of single subtasks. Data files are real (the core's table writer) and the table is read back.
 */
class WriteCoordinatorTest {
  @TempDir
  Path dir;

  private CoordinatorHarness harness;

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private Coordinator started(String tableType, Map<String, String> extra) throws Exception {
    harness = new CoordinatorHarness(dir, tableType, 2, extra);
    Coordinator c = harness.newCoordinator();
    c.start();
    c.attemptsReady(0);
    return c;
  }

  private List<Writer> writers(Coordinator c, int attempt) throws Exception {
    List<Writer> writers = new ArrayList<>();
    for (int s = 0; s < harness.parallelism; s++) {
      writers.add(harness.writer(c, s, attempt, List.of(), 0).start());
    }
    return writers;
  }

  /** {@code n} inserts of new keys {@code prefix-i} in place {@code place}. */
  static List<WriterFixtures.Change> inserts(String prefix, int n, int place) {
    List<WriterFixtures.Change> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new WriterFixtures.Change(prefix + "-" + i, prefix + "-name-" + i, 1000 + i, place, false, false));
    }
    return out;
  }

  private static String instantOf(java.util.concurrent.CompletableFuture<CoordinationResponse> response)
      throws Exception {
    return WriteMessages.instantOf(response.get(CoordinatorHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS));
  }

  @Test
  void instantRequestOpensAnInflightInstantSharedByTheEpochAndANewOneForTheNextEpoch() throws Exception {
    Coordinator c = started("MERGE_ON_READ", Map.of());
    writers(c, 0);

    String first = instantOf(c.request(new WriteMessages.InstantRequest(0, 0, null)));
    String same = instantOf(c.request(new WriteMessages.InstantRequest(1, 0, null)));
    Instant pending = harness.timeline().commitsTimeline().pending().instants().get(0);
    String next = instantOf(c.request(new WriteMessages.InstantRequest(0, 1, first)));

    assertThat(same).isEqualTo(first);
    assertThat(pending.time()).isEqualTo(first);
    assertThat(pending.isInflight()).as("the instant is inflight, not only requested").isTrue();
    assertThat(pending.action()).isEqualTo(Action.DELTA_COMMIT);
    assertThat(next).isGreaterThan(first);
    assertThat(harness.timeline().commitsTimeline().pending().times()).containsExactly(first, next);
    assertThat(c.failed()).isFalse();
  }

  /**
   * Subtask 1 passed barrier 3 and opened an instant; subtask 0, its barrier late, joined it and
   * reported it at checkpoint 3. Asking for its epoch 3, it must get a new instant: writing the same
   * file groups into the instant it already reported broke COPY_ON_WRITE tables under load.
   */
  @Test
  void aLateWriterJoinsTheNewestInstantButIsNeverGivenTheOneItReportedAgain() throws Exception {
    Coordinator c = started("COPY_ON_WRITE", Map.of());
    writers(c, 0);

    String opened = instantOf(c.request(new WriteMessages.InstantRequest(1, 3, null)));
    String joined = instantOf(c.request(new WriteMessages.InstantRequest(0, 2, null)));
    String next = instantOf(c.request(new WriteMessages.InstantRequest(0, 3, joined)));

    assertThat(joined).isEqualTo(opened);
    assertThat(next).isGreaterThan(opened);
    assertThat(harness.timeline().commitsTimeline().pending().times()).containsExactly(opened, next);
    assertThat(c.failed()).isFalse();
  }

  @Test
  void instantRequestsWaitUntilEveryWriterHasStarted() throws Exception {
    Coordinator c = started("MERGE_ON_READ", Map.of());
    harness.writer(c, 0, 0, List.of(), 0).start();

    var response = c.request(new WriteMessages.InstantRequest(0, 0, null));
    c.sync();
    assertThat(response).as("answered before subtask 1 started").isNotDone();
    assertThat(harness.timeline().commitsTimeline().instants()).isEmpty();

    harness.writer(c, 1, 0, List.of(), 0).start();
    assertThat(instantOf(response)).isEqualTo(harness.timeline().commitsTimeline().pending().times().get(0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"MERGE_ON_READ", "COPY_ON_WRITE"})
  void resultsOfEverySubtaskCommitAsOneInstantWhenTheCheckpointCompletes(String tableType) throws Exception {
    Coordinator c = started(tableType, Map.of());
    List<Writer> w = writers(c, 0);
    w.get(0).write(inserts("a", 5, 0));
    w.get(1).write(inserts("b", 4, 3));
    String instant = w.get(0).instant();

    c.checkpoint(1);
    List<WriteStat> reported = new ArrayList<>();
    for (Writer writer : w) {
      reported.addAll(writer.snapshot(1).get(0).stats());
    }
    assertThat(harness.commits()).as("nothing is committed before the checkpoint completes").isEmpty();
    c.checkpointComplete(1);

    Map<String, CommitMetadata> commits = harness.commits();
    assertThat(commits).containsOnlyKeys(instant);
    CommitMetadata metadata = commits.get(instant);
    assertThat(metadata.writeStats()).extracting(WriteStat::path)
        .containsExactlyInAnyOrderElementsOf(reported.stream().map(WriteStat::path).toList());
    assertThat(metadata.extraMetadata())
        .containsEntry(WriteCoordinator.CHECKPOINT_ID_KEY, "1")
        .containsEntry(WriteCoordinator.JOB_ID_KEY, CoordinatorHarness.JOB_ID)
        .containsKey(WriteCoordinator.WRITER_ID_KEY);
    assertThat(harness.read()).hasSize(9).containsKeys("a-0", "a-4", "b-0", "b-3");
    WriterFixtures.assertNoPendingWrites(harness.table());
    assertThat(c.failed()).isFalse();
  }

  @Test
  void epochWithoutWritesOpensAndCommitsNothing() throws Exception {
    Coordinator c = started("MERGE_ON_READ", Map.of());
    List<Writer> w = writers(c, 0);
    c.checkpoint(1);
    w.forEach(writer -> {
      try {
        assertThat(writer.snapshot(1)).isEmpty();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    c.checkpointComplete(1);
    assertThat(harness.timeline().commitsTimeline().instants()).isEmpty();
  }

  /**
   * Subtask 1 passes barrier 2 and opens an instant for epoch 2 before subtask 0 writes its
   * epoch-1 data, which joins that newer instant. Checkpoint 2 covers subtask 0's part only: the
   * instant waits for checkpoint 3, which carries subtask 1's report, and then commits once with both.
   */
  @Test
  void instantSharedByTwoEpochsCommitsAtTheCheckpointAfterItsLastWriterReported() throws Exception {
    Coordinator c = started("MERGE_ON_READ", Map.of());
    List<Writer> w = writers(c, 0);
    c.checkpoint(1);
    w.get(0).snapshot(1);
    w.get(1).snapshot(1);
    c.checkpointComplete(1);

    c.checkpoint(2);
    w.get(1).snapshot(2);                       // subtask 1 is in epoch 2
    w.get(1).write(inserts("late", 3, 1));      // opens the instant for epoch 2
    w.get(0).write(inserts("early", 2, 0));     // subtask 0, still in epoch 1, joins it
    String shared = w.get(1).instant();
    assertThat(w.get(0).instant()).isEqualTo(shared);
    w.get(0).snapshot(2);
    c.checkpointComplete(2);
    w.forEach(writer -> writer.checkpointComplete(2));

    assertThat(harness.commits()).as("subtask 1 has not reported its part of " + shared).isEmpty();

    c.checkpoint(3);
    w.get(0).snapshot(3);
    w.get(1).snapshot(3);
    c.checkpointComplete(3);

    Map<String, CommitMetadata> commits = harness.commits();
    assertThat(commits).containsOnlyKeys(shared);
    assertThat(commits.get(shared).extraMetadata()).containsEntry(WriteCoordinator.CHECKPOINT_ID_KEY, "3");
    assertThat(harness.read()).containsOnlyKeys("early-0", "early-1", "late-0", "late-1", "late-2");
  }

  /**
   * A result Flink delivers after the checkpoint's completion (the coordinator heard of the
   * completion first): the instant is not committed without it, and commits at the next checkpoint.
   */
  @Test
  void commitIsDeferredWhileASubtaskThatWroteTheInstantHasNotReported() throws Exception {
    Coordinator c = started("MERGE_ON_READ", Map.of());
    harness.writer(c, 0, 0, List.of(), 0).start();
    harness.writer(c, 1, 0, List.of(), 0).start();
    String instant = instantOf(c.request(new WriteMessages.InstantRequest(0, 0, null)));
    instantOf(c.request(new WriteMessages.InstantRequest(1, 0, null)));

    c.checkpoint(1);
    c.event(0, 0, new WriteMessages.Written(WriteResult.of(0, 1, instant, List.of(), 0, null)));
    c.checkpointComplete(1);
    assertThat(harness.commits()).isEmpty();
    assertThat(harness.timeline().commitsTimeline().pending().times()).containsExactly(instant);

    c.event(1, 0, new WriteMessages.Written(WriteResult.of(1, 1, instant, List.of(), 0, null)));
    c.checkpoint(2);
    c.checkpointComplete(2);
    assertThat(harness.commits()).containsOnlyKeys(instant);
    assertThat(harness.commits().get(instant).extraMetadata()).containsEntry(WriteCoordinator.CHECKPOINT_ID_KEY, "2");
  }

  @Test
  void endOfInputWaitersAreAnsweredAfterTheCommitAndTheLastOneReleasesTheLease() throws Exception {
    Coordinator c = started("MERGE_ON_READ", Map.of());
    List<Writer> w = writers(c, 0);
    w.get(0).write(inserts("a", 2, 0));
    w.get(1).write(inserts("b", 2, 1));
    String instant = w.get(0).instant();
    c.checkpoint(1);
    w.get(0).snapshot(1);
    w.get(1).snapshot(1);

    var first = c.awaitCommit(0, 1);
    assertThat(first).as("answered before checkpoint 1 committed").isNotDone();
    c.checkpointComplete(1);
    assertThat(first.get(CoordinatorHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNotNull();
    assertThat(harness.commits()).containsOnlyKeys(instant);
    Table table = harness.table();
    org.apache.hadoop.fs.Path lease = new org.apache.hadoop.fs.Path(table.metaPath(), WriterLease.FILE);
    assertThat(table.fs().exists(lease)).as("lease held while subtask 1 has not finished").isTrue();

    var second = c.awaitCommit(1, 1); // checkpoint 1 is committed already: answered at once
    assertThat(second.get(CoordinatorHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNotNull();
    assertThat(table.fs().exists(lease)).as("lease released once every writer finished").isFalse();
  }

  @Test
  void failedCommitFailsTheJobAndTheWaitersInsteadOfDroppingTheInstant() throws Exception {
    Coordinator c = started("MERGE_ON_READ", Map.of());
    List<Writer> w = writers(c, 0);
    w.get(0).write(inserts("a", 2, 0));
    String instant = w.get(0).instant();
    c.checkpoint(1);
    w.get(0).snapshot(1);
    w.get(1).snapshot(1);
    var waiter = c.awaitCommit(0, 1);
    // someone removed the pending instant: its writes cannot be committed
    Table table = harness.table();
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    store.deleteAllStates(instant, store.load().find(instant).orElseThrow().action());

    c.checkpointComplete(1);

    assertThat(c.failed()).isTrue();
    assertThat(c.failure()).hasMessageContaining("commit of checkpoint 1").rootCause().hasMessageContaining(instant);
    assertThat(waiter).isCompletedExceptionally();
    assertThatWaiterFailure(waiter).contains("failed before it committed checkpoint 1");
  }

  private static org.assertj.core.api.AbstractStringAssert<?> assertThatWaiterFailure(
      java.util.concurrent.CompletableFuture<CoordinationResponse> waiter) {
    try {
      waiter.get();
      throw new AssertionError("the waiter was answered");
    } catch (ExecutionException | InterruptedException e) {
      return assertThat(e.getCause().getMessage());
    }
  }

  /**
   * Writer subtask 1 alone restarts from checkpoint 1 (its new attempt is ready first, as Flink
   * orders it): requests wait until it is back, its old attempt's late report is dropped, the
   * instant it wrote after checkpoint 1 is rolled back and its replay commits once.
   */
  @Test
  void subtaskResetRollsBackWritesAfterTheCheckpointAndIgnoresTheOldAttempt() throws Exception {
    Coordinator c = started("MERGE_ON_READ", Map.of());
    List<Writer> w = writers(c, 0);
    w.get(0).write(inserts("a", 2, 0));
    c.checkpoint(1);
    List<WriteResult> state0 = w.get(0).snapshot(1);
    List<WriteResult> state1 = w.get(1).snapshot(1);
    c.checkpointComplete(1);
    w.forEach(writer -> writer.checkpointComplete(1));

    w.get(1).write(inserts("lost", 2, 1));      // epoch 1, never checkpointed
    String crashed = w.get(1).instant();
    var stale = WriteResult.of(1, 2, crashed, List.of(), 0, null);

    c.attemptFailed(1, 0);
    c.subtaskReset(1, 1);
    c.coordinator.executionAttemptReady(1, 1, c.tasks.createGatewayForSubtask(1, 1));
    c.sync();
    // subtask 0 goes on writing: its instant request waits for subtask 1's recovery
    var blocked = java.util.concurrent.CompletableFuture.runAsync(() -> w.get(0).write(inserts("b", 2, 2)));
    c.sync();
    assertThat(blocked).as("served while subtask 1 is recovering").isNotDone();

    Writer restarted = harness.writer(c, 1, 1, state1, 1).start();
    blocked.get(CoordinatorHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    String next = w.get(0).instant();
    assertThat(next).as("subtask 0 is served after the recovery, not with the instant it rolls back")
        .isNotEqualTo(crashed);
    c.event(1, 0, new WriteMessages.Written(stale)); // the old attempt's report arrives late
    assertThat(next).isNotEqualTo(crashed);
    assertThat(harness.timeline().commitsTimeline().find(crashed)).as("rolled back").isEmpty();
    restarted.write(inserts("lost", 2, 1));     // the replay
    assertThat(restarted.instant()).isEqualTo(next);
    c.checkpoint(2);
    w.get(0).snapshot(2);
    restarted.snapshot(2);
    c.checkpointComplete(2);

    assertThat(harness.commits()).hasSize(2).containsKey(next);
    assertThat(harness.read()).containsOnlyKeys("a-0", "a-1", "b-0", "b-1", "lost-0", "lost-1");
    assertThat(harness.committedWrites()).as("no record committed twice").isEqualTo(6);
    assertThat(c.failed()).isFalse();
    assertThat(state0).hasSize(1);
  }

  // ---------------------------------------------------------------- the compaction stage's protocol

  private static final Map<String, String> COMPACTING = Map.of(FlinkWriteOptions.COMPACTION_ASYNC, "true",
      FlinkWriteOptions.COMPACTION_DELTA_COMMITS, "1");

  /** One checkpoint in which both writers write and report; returns what their state holds. */
  private void writeAndCheckpoint(Coordinator c, List<Writer> w, long checkpointId, String prefix) throws Exception {
    w.get(0).write(inserts(prefix + "a", 2, 0));
    w.get(1).write(inserts(prefix + "b", 2, 1));
    c.checkpoint(checkpointId);
    w.get(0).snapshot(checkpointId);
    w.get(1).snapshot(checkpointId);
  }

  @Test
  void theCompactionStageMayStartOnlyOnceTheCoordinatorHasRecovered() throws Exception {
    Coordinator c = started("MERGE_ON_READ", COMPACTING);
    var start = c.ask(new WriteMessages.CompactionStageStarted());
    harness.writer(c, 0, 0, List.of(), 0).start();
    assertThat(start).as("subtask 1 has not started: no recovery, no lease yet").isNotDone();

    harness.writer(c, 1, 0, List.of(), 0).start();

    assertThat(start.get(CoordinatorHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNotNull();
    Table table = harness.table();
    assertThat(table.fs().exists(new org.apache.hadoop.fs.Path(table.metaPath(), WriterLease.FILE))).isTrue();
  }

  @Test
  void aDueCompactionIsScheduledAfterTheCommitAndNothingIsSentToTheWriters() throws Exception {
    Coordinator c = started("MERGE_ON_READ", COMPACTING);
    List<Writer> w = writers(c, 0);
    writeAndCheckpoint(c, w, 1, "");
    c.checkpointComplete(1);

    assertThat(harness.timeline().pendingCompactions().times()).as("a compaction is due after one delta commit")
        .hasSize(1);
    for (int s = 0; s < harness.parallelism; s++) {
      assertThat(c.tasks.getSentEventsForSubtask(s)).as("events to writer %d", s).isEmpty();
    }
    assertThat(c.failed()).isFalse();
  }

  /**
   * Epoch 0 written by both writers and checkpointed; subtask 1 begins epoch 1's instant before
   * checkpoint 1 completes, with one delta commit making a compaction due; returns that instant.
   */
  private String openTheNextInstantBeforeTheCommit(Coordinator c, List<Writer> w) throws Exception {
    writeAndCheckpoint(c, w, 1, "");
    w.get(1).write(inserts("next", 2, 2));
    String open = w.get(1).instant();
    c.checkpointComplete(1);
    assertThat(harness.commits()).hasSize(1);
    return open;
  }

  /** Checkpoint 2 snapshotted by both writers; subtask 1's request for epoch 2, which must be held. */
  private CompletableFuture<CoordinationResponse> heldRequest(Coordinator c, List<Writer> w, String open)
      throws Exception {
    c.checkpoint(2);
    w.get(0).snapshot(2);
    w.get(1).snapshot(2);
    var held = c.request(new WriteMessages.InstantRequest(1, 2, open));
    c.sync();
    assertThat(held).as("a request that would begin an instant after %s", open).isNotDone();
    return held;
  }

  /**
   * Subtask 1 begins epoch 1's instant before checkpoint 1 commits epoch 0's, as a steady stream
   * does (a full buffer flushed, a late change counted). The compaction that commit makes due may
   * not take slices the open instant writes into: it waits. A writer joining the open instant goes
   * on; one that would begin another instant is held until the open one is committed at checkpoint
   * 2, the plan made, and is then given an instant after the plan's.
   */
  @Test
  void aDueCompactionWaitsForTheOpenInstantAndHoldsOnlyTheWritersThatWouldBeginAnother() throws Exception {
    Coordinator c = started("MERGE_ON_READ", COMPACTING);
    List<Writer> w = writers(c, 0);
    String open = openTheNextInstantBeforeTheCommit(c, w);
    assertThat(harness.timeline().pendingCompactions().instants()).as("a plan while %s is open", open).isEmpty();

    w.get(0).write(inserts("join", 2, 0));
    assertThat(w.get(0).instant()).as("a writer still in epoch 1 joins the open instant").isEqualTo(open);
    var held = heldRequest(c, w, open);

    c.checkpointComplete(2);
    List<String> planned = harness.timeline().pendingCompactions().times();
    assertThat(planned).hasSize(1);
    assertThat(planned.get(0)).isGreaterThan(open);
    assertThat(instantOf(held)).as("the held writer's instant").isGreaterThan(planned.get(0));
    assertThat(harness.read()).containsOnlyKeys("a-0", "a-1", "b-0", "b-1", "next-0", "next-1", "join-0", "join-1");
    assertThat(c.failed()).isFalse();
  }

  /**
   * The checkpoint that was to commit the open instant fails (aborted, or the next one begins
   * without it): the held writers go on at once, without a plan, rather than wait another whole
   * checkpoint; the compaction is planned after a later commit.
   */
  @ParameterizedTest
  @ValueSource(strings = {"aborted", "next checkpoint"})
  void heldWritersGoOnWithoutAPlanWhenTheCheckpointThatWouldCommitTheOpenInstantFails(String how) throws Exception {
    Coordinator c = started("MERGE_ON_READ", COMPACTING);
    List<Writer> w = writers(c, 0);
    String open = openTheNextInstantBeforeTheCommit(c, w);
    var held = heldRequest(c, w, open);

    if (how.equals("aborted")) {
      c.coordinator.notifyCheckpointAborted(2);
      c.sync();
    } else {
      c.checkpoint(3);
    }
    assertThat(instantOf(held)).isGreaterThan(open);
    assertThat(harness.timeline().pendingCompactions().instants()).isEmpty();
    assertThat(c.failed()).isFalse();
  }

  /**
   * Subtask 0, its barrier 1 late, joined the instant subtask 1 opened for epoch 1 and reported it
   * at checkpoint 1; the compaction checkpoint 1 makes due waits for that instant. Asking again in
   * epoch 1, subtask 0 may not be given the instant it reported and is still needed for checkpoint
   * 2, which commits it: it is answered at once with a new instant of epoch 1, and both commit at
   * checkpoint 2, after which the plan is made.
   */
  @Test
  void aWriterStillInTheAwaitedEpochIsNotHeldAndItsNewInstantCommitsWithTheAwaitedOne() throws Exception {
    Coordinator c = started("MERGE_ON_READ", COMPACTING);
    List<Writer> w = writers(c, 0);
    c.checkpoint(1);
    w.get(1).write(inserts("b", 2, 1));
    w.get(1).snapshot(1);
    w.get(1).write(inserts("next", 2, 2));
    String awaited = w.get(1).instant();
    w.get(0).write(inserts("late", 2, 0));
    assertThat(w.get(0).instant()).isEqualTo(awaited);
    w.get(0).snapshot(1);
    c.checkpointComplete(1);
    assertThat(harness.commits()).hasSize(1);
    assertThat(harness.timeline().pendingCompactions().instants()).isEmpty();

    var request = c.request(new WriteMessages.InstantRequest(0, 1, awaited));
    c.sync();
    assertThat(request).as("the request of a writer checkpoint 2 needs").isDone();
    String own = instantOf(request);
    assertThat(own).isGreaterThan(awaited);
    c.event(0, 0, new WriteMessages.Written(WriteResult.of(0, 2, own, List.of(), 0, null)));
    c.checkpoint(2);
    w.get(1).snapshot(2);
    c.checkpointComplete(2);

    assertThat(harness.commits()).containsKeys(awaited, own);
    List<String> planned = harness.timeline().pendingCompactions().times();
    assertThat(planned).hasSize(1);
    assertThat(planned.get(0)).isGreaterThan(own);
    assertThat(c.failed()).isFalse();
  }

  /** A held request of a writer that is reset is failed (its attempt is gone); nothing is opened for it. */
  @Test
  void aResetWriterHeldRequestFailsAndOpensNothing() throws Exception {
    Coordinator c = started("MERGE_ON_READ", COMPACTING);
    List<Writer> w = writers(c, 0);
    String open = openTheNextInstantBeforeTheCommit(c, w);
    var held = heldRequest(c, w, open);

    c.subtaskReset(1, 1);
    assertThat(held).isCompletedExceptionally();
    assertThat(harness.timeline().commitsTimeline().pending().times()).containsExactly(open);
  }

  /** Hudi's compaction.schedule.enabled=false, and Riverbed's default of both options: no plan is written. */
  @ParameterizedTest
  @ValueSource(strings = {"schedule-disabled", "defaults"})
  void withoutSchedulingNoCompactionIsPlanned(String setting) throws Exception {
    Map<String, String> options = setting.equals("defaults") ? Map.of(FlinkWriteOptions.COMPACTION_DELTA_COMMITS, "1")
        : Map.of(FlinkWriteOptions.COMPACTION_ASYNC, "true", FlinkWriteOptions.COMPACTION_SCHEDULE, "false",
            FlinkWriteOptions.COMPACTION_DELTA_COMMITS, "1");
    Coordinator c = started("MERGE_ON_READ", options);
    List<Writer> w = writers(c, 0);
    writeAndCheckpoint(c, w, 1, "");
    c.checkpointComplete(1);

    assertThat(harness.commits()).hasSize(1);
    assertThat(harness.timeline().pendingCompactions().instants()).isEmpty();
  }

  /**
   * The end of a bounded job with the compaction stage: the stage's final request is answered only
   * once every writer's last commit is done and the compaction it made due is scheduled; the lease
   * stays held until the stage reports its last compactions done.
   */
  @Test
  void theFinalCompactionRequestWaitsForEveryWritersLastCommitAndTheLeaseForTheStage() throws Exception {
    Coordinator c = started("MERGE_ON_READ", COMPACTING);
    List<Writer> w = writers(c, 0);
    writeAndCheckpoint(c, w, 1, "");
    var finalRequest = c.ask(new WriteMessages.FinalCompactionRequest());
    var first = c.awaitCommit(0, 1);
    c.checkpointComplete(1);
    first.get(CoordinatorHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    assertThat(finalRequest).as("writer 1 has not finished").isNotDone();

    var second = c.awaitCommit(1, 1);
    second.get(CoordinatorHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    finalRequest.get(CoordinatorHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS);

    assertThat(harness.timeline().pendingCompactions().times()).as("scheduled before the answer").hasSize(1);
    Table table = harness.table();
    var lease = new org.apache.hadoop.fs.Path(table.metaPath(), WriterLease.FILE);
    assertThat(table.fs().exists(lease)).as("held while the stage compacts").isTrue();
    c.ask(new WriteMessages.CompactionStageFinished()).get(CoordinatorHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    assertThat(table.fs().exists(lease)).as("released once the stage finished").isFalse();
    assertThat(c.failed()).isFalse();
  }

  @Test
  void aResetFailsTheStagesFinalRequestOfThePreviousAttempt() throws Exception {
    Coordinator c = started("MERGE_ON_READ", COMPACTING);
    writers(c, 0);
    byte[] state = c.checkpoint(1);
    var finalRequest = c.ask(new WriteMessages.FinalCompactionRequest());

    c.resetTo(1, state);

    assertThat(finalRequest).isCompletedExceptionally();
    assertThatWaiterFailure(finalRequest).contains("reset to checkpoint 1");
  }
}
