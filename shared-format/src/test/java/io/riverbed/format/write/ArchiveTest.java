package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.ArchiveResult;
import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleanResult;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archival of the active timeline into {@code .hoodie/archived/}: the bounds it keeps, the instants
 * it must not pass, reads before and after, a crash between writing the archive file and deleting
 * the active files, and the cap on one run. (In the {@code write} package for {@link CleanTestTable}.)
 */
class ArchiveTest {
  @TempDir java.nio.file.Path dir;

  private static ArchiveOptions keep(int min, int max) {
    return ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, Integer.toString(min),
        ArchiveOptions.MAX_COMMITS, Integer.toString(max), ArchiveOptions.COMPACTION_DELTA_COMMITS, "1"));
  }

  private static CleanTestTable rounds(CleanTestTable t, int from, int to) {
    for (int r = from; r <= to; r++) {
      t.upsertRound(r);
    }
    return t;
  }

  private static List<String> completedCommits(CleanTestTable t) {
    return t.timeline().commitsTimeline().completed().times();
  }

  private List<String> archiveFiles(CleanTestTable t) throws Exception {
    return Arrays.stream(t.table.fs().listStatus(t.table.archivePath())).map(s -> s.getPath().getName()).sorted()
        .toList();
  }

  @Test
  void archivalAfterMaxCommitsKeepsMinCommitsAndMovesEveryStateOfTheOldest() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.COPY_ON_WRITE), 1, 6);
    assertThat(archiver(t).options(keep(2, 6)).execute().archived()).as("six commits are not more than six").isEmpty();
    t.upsertRound(7);
    List<String> w = t.writes();
    var snapshot = t.snapshot();
    var asOfActive = Map.of(w.get(5), t.asOf(w.get(5)), w.get(6), t.asOf(w.get(6)));

    ArchiveResult result = archiver(t).options(keep(2, 6)).execute();

    assertThat(result.archiveFile()).contains(".commits_.archive.1_1-0-1");
    assertThat(result.completedInstants()).extracting(Instant::time).containsExactlyElementsOf(w.subList(0, 5));
    assertThat(result.backlog()).isFalse();
    assertThat(completedCommits(t)).containsExactlyElementsOf(w.subList(5, 7));
    assertThat(t.timeline().instants()).extracting(Instant::time).doesNotContainAnyElementsOf(w.subList(0, 5));
    List<Instant> archived = ArchivedTimeline.load(t.table).instants();
    assertThat(archived).hasSize(15);
    assertThat(archived).filteredOn(i -> i.time().equals(w.get(0))).extracting(Instant::state)
        .containsExactly(State.REQUESTED, State.INFLIGHT, State.COMPLETED);
    assertThat(ArchivedTimeline.load(t.table).timeline().completed().times()).containsExactlyElementsOf(w.subList(0, 5));
    assertThat(t.snapshot()).isEqualTo(snapshot);
    asOfActive.forEach((instant, rows) -> assertThat(t.asOf(instant)).as("as of " + instant).isEqualTo(rows));
    assertThat(archiver(t).options(keep(2, 6)).execute().archiveFile()).as("within bounds now").isEmpty();
  }

  @Test
  void aSecondArchivalWritesTheNextArchiveFile() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.MERGE_ON_READ), 1, 5);
    archiver(t).options(keep(2, 4)).execute();
    rounds(t, 6, 8);
    var snapshot = t.snapshot();

    ArchiveResult second = archiver(t).options(keep(2, 4)).execute();

    assertThat(second.archiveFile()).contains(".commits_.archive.2_1-0-1");
    assertThat(archiveFiles(t)).containsExactly(".commits_.archive.1_1-0-1", ".commits_.archive.2_1-0-1");
    assertThat(ArchivedTimeline.load(t.table).timeline().completed().times())
        .containsExactlyElementsOf(t.writes().subList(0, 6));
    assertThat(completedCommits(t)).containsExactlyElementsOf(t.writes().subList(6, 8));
    assertThat(t.snapshot()).as("log files of archived delta commits stay committed").isEqualTo(snapshot);
    t.upsertRound(9);
    assertThat(t.snapshot()).containsEntry("k0", "r9@9");
  }

  @Test
  void aPendingCompactionStopsArchivalBeforeTheCommitItFollows() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.MERGE_ON_READ), 1, 2);
    t.compact();
    t.upsertRound(3);
    String pending = t.scheduleCompaction();
    rounds(t, 4, 9);
    List<String> w = t.writes();
    var snapshot = t.snapshot();

    ArchiveResult result = archiver(t).options(keep(1, 3)).execute();

    String lastBeforePending = w.get(3);
    assertThat(result.completedInstants()).extracting(Instant::time).containsExactlyElementsOf(w.subList(0, 3));
    assertThat(completedCommits(t)).first().isEqualTo(lastBeforePending);
    assertThat(t.timeline().pendingCompactions().times()).containsExactly(pending);
    assertThat(t.snapshot()).isEqualTo(snapshot);
    CompactionRunner.of(t.table, pending).execute();
    assertThat(t.snapshot()).isEqualTo(snapshot);
  }

  @Test
  void archivalNeverPassesTheLastCleansEarliestRetainedCommit() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.COPY_ON_WRITE), 1, 8);
    CleanResult clean = Cleaner.of(t.table).options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "4")))
        .execute().get(0);
    List<String> w = t.writes();
    String retained = clean.earliestInstantRetained();
    assertThat(retained).isEqualTo(w.get(4));
    var asOfRetained = t.asOf(retained);

    archiver(t).options(keep(1, 2)).execute();

    assertThat(completedCommits(t)).first().isEqualTo(retained);
    assertThat(t.asOf(retained)).isEqualTo(asOfRetained);
    assertThat(t.cleans()).extracting(Instant::time).containsExactly(clean.instantTime());
  }

  @Test
  void archivalStopsAtTheFirstSavepoint() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.COPY_ON_WRITE), 1, 6);
    List<String> w = t.writes();
    t.savepoint(w.get(2));
    var asOfSavepoint = t.asOf(w.get(2));

    ArchiveResult result = archiver(t).options(keep(1, 2)).execute();

    assertThat(result.completedInstants()).extracting(Instant::time).containsExactlyElementsOf(w.subList(0, 2));
    assertThat(t.timeline().ofAction(Action.SAVEPOINT).completed().times()).containsExactly(w.get(2));
    assertThat(completedCommits(t)).first().isEqualTo(w.get(2));
    assertThat(t.asOf(w.get(2))).isEqualTo(asOfSavepoint);
  }

  @Test
  void aCrashAfterTheArchiveFileIsWrittenLeavesDuplicatesTheNextRunTolerates() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.MERGE_ON_READ), 1, 6);
    List<String> w = t.writes();
    Timeline before = t.timeline();
    var snapshot = t.snapshot();

    assertThatThrownBy(() -> archiver(t).options(keep(2, 4))
        .afterArchiveFileWritten(() -> { throw new IllegalStateException("crash"); }).execute())
        .hasMessage("crash");

    assertThat(archiveFiles(t)).containsExactly(".commits_.archive.1_1-0-1");
    assertThat(t.timeline().instants()).isEqualTo(before.instants());
    assertThat(t.snapshot()).isEqualTo(snapshot);

    ArchiveResult rerun = archiver(t).options(keep(2, 4)).execute();

    assertThat(rerun.archiveFile()).contains(".commits_.archive.2_1-0-1");
    assertThat(completedCommits(t)).containsExactlyElementsOf(w.subList(4, 6));
    assertThat(ArchivedTimeline.load(t.table).instants()).as("each archived state once").hasSize(12);
    assertThat(t.snapshot()).isEqualTo(snapshot);
    assertThat(t.table.fs().listStatus(t.table.tempPath())).as("no temporary archive file left")
        .noneMatch(s -> s.getPath().getName().startsWith("archive-"));
  }

  @Test
  void oneRunArchivesAtMostTheCapAndLaterRunsWorkOffTheBacklog() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.COPY_ON_WRITE), 1, 7);
    ArchiveOptions capped = ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, "1",
        ArchiveOptions.MAX_COMMITS, "2", ArchiveOptions.MAX_INSTANTS_PER_RUN, "4"));

    ArchiveResult first = archiver(t).options(capped).execute();
    assertThat(first.completedInstants()).hasSize(4);
    assertThat(first.backlog()).isTrue();
    ArchiveResult second = archiver(t).options(capped).execute();
    assertThat(second.completedInstants()).hasSize(2);
    assertThat(second.backlog()).isFalse();
    assertThat(completedCommits(t)).containsExactly(t.writes().get(6));
  }

  @Test
  void incrementalReadsInsideTheActiveTimelineAreUnchangedByArchival() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.MERGE_ON_READ), 1, 6);
    List<String> w = t.writes();
    var fromActive = t.incremental(w.get(3), w.get(5));
    var fromLastArchived = t.incremental(w.get(2), w.get(5));

    archiver(t).options(keep(3, 4)).execute();

    assertThat(completedCommits(t)).containsExactlyElementsOf(w.subList(3, 6));
    assertThat(t.incremental(w.get(3), w.get(5))).isEqualTo(fromActive);
    assertThat(t.incremental(w.get(2), w.get(5))).as("begins at the newest archived instant")
        .isEqualTo(fromLastArchived);
  }

  @Test
  void aReplaceCommitBeforeAFileVersionsCleanIsArchivedAsInHudi() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.COPY_ON_WRITE), 1, 2);
    String replace = t.insertOverwrite(CleanTestTable.PARTITIONS.get(0), 3);
    rounds(t, 4, 9);
    Cleaner.of(t.table).options(CleanOptions.fromMap(Map.of(CleanOptions.POLICY, "KEEP_LATEST_FILE_VERSIONS",
        CleanOptions.FILE_VERSIONS_RETAINED, "1"))).execute();
    var snapshot = t.snapshot();

    ArchiveResult result = archiver(t).options(keep(2, 4)).execute();

    assertThat(result.archived()).as("the clean deleted every replaced group: nothing holds the replacecommit")
        .anySatisfy(i -> assertThat(i.time()).isEqualTo(replace));
    assertThat(completedCommits(t)).containsExactlyElementsOf(t.writes().subList(7, 9));
    assertThat(t.snapshot()).isEqualTo(snapshot);
  }

  @Test
  void aTableWithinItsBoundsArchivesNothing() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.COPY_ON_WRITE), 1, 1);
    assertThat(archiver(t).options(keep(1, 2)).execute()).satisfies(r -> {
      assertThat(r.archiveFile()).isEqualTo(Optional.empty());
      assertThat(r.archived()).isEmpty();
    });
    assertThat(t.timeline().ofAction(Action.COMMIT).size()).isEqualTo(1);
  }

  @Test
  void aReaderThatListedTheTimelineBeforeAnArchivalStillBuildsItsViewAndSchema() throws Exception {
    var t = rounds(CleanTestTable.create(dir, TableType.MERGE_ON_READ), 1, 4);
    t.insertOverwrite(CleanTestTable.PARTITIONS.get(0), 5);
    rounds(t, 6, 9);
    Cleaner.of(t.table).options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "2"))).execute();
    Timeline listedBefore = t.table.refreshTimeline();
    var snapshot = t.snapshot();

    ArchiveResult result = archiver(t).options(keep(2, 4)).execute();
    assertThat(result.archived()).as("the replacecommit among them").anySatisfy(
        i -> assertThat(i.action()).isEqualTo(Action.REPLACE_COMMIT));

    var store = t.table.timelineStore();
    assertThat(store.readUnlessRemoved(result.archived().get(0))).isEmpty();
    assertThat(io.riverbed.format.table.TableSchemaResolver.resolve(t.table, listedBefore)).isPresent();
    io.riverbed.format.timeline.CommittedLogWrites.load(store, listedBefore, t.table.basePath());
    var view = io.riverbed.format.file.FileSystemViewLoader.load(t.table, listedBefore);
    assertThat(view.fileGroups()).isNotEmpty();
    assertThat(t.snapshot()).isEqualTo(snapshot);
  }

  private static io.riverbed.format.archive.Archiver archiver(CleanTestTable t) {
    return io.riverbed.format.archive.Archiver.of(t.table);
  }
}
