package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleanResult;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.clean.CleaningPolicy;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.savepoint.DeleteSavepoint;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CleanerPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.TimelineStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a clean must never delete (the slices of a pending compaction, savepointed files, replaced
 * file groups still inside retention) and how a clean that crashed is finished from its plan.
 * (In the {@code write} package for {@link TestWriter}.)
 */
class CleanSafetyTest {
  private static final String P1 = CleanTestTable.PARTITIONS.get(0);
  private static final String P2 = CleanTestTable.PARTITIONS.get(1);

  @TempDir java.nio.file.Path dir;

  private static CleanOptions retain(int commits) {
    return CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, Integer.toString(commits)));
  }

  private static CleanOptions versions(int versions) {
    return CleanOptions.fromMap(Map.of(CleanOptions.POLICY, CleaningPolicy.KEEP_LATEST_FILE_VERSIONS.name(),
        CleanOptions.FILE_VERSIONS_RETAINED, Integer.toString(versions)));
  }

  private static TreeSet<String> slicesIn(CleanTestTable t, String partition) {
    return FileSystemViewLoader.listDataFiles(t.table, partition).stream()
        .map(st -> CleanTestTable.sliceOf(st.getPath().getName())).collect(Collectors.toCollection(TreeSet::new));
  }

  private static TimelineStore store(CleanTestTable t) {
    return TimelineStore.at(t.table.fs(), t.table.metaPath());
  }

  @Test
  void pendingCompactionKeepsTheSliceItCompactsEvenWithOneVersionRetained() throws Exception {
    var t = CleanTestTable.morWithPendingCompaction(dir);
    List<String> w = t.writes();
    String pending = t.timeline().pendingCompactions().last().orElseThrow().time();

    CleanResult result = Cleaner.of(t.table).options(versions(1)).execute().get(0);

    assertThat(result.deletedFilesByPartition().values()).allSatisfy(files ->
        assertThat(files).allSatisfy(f -> assertThat(CleanTestTable.sliceOf(f)).isEqualTo(w.get(0))));
    assertThat(slicesIn(t, P1)).containsExactly(w.get(2), pending);
    CompactionRunner.of(t.table, pending).execute();
    assertThat(t.snapshot()).containsOnly(
        Map.entry("k0", "r4@4"), Map.entry("k1", "r4@4"), Map.entry("k2", "r4@4"),
        Map.entry("k3", "r4@4"), Map.entry("k4", "r4@4"), Map.entry("k5", "r4@4"));
  }

  @Test
  void earliestRetainedNeverPassesAPendingCompaction() throws Exception {
    var t = CleanTestTable.morWithPendingCompaction(dir);
    List<String> w = t.writes();
    CleanResult result = Cleaner.of(t.table).options(retain(1)).execute().get(0);
    assertThat(result.earliestInstantRetained()).as("the last completed write before the pending compaction")
        .isEqualTo(w.get(3));
    assertThat(slicesIn(t, P2)).hasSize(2).doesNotContain(w.get(0));
  }

  /**
   * A streaming writer's next instant is pending (its files written, not committed) while a clean
   * runs beside it: the clean deletes older slices but none of the pending instant's files, and the
   * instant commits afterwards with every key readable.
   */
  @ParameterizedTest
  @EnumSource(TableType.class)
  void cleanBesideAPendingWriteKeepsEveryFileItWrote(TableType type) throws Exception {
    var t = CleanTestTable.create(dir, type);
    t.upsertRound(1);
    t.upsertRound(2);
    if (type == TableType.MERGE_ON_READ) {
      t.compact();
    }
    t.upsertRound(3);
    if (type == TableType.MERGE_ON_READ) {
      t.compact();
    }
    t.upsertRound(4);
    var before = t.dataFiles();
    var batch = new java.util.ArrayList<WriteRecord>();
    for (int k = 0; k < 6; k++) {
      batch.add(WriteTestSupport.upsert("k" + k, "r5", 5, CleanTestTable.PARTITIONS.get(k % 2)));
    }
    var pending = t.writer.writeUncommitted(batch);
    var pendingFiles = new TreeSet<>(t.dataFiles());
    pendingFiles.removeAll(before);
    assertThat(pendingFiles).as("files of the pending instant").isNotEmpty();

    List<CleanResult> results = Cleaner.of(t.table).options(retain(1)).execute();

    assertThat(results).hasSize(1);
    assertThat(results.get(0).filesDeleted()).as("older slices cleaned").isPositive();
    assertThat(results.get(0).earliestInstantRetained()).as("the last completed write before the pending one")
        .isEqualTo(t.writes().get(t.writes().size() - 1));
    assertThat(t.dataFiles()).containsAll(pendingFiles);
    pending.commit(Map.of());
    assertThat(t.snapshot()).hasSize(6).allSatisfy((k, v) -> assertThat(v).isEqualTo("r5@5"));
  }

  @Test
  void crashBetweenPlanAndExecuteIsResumedFromThePlan() throws Exception {
    var t = CleanTestTable.create(dir, TableType.COPY_ON_WRITE);
    for (int r = 1; r <= 4; r++) {
      t.upsertRound(r);
    }
    var files = t.dataFiles();
    Optional<String> planned = Cleaner.of(t.table).options(retain(1)).scheduleClean();
    assertThat(planned).isPresent();
    assertThat(store(t).statesOf(planned.get())).extracting(Instant::state).containsExactly(State.REQUESTED);
    assertThat(t.dataFiles()).isEqualTo(files);
    assertThat(Cleaner.of(t.table).options(retain(1)).scheduleClean()).as("no second plan while one is pending")
        .isEqualTo(planned);

    List<CleanResult> results = Cleaner.of(t.table).options(retain(1)).execute();

    assertThat(results).extracting(CleanResult::instantTime).containsExactly(planned.get());
    assertThat(results.get(0).filesDeleted()).isEqualTo(4);
    assertThat(store(t).statesOf(planned.get())).extracting(Instant::state)
        .containsExactlyInAnyOrder(State.REQUESTED, State.INFLIGHT, State.COMPLETED);
    Instant inflight = Instant.inflight(planned.get(), Action.CLEAN);
    assertThat(store(t).read(inflight)).isEqualTo(store(t).read(Instant.requested(planned.get(), Action.CLEAN)));
  }

  @Test
  void crashWhileDeletingIsFinishedAndReportsTheFilesAlreadyGone() throws Exception {
    var t = CleanTestTable.create(dir, TableType.COPY_ON_WRITE);
    for (int r = 1; r <= 4; r++) {
      t.upsertRound(r);
    }
    var snapshot = t.snapshot();
    String planned = Cleaner.of(t.table).options(retain(1)).scheduleClean().orElseThrow();
    Instant requested = Instant.requested(planned, Action.CLEAN);
    byte[] planBytes = store(t).read(requested);
    CleanerPlan plan = CleanerPlan.fromBytes(planBytes, "plan");
    store(t).transitionToInflight(requested, planBytes);
    String first = plan.filePathsToBeDeletedPerPartition().get(P1).get(0).filePath();
    assertThat(t.table.fs().delete(new Path(first), false)).isTrue();

    CleanResult result = Cleaner.of(t.table).options(retain(1)).execute().get(0);

    assertThat(result.instantTime()).isEqualTo(planned);
    assertThat(result.alreadyGoneByPartition()).containsExactly(Map.entry(P1, List.of(new Path(first).getName())));
    assertThat(result.filesDeleted()).isEqualTo(plan.fileCount() - 1);
    assertThat(t.snapshot()).isEqualTo(snapshot);
  }

  @Test
  void aCleanThatFailsAfterItsFirstDeletedFileIsResumedByTheNextClean() throws Exception {
    var t = CleanTestTable.create(dir, TableType.COPY_ON_WRITE);
    for (int r = 1; r <= 4; r++) {
      t.upsertRound(r);
    }
    var snapshot = t.snapshot();
    var deletions = new java.util.concurrent.atomic.AtomicInteger();
    assertThatThrownBy(() -> Cleaner.of(t.table).options(retain(1)).afterFileDeleted(() -> {
      if (deletions.incrementAndGet() == 1) {
        throw new IllegalStateException("crash");
      }
    }).execute()).hasMessage("crash");
    String pending = t.timeline().ofAction(Action.CLEAN).pending().first().orElseThrow().time();
    assertThat(t.snapshot()).as("the snapshot while the clean is half done").isEqualTo(snapshot);

    CleanResult resumed = Cleaner.of(t.table).options(retain(1)).execute().get(0);

    assertThat(resumed.instantTime()).isEqualTo(pending);
    assertThat(resumed.alreadyGoneByPartition().values().stream().mapToInt(List::size).sum())
        .as("the file deleted before the crash").isEqualTo(1);
    assertThat(t.snapshot()).isEqualTo(snapshot);
  }

  @Test
  void replacedFileGroupsGoOnceTheirReplaceIsOlderThanTheEarliestRetained() throws Exception {
    var t = CleanTestTable.create(dir, TableType.COPY_ON_WRITE);
    t.upsertRound(1);
    t.upsertRound(2);
    String replace = t.insertOverwrite(P1, 3);
    t.upsertRound(4);
    t.upsertRound(5);
    List<String> w = t.writes();
    var asOfReplace = t.asOf(replace);
    var snapshot = t.snapshot();

    CleanResult wide = Cleaner.of(t.table).options(retain(3)).execute().get(0);
    assertThat(wide.earliestInstantRetained()).isEqualTo(replace);
    assertThat(slicesIn(t, P1)).as("replaced at the earliest retained instant, not before it")
        .contains(w.get(0), w.get(1));
    assertThat(slicesIn(t, P2)).doesNotContain(w.get(0));
    assertThat(t.asOf(replace)).isEqualTo(asOfReplace);

    String r6 = t.upsertRound(6);
    snapshot = t.snapshot();
    CleanResult narrow = Cleaner.of(t.table).options(retain(3)).execute().get(0);
    assertThat(narrow.earliestInstantRetained()).isEqualTo(w.get(3));
    assertThat(slicesIn(t, P1)).containsExactly(replace, w.get(3), w.get(4), r6);
    assertThat(t.snapshot()).isEqualTo(snapshot);
  }

  @Test
  void aDeletedPartitionGoesWithItsFolderOnceItsReplaceIsOlderThanTheEarliestRetained() throws Exception {
    var t = CleanTestTable.create(dir, TableType.COPY_ON_WRITE);
    t.upsertRound(1);
    t.upsertRound(2);
    String drop = t.deletePartition(P1);
    t.upsertRound(4, List.of(P2));
    t.upsertRound(5, List.of(P2));
    List<String> w = t.writes();

    CleanResult wide = Cleaner.of(t.table).options(retain(3)).execute().get(0);
    assertThat(wide.earliestInstantRetained()).isEqualTo(drop);
    assertThat(wide.metadata().partitionMetadata()).doesNotContainKey(P1);
    assertThat(t.table.listPartitions()).contains(P1);
    assertThat(slicesIn(t, P1)).as("replaced at the earliest retained instant, not before it")
        .containsExactly(w.get(0), w.get(1));

    t.upsertRound(6, List.of(P2));
    var snapshot = t.snapshot();
    CleanResult narrow = Cleaner.of(t.table).options(retain(3)).execute().get(0);
    assertThat(narrow.earliestInstantRetained()).isEqualTo(w.get(3));
    assertThat(narrow.metadata().partitionMetadata().get(P1).isPartitionDeleted()).isTrue();
    assertThat(t.table.fs().exists(t.table.partitionPath(P1))).as("the partition folder").isFalse();
    assertThat(t.table.listPartitions()).containsExactly(P2);
    assertThat(t.snapshot()).isEqualTo(snapshot);
  }

  @Test
  void aDeletedPartitionHoldingASavepointedFileKeepsItsFolder() throws Exception {
    var t = CleanTestTable.create(dir, TableType.COPY_ON_WRITE);
    t.upsertRound(1);
    t.upsertRound(2);
    t.savepoint(t.writes().get(1));
    t.deletePartition(P1);
    for (int r = 4; r <= 6; r++) {
      t.upsertRound(r, List.of(P2));
    }

    CleanResult result = Cleaner.of(t.table).options(retain(1)).execute().get(0);

    assertThat(result.metadata().partitionMetadata().get(P1).isPartitionDeleted()).isFalse();
    assertThat(slicesIn(t, P1)).as("the savepointed slice").containsExactly(t.writes().get(1));
  }

  @Test
  void savepointedSlicesSurviveAndThePlanNamesTheSavepoints() throws Exception {
    var t = CleanTestTable.create(dir, TableType.COPY_ON_WRITE);
    for (int r = 1; r <= 4; r++) {
      t.upsertRound(r);
    }
    List<String> w = t.writes();
    t.savepoint(w.get(1));

    CleanResult result = Cleaner.of(t.table).options(retain(1)).execute().get(0);

    assertThat(result.filesDeleted()).isEqualTo(2);
    assertThat(slicesIn(t, P1)).containsExactly(w.get(1), w.get(2), w.get(3));
    assertThat(result.metadata().extraMetadata()).containsEntry(CleanerPlan.SAVEPOINTED_TIMESTAMPS, w.get(1));
  }

  @Test
  void filesOfARemovedSavepointAreCleanedByTheNextIncrementalClean() throws Exception {
    var t = CleanTestTable.create(dir, TableType.COPY_ON_WRITE);
    for (int r = 1; r <= 3; r++) {
      t.upsertRound(r);
    }
    t.upsertRound(4, List.of(P2));
    t.upsertRound(5, List.of(P2));
    List<String> w = t.writes();
    t.savepoint(w.get(0));
    Cleaner.of(t.table).options(retain(1)).execute();
    assertThat(slicesIn(t, P1)).containsExactly(w.get(0), w.get(2));

    String r6 = t.upsertRound(6, List.of(P2));
    assertThat(DeleteSavepoint.of(t.table, w.get(0)).execute()).isTrue();
    CleanResult second = Cleaner.of(t.table).options(retain(1)).execute().get(0);

    assertThat(second.deletedFilesByPartition()).containsKey(P1);
    assertThat(slicesIn(t, P1)).containsExactly(w.get(2));
    assertThat(slicesIn(t, P2)).containsExactly(w.get(4), r6);
  }
}
