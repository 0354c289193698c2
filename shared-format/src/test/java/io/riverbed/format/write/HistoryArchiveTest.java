package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.ArchiveResult;
import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleanResult;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.history.LsmHistory;
import io.riverbed.format.history.LsmHistoryWriter;
import io.riverbed.format.history.LsmInstantRow;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.AvroTimelineFile;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archival of a table version 8 into Hudi 1.x's LSM history ({@code .hoodie/timeline/history/}), as
 * Hudi 1.0.2's {@code TimelineArchiverV2}: what goes (commits by Hudi's rules, cleans and rollbacks
 * before the last commit archived), the rows written (completion times, Avro metadata, plans), reads
 * before and after, layer compaction over several runs, and crashes at each step.
 */
class HistoryArchiveTest {
  @TempDir java.nio.file.Path dir;

  private static ArchiveOptions keep(int min, int max, int batch) {
    return ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, Integer.toString(min),
        ArchiveOptions.MAX_COMMITS, Integer.toString(max), ArchiveOptions.COMPACTION_DELTA_COMMITS, "1",
        ArchiveOptions.TIMELINE_COMPACTION_BATCH_SIZE, Integer.toString(batch)));
  }

  private static LsmHistory history(CleanTestTable t) {
    return LsmHistory.at(t.table.fs(), t.table.archivePath());
  }

  private static TreeSet<String> historyFiles(CleanTestTable t) throws Exception {
    TreeSet<String> names = new TreeSet<>();
    Arrays.stream(t.table.fs().listStatus(t.table.archivePath())).map(s -> s.getPath().getName())
        .filter(n -> !n.startsWith(".")).forEach(names::add);
    return names;
  }

  @Test
  void mergeOnReadArchivalMovesCommitsCompactionAndCleanIntoOneLayerZeroFile() throws Exception {
    var t = CleanTestTable.createVersion8(dir, TableType.MERGE_ON_READ);
    t.upsertRound(1);
    t.upsertRound(2);
    String compaction = t.compact();
    t.upsertRound(3);
    CleanResult clean = Cleaner.of(t.table).options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "1")))
        .execute().get(0);
    for (int r = 4; r <= 7; r++) {
      t.upsertRound(r);
    }
    List<String> w = t.writes();
    Timeline before = t.table.refreshTimeline();
    Map<String, String> completions = new HashMap<>();
    w.forEach(i -> completions.put(i, before.completionTime(i).orElseThrow()));
    var snapshot = t.snapshot();
    var asOfActive = Map.of(w.get(6), t.asOf(w.get(6)), w.get(7), t.asOf(w.get(7)));
    String retained = clean.earliestInstantRetained();
    assertThat(retained).isEqualTo(w.get(3));

    ArchiveResult result = Archiver.of(t.table).options(keep(2, 4, 10)).execute();

    List<String> archived = w.subList(0, 3);
    String file = archived.get(0) + "_" + archived.get(2) + "_0.parquet";
    assertThat(result.archiveFile()).contains(file);
    assertThat(result.completedInstants()).extracting(Instant::time).containsExactlyElementsOf(archived)
        .as("the clean was requested after the last commit archived and stays").doesNotContain(clean.instantTime());
    assertThat(historyFiles(t)).containsExactly(file, "_version_", "manifest_1");
    assertThat(t.timeline().commitsTimeline().completed().times()).containsExactlyElementsOf(w.subList(3, 8));
    assertThat(t.timeline().instants()).extracting(Instant::time).doesNotContainAnyElementsOf(archived);

    Timeline history = ArchivedTimeline.load(t.table).timeline();
    assertThat(history.completed().times()).containsExactlyElementsOf(archived);
    archived.forEach(i -> assertThat(history.completionTime(i)).contains(completions.get(i)));
    assertThat(history.completed().instants()).filteredOn(i -> i.time().equals(compaction))
        .extracting(Instant::action).containsExactly(Action.COMMIT);
    List<LsmInstantRow> rows = history(t).readAll().stream().map(r -> LsmInstantRow.fromRecord(r).orElseThrow()).toList();
    assertThat(rows).extracting(r -> r.action().word()).containsExactly("deltacommit", "deltacommit", "commit");
    assertThat(rows).allSatisfy(r -> assertThat(Arrays.copyOf(r.metadata(), 4)).containsExactly('O', 'b', 'j', 1));
    assertThat(CommitMetadata.parse(rows.get(2).metadata(), "row").writeStats()).isNotEmpty();
    assertThat(rows.get(2).plan()).as("the compaction plan").isNotNull();
    assertThat(AvroTimelineFile.deserializeRequired(rows.get(2).plan(), null, "plan").getSchema().getName())
        .isEqualTo("HoodieCompactionPlan");
    assertThat(rows.get(0).plan()).isNull();

    assertThat(t.snapshot()).isEqualTo(snapshot);
    asOfActive.forEach((instant, expected) -> assertThat(t.asOf(instant)).as("as of " + instant).isEqualTo(expected));
    t.upsertRound(8);
    assertThat(t.snapshot()).containsEntry("k0", "r8@8");
  }

  @Test
  void cleansAndRollbacksRequestedBeforeTheLastArchivedCommitGoWithIt() throws Exception {
    var t = CleanTestTable.createVersion8(dir, TableType.COPY_ON_WRITE);
    t.upsertRound(1);
    t.upsertRound(2);
    String failed = t.failedRound(3);
    io.riverbed.format.write.Rollback.rollbackFailedWrites(t.table);
    String rollback = t.timeline().ofAction(Action.ROLLBACK).completed().first().orElseThrow().time();
    Cleaner.of(t.table).options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "2"))).execute();
    for (int r = 4; r <= 9; r++) {
      t.upsertRound(r);
    }
    List<String> w = t.writes();
    var snapshot = t.snapshot();

    ArchiveResult result = Archiver.of(t.table).options(keep(2, 4, 10)).execute();

    Timeline history = ArchivedTimeline.load(t.table).timeline();
    assertThat(history.ofAction(Action.ROLLBACK).completed().times()).containsExactly(rollback);
    assertThat(result.completedInstants()).extracting(Instant::time).contains(rollback).doesNotContain(failed);
    String lastArchived = history.commitsTimeline().completed().last().orElseThrow().time();
    assertThat(t.timeline().ofAction(Action.CLEAN).completed().instants())
        .allSatisfy(c -> assertThat(c.time()).isGreaterThan(lastArchived));
    assertThat(history.ofAction(Action.CLEAN).completed().instants())
        .allSatisfy(c -> assertThat(c.time()).isLessThan(lastArchived));
    assertThat(t.snapshot()).isEqualTo(snapshot);
    assertThat(w).isNotEmpty();
  }

  @Test
  void incrementalRangesBeginningInArchivedTimeReadTheArchivedWritesAsHudi102Does() throws Exception {
    for (TableType type : TableType.values()) {
      var t = CleanTestTable.createVersion8(dir.resolve(type.name()), type);
      for (int r = 1; r <= 7; r++) {
        t.upsertRound(r);
      }
      List<String> w = t.writes();
      Timeline before = t.table.refreshTimeline();
      String secondCompletion = before.completionTime(w.get(1)).orElseThrow();
      String lastCompletion = before.completionTime(w.get(6)).orElseThrow();
      var fromStart = t.incremental("000", lastCompletion);
      var fromSecond = t.incremental(secondCompletion, lastCompletion);
      var secondOnly = t.incremental(secondCompletion, secondCompletion);
      assertThat(secondOnly).as(type + ": the second write's rows").isNotEmpty();

      Archiver.of(t.table).options(keep(2, 4, 10)).execute();
      assertThat(t.timeline().commitsTimeline().completed().times()).as(type.name()).containsExactlyElementsOf(w.subList(5, 7));

      assertThat(t.incremental("000", lastCompletion)).as(type + " from 000").isEqualTo(fromStart);
      assertThat(t.incremental(secondCompletion, lastCompletion)).as(type + " from an archived write")
          .isEqualTo(fromSecond);
      assertThat(t.incremental(secondCompletion, secondCompletion)).as(type + " an archived write alone")
          .isEqualTo(secondOnly);
    }
  }

  @Test
  void runsAfterRunsCompactTheHistoryIntoHigherLayersAndEveryInstantStaysReadable() throws Exception {
    var t = CleanTestTable.createVersion8(dir, TableType.COPY_ON_WRITE);
    t.upsertRound(1);
    t.upsertRound(2);
    int runs = 0;
    for (int r = 3; r <= 12; r++) {
      t.upsertRound(r);
      if (Archiver.of(t.table).options(keep(1, 2, 2)).execute().archiveFile().isPresent()) {
        runs++;
      }
    }
    List<String> w = t.writes();
    assertThat(runs).isGreaterThanOrEqualTo(4);
    assertThat(ArchivedTimeline.load(t.table).timeline().completed().times())
        .containsExactlyElementsOf(w.subList(0, w.size() - 2));
    assertThat(history(t).latestManifest().fileNames()).anyMatch(n -> n.endsWith("_2.parquet"));
    assertThat(history(t).versions().size()).as("old manifests cleaned").isLessThanOrEqualTo(
        LsmHistoryWriter.RETAINED_VERSIONS + 3);
    assertThat(t.snapshot()).containsEntry("k0", "r12@12");
  }

  @Test
  void aCrashAtAnyStepLeavesAReadableTableAndTheNextRunFinishes() throws Exception {
    for (String step : List.of(LsmHistoryWriter.FILE_WRITTEN, LsmHistoryWriter.MANIFEST_WRITTEN, "history-committed",
        LsmHistoryWriter.COMPACTED_FILE_WRITTEN)) {
      var t = CleanTestTable.createVersion8(dir.resolve(step), TableType.MERGE_ON_READ);
      for (int r = 1; r <= 4; r++) {
        t.upsertRound(r);
      }
      Archiver.of(t.table).options(keep(1, 2, 2)).execute();
      for (int r = 5; r <= 7; r++) {
        t.upsertRound(r);
      }
      List<String> w = t.writes();
      var snapshot = t.snapshot();
      var asOfLast = t.asOf(w.get(6));
      RuntimeException crash = new IllegalStateException("crash at " + step);
      assertThatThrownBy(() -> Archiver.of(t.table).options(keep(1, 2, 2))
          .historyCheckpoints(s -> {
            if (s.equals(step)) {
              throw crash;
            }
          })
          .afterArchiveFileWritten(() -> {
            if (step.equals("history-committed")) {
              throw crash;
            }
          }).execute()).isSameAs(crash);

      assertThat(t.snapshot()).as(step).isEqualTo(snapshot);
      assertThat(t.asOf(w.get(6))).as(step).isEqualTo(asOfLast);
      assertThat(ArchivedTimeline.load(t.table).timeline().completed().times()).as(step)
          .doesNotHaveDuplicates().isSubsetOf(w);

      Archiver.of(t.table).options(keep(1, 2, 2)).execute();

      assertThat(t.timeline().commitsTimeline().completed().times()).as(step).containsExactly(w.get(6));
      assertThat(ArchivedTimeline.load(t.table).timeline().completed().times()).as(step)
          .containsExactlyElementsOf(w.subList(0, 6));
      assertThat(history(t).readAll()).as(step + ": each instant once").hasSize(6);
      assertThat(t.snapshot()).as(step).isEqualTo(snapshot);
    }
  }
}
