package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.savepoint.DeleteSavepoint;
import io.riverbed.format.savepoint.Restore;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantInfo;
import io.riverbed.format.timeline.RestoreMetadata;
import io.riverbed.format.timeline.RestorePlan;
import io.riverbed.format.timeline.SavepointMetadata;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Restoring a table to a savepoint: what is rolled back and in which order, what the table reads
 * and holds afterwards, a crash at each step finished by running the restore again, and what is
 * refused. (In the {@code write} package for {@link CleanTestTable}.)
 */
class RestoreTest {
  @TempDir java.nio.file.Path dir;

  private static TimelineStore store(CleanTestTable t) {
    return TimelineStore.at(t.table.fs(), t.table.metaPath());
  }

  /** The table, its savepoint, what a read as of it returned, and what must be rolled back, newest first. */
  private record Scenario(CleanTestTable t, String savepoint, List<String> asOfSavepoint, TreeSet<String> filesAtSavepoint,
      Timeline timelineAtSavepoint, SavepointMetadata pinned, List<InstantInfo> expectedRollbacks) {}

  /**
   * MOR: r1, r2 (savepointed), r3, compaction c (completed), r4 (logs on c's slices), compaction p
   * (scheduled only), r5 (logs into p's slices), f6 (a write that never committed).
   */
  private Scenario morScenario() throws Exception {
    var t = CleanTestTable.create(dir, TableType.MERGE_ON_READ);
    t.upsertRound(1);
    String s = t.upsertRound(2);
    List<String> asOf = t.asOf(s);
    TreeSet<String> files = t.dataFiles();
    Timeline atSavepoint = t.timeline();
    SavepointMetadata pinned = t.savepoint(s);
    String r3 = t.upsertRound(3);
    String c = t.compact();
    String r4 = t.upsertRound(4);
    String p = t.scheduleCompaction();
    String r5 = t.upsertRound(5);
    String f6 = t.failedRound(6);
    return new Scenario(t, s, asOf, files, atSavepoint, pinned, List.of(
        new InstantInfo(f6, "deltacommit"), new InstantInfo(r5, "deltacommit"), new InstantInfo(p, "compaction"),
        new InstantInfo(r4, "deltacommit"), new InstantInfo(c, "commit"), new InstantInfo(r3, "deltacommit")));
  }

  /** Everything a finished restore to the scenario's savepoint leaves, however it got there. */
  private static void assertRestored(Scenario s, RestoreMetadata metadata) {
    CleanTestTable t = s.t();
    assertThat(metadata.restoreInstantInfo()).containsExactlyElementsOf(s.expectedRollbacks());
    assertThat(metadata.instantsToRollback()).containsExactlyElementsOf(
        s.expectedRollbacks().stream().map(InstantInfo::commitTime).toList());
    assertThat(metadata.rollbacks().keySet()).as("an Avro map: no order")
        .containsExactlyInAnyOrderElementsOf(metadata.instantsToRollback());
    metadata.rollbacks().forEach((instant, rollbacks) -> assertThat(rollbacks).singleElement()
        .satisfies(r -> assertThat(r.commitsRollback()).containsExactly(instant)));
    assertThat(metadata.totalFilesDeleted()).isPositive();

    assertThat(t.snapshotLines()).as("snapshot after the restore").isEqualTo(s.asOfSavepoint());
    assertThat(t.asOf(s.savepoint())).isEqualTo(s.asOfSavepoint());

    Timeline timeline = t.timeline();
    assertThat(timeline.onOrBefore(s.savepoint()).filter(i -> i.action() != Action.SAVEPOINT).instants())
        .as("the timeline up to the savepoint is untouched").isEqualTo(s.timelineAtSavepoint().instants());
    assertThat(timeline.filter(i -> i.time().compareTo(s.savepoint()) > 0).instants())
        .as("after the savepoint only the restore").containsExactly(Instant.completed(metadata.startRestoreTime(),
            Action.RESTORE));
    assertThat(store(t).statesOf(metadata.startRestoreTime())).extracting(Instant::state)
        .containsExactlyInAnyOrder(State.REQUESTED, State.INFLIGHT, State.COMPLETED);
    assertThat(store(t).read(Instant.inflight(metadata.startRestoreTime(), Action.RESTORE))).isEmpty();
    assertThat(timeline.writeTimeline().completedAndCompactionInstants().last().map(Instant::time))
        .contains(s.savepoint());
    assertThat(timeline.ofAction(Action.SAVEPOINT).completed().times()).containsExactly(s.savepoint());
    Instant requested = Instant.requested(metadata.startRestoreTime(), Action.RESTORE);
    RestorePlan plan = RestorePlan.fromBytes(store(t).read(requested), "plan");
    assertThat(plan.version()).isEqualTo(2);
    assertThat(plan.savepointToRestoreTimestamp()).isEqualTo(s.savepoint());
    assertThat(plan.instantsToRollback()).containsExactlyElementsOf(s.expectedRollbacks());

    TreeSet<String> added = new TreeSet<>(t.dataFiles());
    added.removeAll(s.filesAtSavepoint());
    assertThat(added).as("files left that the savepoint did not know: log files of rolled-back delta commits in "
        + "its slices, and the rollback command logs beside them").isNotEmpty().allSatisfy(f -> assertThat(
            FileNames.parseLogFileName(f).orElseThrow().baseInstant()).isLessThanOrEqualTo(s.savepoint()));
    assertThat(added).anyMatch(f -> FileNames.parseLogFileName(f).orElseThrow().writeToken()
        .equals(FileNames.UNKNOWN_WRITE_TOKEN));
    assertThat(t.dataFiles()).containsAll(s.pinned().dataFilesByPartition().values().stream().flatMap(List::stream)
        .toList());
  }

  @Test
  void aRestoreRollsBackEveryWriteInstantAfterTheSavepointNewestFirstAndTheTableReadsAsOfIt() throws Exception {
    Scenario s = morScenario();

    RestoreMetadata metadata = Restore.of(s.t().table, s.savepoint()).execute();

    assertRestored(s, metadata);
    Instant completed = Instant.completed(metadata.startRestoreTime(), Action.RESTORE);
    assertThat(RestoreMetadata.fromBytes(store(s.t()).read(completed), "restore")).isEqualTo(metadata);
  }

  @Test
  void theTableIsWrittenCompactedAndRestoredAgainAfterARestore() throws Exception {
    Scenario s = morScenario();
    CleanTestTable t = s.t();
    Restore.of(t.table, s.savepoint()).execute();

    String r7 = t.upsertRound(7);
    t.compact();

    assertThat(t.snapshot()).hasSize(6).allSatisfy((k, v) -> assertThat(v).isEqualTo("r7@7"));
    assertThat(t.asOf(s.savepoint())).isEqualTo(s.asOfSavepoint());
    assertThat(Restore.of(t.table, s.savepoint()).execute().instantsToRollback()).hasSize(2).contains(r7);
    assertThat(t.snapshotLines()).isEqualTo(s.asOfSavepoint());
  }

  @Test
  void aRestoreOfACopyOnWriteTableBringsBackFileGroupsAnInsertOverwriteReplacedAndACleanDeleted() throws Exception {
    var t = CleanTestTable.create(dir, TableType.COPY_ON_WRITE);
    t.upsertRound(1);
    String s = t.upsertRound(2);
    List<String> asOf = t.asOf(s);
    TreeSet<String> files = t.dataFiles();
    SavepointMetadata pinned = t.savepoint(s);
    String r3 = t.upsertRound(3);
    String overwrite = t.insertOverwrite(CleanTestTable.PARTITIONS.get(0), 4);
    String r5 = t.upsertRound(5);
    String r6 = t.upsertRound(6);
    var clean = Cleaner.of(t.table).options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "1"))).execute();
    assertThat(clean).singleElement().satisfies(c -> assertThat(c.filesDeleted()).isPositive());

    RestoreMetadata metadata = Restore.of(t.table, s).execute();

    assertThat(metadata.restoreInstantInfo()).containsExactly(new InstantInfo(r6, "commit"), new InstantInfo(r5, "commit"),
        new InstantInfo(overwrite, "replacecommit"), new InstantInfo(r3, "commit"));
    assertThat(t.snapshotLines()).isEqualTo(asOf);
    assertThat(files).containsAll(t.dataFiles());
    assertThat(t.dataFiles()).containsAll(pinned.dataFilesByPartition().values().stream().flatMap(List::stream).toList());
  }

  @ParameterizedTest
  @EnumSource(Restore.Step.class)
  void aRestoreThatCrashedAtAnyStepIsFinishedByRunningItAgain(Restore.Step crashAt) throws Exception {
    Scenario s = morScenario();
    CleanTestTable t = s.t();
    String compaction = s.expectedRollbacks().get(2).commitTime();
    var crash = new IllegalStateException("crash at " + crashAt);

    assertThatThrownBy(() -> Restore.of(t.table, s.savepoint()).hook((step, time) -> {
      boolean inTheMiddle = step == Restore.Step.ROLLING_BACK || step == Restore.Step.ROLLED_BACK;
      if (step == crashAt && (!inTheMiddle || time.equals(compaction))) {
        throw crash;
      }
    }).execute()).isSameAs(crash);

    if (crashAt != Restore.Step.COMPLETED) {
      String pending = t.timeline().ofAction(Action.RESTORE).pending().first().orElseThrow().time();
      assertThatThrownBy(() -> WriteTransaction.start(t.table, WriteOperationType.UPSERT))
          .isInstanceOf(TableException.class).hasMessageContainingAll(t.table.basePath().toString(), pending);
      assertThatThrownBy(() -> Rollback.rollbackFailedWrites(t.table)).hasMessageContaining("pending restore");
      assertThatThrownBy(() -> DeleteSavepoint.of(t.table, s.savepoint()).execute())
          .hasMessageContainingAll(s.savepoint(), pending, "pending");
    }

    RestoreMetadata metadata = Restore.of(t.table, s.savepoint()).execute();

    assertRestored(s, metadata);
    assertThat(t.timeline().ofAction(Action.RESTORE).times()).containsExactly(metadata.startRestoreTime());
  }

  @Test
  void aSecondRestoreToTheSameSavepointChangesNothing() throws Exception {
    Scenario s = morScenario();
    RestoreMetadata first = Restore.of(s.t().table, s.savepoint()).execute();
    Timeline after = s.t().timeline();
    TreeSet<String> files = s.t().dataFiles();

    RestoreMetadata second = Restore.of(s.t().table, s.savepoint()).execute();

    assertThat(second).isEqualTo(first);
    assertThat(s.t().timeline().instants()).isEqualTo(after.instants());
    assertThat(s.t().dataFiles()).isEqualTo(files);
  }

  @Test
  void refusesASavepointThatDoesNotExistNamingTableAndTime() throws Exception {
    var t = CleanTestTable.create(dir, TableType.MERGE_ON_READ);
    String r1 = t.upsertRound(1);
    t.upsertRound(2);

    assertThatThrownBy(() -> Restore.of(t.table, r1).execute()).isInstanceOf(TableException.class)
        .hasMessageContainingAll(t.table.basePath().toString(), r1, "no savepoint");
    assertThat(t.timeline().ofAction(Action.RESTORE).isEmpty()).isTrue();
    assertThat(t.timeline().commitsTimeline().completed().times()).containsExactlyElementsOf(t.writes());
  }

  @Test
  void refusesToRestorePastANewerSavepointAndWhileARestoreToAnotherIsPending() throws Exception {
    var t = CleanTestTable.create(dir, TableType.MERGE_ON_READ);
    String r1 = t.upsertRound(1);
    t.upsertRound(2);
    String r3 = t.upsertRound(3);
    t.upsertRound(4);
    t.savepoint(r1);
    t.savepoint(r3);

    assertThatThrownBy(() -> Restore.of(t.table, r1).execute()).hasMessageContainingAll(r1, "[" + r3 + "]", "delete them");
    assertThat(t.timeline().ofAction(Action.RESTORE).isEmpty()).isTrue();

    var crash = new IllegalStateException("crash");
    assertThatThrownBy(() -> Restore.of(t.table, r3).hook((step, time) -> {
      throw crash;
    }).execute()).isSameAs(crash);
    String pending = t.timeline().ofAction(Action.RESTORE).pending().first().orElseThrow().time();
    assertThat(DeleteSavepoint.of(t.table, r1).execute()).as("not the pending restore's savepoint").isTrue();
    assertThatThrownBy(() -> Restore.of(t.table, r1).execute())
        .hasMessageContainingAll(t.table.basePath().toString(), pending, r3, "pending");
  }

  @Test
  void aSavepointedInstantIsNotRolledBackOnItsOwn() throws Exception {
    var t = CleanTestTable.create(dir, TableType.MERGE_ON_READ);
    t.upsertRound(1);
    String r2 = t.upsertRound(2);
    t.savepoint(r2);

    assertThatThrownBy(() -> Rollback.of(t.table, r2).allowCompleted(true).execute())
        .hasMessageContainingAll(t.table.basePath().toString(), r2, "savepointed");
    assertThat(t.timeline().commitsTimeline().completed().times()).contains(r2);
  }
}
