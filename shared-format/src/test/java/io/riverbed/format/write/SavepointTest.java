package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.savepoint.DeleteSavepoint;
import io.riverbed.format.savepoint.Restore;
import io.riverbed.format.savepoint.Savepoint;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.AvroTimelineFile;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.SavepointMetadata;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.TimelineSchemas;
import io.riverbed.format.timeline.TimelineStore;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Savepoints: what {@code T.savepoint} pins and how it is written, what is refused, deleting one,
 * and that cleaning and archival keep what a savepoint pins. (In the {@code write} package for
 * {@link CleanTestTable}.)
 */
class SavepointTest {
  private static final Clock AT = Clock.fixed(java.time.Instant.parse("2025-03-01T10:15:30.123Z"), ZoneOffset.UTC);

  @TempDir java.nio.file.Path dir;

  private static TimelineStore store(CleanTestTable t) {
    return TimelineStore.at(t.table.fs(), t.table.metaPath());
  }

  private static CleanTestTable rounds(CleanTestTable t, int from, int to) {
    for (int r = from; r <= to; r++) {
      t.upsertRound(r);
    }
    return t;
  }

  /**
   * What Hudi's {@code getLatestFileSlicesBeforeOrOn(partition, time, true)} lists, worked out from
   * the file names alone: per file group the files of its newest slice keyed at or before {@code time}.
   */
  private static Map<String, TreeSet<String>> newestSliceFilesAsOf(CleanTestTable t, String time) {
    Map<String, Map<String, TreeMap<String, TreeSet<String>>>> slices = new TreeMap<>();
    for (String p : t.table.listPartitions()) {
      slices.put(p, new TreeMap<>());
    }
    for (String name : t.dataFiles()) {
      String fileId = FileNames.parseBaseFileName(name).map(FileNames.BaseFileName::fileId)
          .orElseGet(() -> FileNames.parseLogFileName(name).orElseThrow().fileId());
      String slice = CleanTestTable.sliceOf(name);
      String partition = partitionOf(t, name);
      if (slice.compareTo(time) <= 0) {
        slices.get(partition).computeIfAbsent(fileId, f -> new TreeMap<>()).computeIfAbsent(slice, s -> new TreeSet<>())
            .add(name);
      }
    }
    Map<String, TreeSet<String>> out = new TreeMap<>();
    slices.forEach((p, groups) -> out.put(p, groups.values().stream().map(m -> m.lastEntry().getValue())
        .collect(TreeSet::new, TreeSet::addAll, TreeSet::addAll)));
    return out;
  }

  private static String partitionOf(CleanTestTable t, String fileName) {
    for (String p : t.table.listPartitions()) {
      if (io.riverbed.format.file.FileSystemViewLoader.listDataFiles(t.table, p).stream()
          .anyMatch(st -> st.getPath().getName().equals(fileName))) {
        return p;
      }
    }
    throw new AssertionError(fileName + " is in no partition");
  }

  private static Map<String, TreeSet<String>> sorted(SavepointMetadata metadata) {
    Map<String, TreeSet<String>> out = new TreeMap<>();
    metadata.dataFilesByPartition().forEach((p, files) -> out.put(p, new TreeSet<>(files)));
    return out;
  }

  @Test
  void aSavepointPinsTheNewestSliceOfEachFileGroupAsOfItsInstantAndIsWrittenAsHudiWritesIt() throws Exception {
    var t = CleanTestTable.morWithPendingCompaction(dir);
    List<String> w = t.writes();
    String r3 = w.get(3);
    var expected = newestSliceFilesAsOf(t, r3);

    SavepointMetadata metadata = Savepoint.of(t.table, r3).user("ops").comments("before the backfill").wallClock(AT)
        .execute();

    assertThat(sorted(metadata)).isEqualTo(expected);
    assertThat(expected.values()).allSatisfy(files -> assertThat(files).isNotEmpty()
        .allSatisfy(f -> assertThat(CleanTestTable.sliceOf(f)).isEqualTo(w.get(2))));
    assertThat(metadata.savepointedBy()).isEqualTo("ops");
    assertThat(metadata.comments()).isEqualTo("before the backfill");
    assertThat(metadata.savepointedAt()).isEqualTo(AT.millis());
    assertThat(metadata.version()).isEqualTo(1);
    assertThat(store(t).statesOf(r3)).filteredOn(i -> i.action() == Action.SAVEPOINT).extracting(Instant::state)
        .containsExactlyInAnyOrder(State.INFLIGHT, State.COMPLETED);
    assertThat(store(t).read(Instant.inflight(r3, Action.SAVEPOINT))).isEmpty();
    byte[] completed = store(t).read(Instant.completed(r3, Action.SAVEPOINT));
    assertThat(AvroTimelineFile.deserializeRequired(completed, TimelineSchemas.SAVEPOINT_METADATA, "t").getSchema())
        .isEqualTo(TimelineSchemas.SAVEPOINT_METADATA);
    assertThat(SavepointMetadata.fromBytes(completed, "t")).isEqualTo(metadata);
    assertThat(t.timeline().commitsTimeline().completed().last().map(Instant::time)).as("no write instant added")
        .contains(w.get(w.size() - 1));
  }

  @Test
  void aSavepointOfAnInstantBeforeAPendingCompactionPinsThatCompactionsSliceWithoutItsBaseFile() throws Exception {
    var t = CleanTestTable.morWithPendingCompaction(dir);
    String pending = t.timeline().pendingCompactions().last().orElseThrow().time();
    String r4 = t.writes().get(t.writes().size() - 1);

    SavepointMetadata metadata = Savepoint.of(t.table, r4).execute();

    assertThat(sorted(metadata)).isEqualTo(newestSliceFilesAsOf(t, r4));
    assertThat(metadata.dataFilesByPartition().values()).allSatisfy(files -> assertThat(files).isNotEmpty()
        .allSatisfy(f -> assertThat(CleanTestTable.sliceOf(f)).isEqualTo(pending)));
  }

  @Test
  void aSavepointOfACompactionCommitAndOfACopyOnWriteCommit() throws Exception {
    var mor = CleanTestTable.morWithPendingCompaction(dir);
    String compaction = mor.writes().get(2);
    assertThat(sorted(Savepoint.of(mor.table, compaction).execute())).isEqualTo(newestSliceFilesAsOf(mor, compaction));

    var cow = rounds(CleanTestTable.create(dir.resolve("cow"), TableType.COPY_ON_WRITE), 1, 3);
    String r2 = cow.writes().get(1);
    SavepointMetadata metadata = Savepoint.of(cow.table, r2).execute();
    assertThat(sorted(metadata)).isEqualTo(newestSliceFilesAsOf(cow, r2));
    assertThat(metadata.dataFilesByPartition().values()).allSatisfy(files -> assertThat(files).isNotEmpty()
        .allSatisfy(f -> assertThat(f).endsWith("_" + r2 + ".parquet")));
  }

  @Test
  void refusesInstantsThatAreNotCompletedCommitsNamingTableAndInstant() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.MERGE_ON_READ), 1, 2);
    String failed = t.failedRound(3);
    String base = t.table.basePath().toString();

    assertThatThrownBy(() -> Savepoint.of(t.table, failed).execute()).isInstanceOf(TableException.class)
        .hasMessageContainingAll(base, failed, "not completed");
    assertThatThrownBy(() -> Savepoint.of(t.table, "20200101000000000").execute())
        .hasMessageContainingAll(base, "20200101000000000", "not a commit, deltacommit or replacecommit");
    Rollback.rollbackFailedWrites(t.table);
    String rollback = t.timeline().ofAction(Action.ROLLBACK).last().orElseThrow().time();
    assertThatThrownBy(() -> Savepoint.of(t.table, rollback).execute()).hasMessageContainingAll(rollback, "not a commit");
    String r1 = t.writes().get(0);
    Savepoint.of(t.table, r1).execute();
    assertThatThrownBy(() -> Savepoint.of(t.table, r1).execute()).hasMessageContainingAll(base, r1, "savepointed already");
    assertThat(t.timeline().ofAction(Action.SAVEPOINT).times()).containsExactly(r1);
  }

  @Test
  void refusesInstantsOlderThanTheEarliestCommitTheLastCleanRetained() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.COPY_ON_WRITE), 1, 4);
    List<String> w = t.writes();
    var clean = Cleaner.of(t.table).options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "2")))
        .execute().get(0);
    assertThat(clean.earliestInstantRetained()).isEqualTo(w.get(2));

    assertThatThrownBy(() -> Savepoint.of(t.table, w.get(1)).execute())
        .hasMessageContainingAll(t.table.basePath().toString(), w.get(1), "earliest commit the cleaner retains (" + w.get(2));
    assertThat(t.timeline().ofAction(Action.SAVEPOINT).isEmpty()).isTrue();
    assertThat(Savepoint.of(t.table, w.get(2)).execute().dataFilesByPartition()).isNotEmpty();
  }

  @Test
  void aPendingCleansPlanBoundsTheSavepointToo() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.COPY_ON_WRITE), 1, 4);
    List<String> w = t.writes();
    Cleaner.of(t.table).options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "2"))).scheduleClean()
        .orElseThrow();

    assertThatThrownBy(() -> Savepoint.of(t.table, w.get(1)).execute()).hasMessageContaining("(" + w.get(2) + ")");
  }

  @Test
  void aSavepointLeftInflightByACrashIsCompletedByRunningItAgain() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.COPY_ON_WRITE), 1, 2);
    String r1 = t.writes().get(0);
    store(t).create(Instant.inflight(r1, Action.SAVEPOINT), new byte[0]);
    assertThat(t.timeline().ofAction(Action.SAVEPOINT).completed().isEmpty()).isTrue();

    SavepointMetadata metadata = Savepoint.of(t.table, r1).execute();

    assertThat(t.timeline().ofAction(Action.SAVEPOINT).completed().times()).containsExactly(r1);
    assertThat(sorted(metadata)).isEqualTo(newestSliceFilesAsOf(t, r1));
  }

  @Test
  void deletingASavepointDeletesItsInstantFilesAndAMissingOneIsNoError() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.COPY_ON_WRITE), 1, 2);
    String r1 = t.writes().get(0);
    t.savepoint(r1);

    assertThat(DeleteSavepoint.of(t.table, r1).execute()).isTrue();

    assertThat(store(t).statesOf(r1)).extracting(Instant::action).doesNotContain(Action.SAVEPOINT);
    assertThat(DeleteSavepoint.of(t.table, r1).execute()).isFalse();
    assertThat(t.timeline().commitsTimeline().completed().times()).containsExactlyElementsOf(t.writes());
  }

  @Test
  void cleaningKeepsEveryFileTheSavepointNamesAndARestoreReadsTheSavepointsRowsAgain() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.MERGE_ON_READ), 1, 2);
    String r2 = t.writes().get(1);
    List<String> asOfSavepoint = t.asOf(r2);
    SavepointMetadata metadata = t.savepoint(r2);
    for (int r = 3; r <= 8; r++) {
      t.upsertRound(r);
      if (r % 2 == 0) {
        t.compact();
      }
    }
    var cleans = Cleaner.of(t.table).options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "1")))
        .execute();
    assertThat(cleans).hasSize(1);
    assertThat(cleans.get(0).filesDeleted()).isPositive();
    assertThat(cleans.get(0).earliestInstantRetained()).isGreaterThan(r2);

    assertThat(t.dataFiles()).containsAll(metadata.dataFilesByPartition().values().stream().flatMap(List::stream)
        .toList());
    assertThat(cleans.get(0).deletedFilesByPartition().values().stream().flatMap(List::stream))
        .doesNotContainAnyElementsOf(metadata.dataFilesByPartition().values().stream().flatMap(List::stream).toList());

    Restore.of(t.table, r2).execute();

    assertThat(t.snapshotLines()).isEqualTo(asOfSavepoint);
  }

  @Test
  void archivalKeepsTheSavepointAndEveryCommitFromItUntilTheSavepointIsDeleted() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.MERGE_ON_READ), 1, 8);
    List<String> w = t.writes();
    t.savepoint(w.get(2));
    var keep = ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, "2", ArchiveOptions.MAX_COMMITS, "3",
        ArchiveOptions.COMPACTION_DELTA_COMMITS, "1"));

    Archiver.of(t.table).options(keep).execute();

    assertThat(t.timeline().commitsTimeline().completed().times()).containsExactlyElementsOf(w.subList(2, 8));
    assertThat(t.timeline().ofAction(Action.SAVEPOINT).completed().times()).containsExactly(w.get(2));
    assertThat(Archiver.of(t.table).options(keep).execute().archived()).as("nothing more while the savepoint stays")
        .isEmpty();

    DeleteSavepoint.of(t.table, w.get(2)).execute();
    Archiver.of(t.table).options(keep).execute();

    assertThat(t.timeline().commitsTimeline().completed().times()).containsExactlyElementsOf(w.subList(6, 8));
  }
}
