package io.riverbed.format.write;

import static io.riverbed.format.write.CleanTestTable.cleanOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleanResult;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.clean.CleaningPolicy;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.InstantTime;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each cleaning policy on MERGE_ON_READ (delta commits and compactions) and COPY_ON_WRITE tables:
 * which slices go, and that every query inside the retention window answers as before.
 * (In the {@code write} package for {@link TestWriter}.)
 */
class CleanPoliciesTest {
  @TempDir java.nio.file.Path dir;

  private static TreeSet<String> slices(TreeSet<String> files) {
    return files.stream().map(CleanTestTable::sliceOf).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Time travel to every write at or after {@code earliest} answers as before; the snapshot too. */
  private static void assertRetainedAnswersUnchanged(CleanTestTable t, Map<String, List<String>> before,
      Map<String, String> snapshotBefore, String earliest) {
    assertThat(t.snapshot()).isEqualTo(snapshotBefore);
    before.forEach((instant, rows) -> {
      if (instant.compareTo(earliest) >= 0) {
        assertThat(t.asOf(instant)).as("as of " + instant).isEqualTo(rows);
      }
    });
  }

  @Test
  void keepLatestCommitsOnMergeOnReadDeletesSlicesOlderThanTheOneBeforeTheEarliestRetained() throws Exception {
    var t = CleanTestTable.morWithTwoCompactions(dir);
    List<String> w = t.writes();
    var before = t.answersAsOfEachWrite();
    var snapshot = t.snapshot();
    var incremental = t.incremental(w.get(3), w.get(6));

    List<CleanResult> results = Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 3, 1)).execute();

    assertThat(results).hasSize(1);
    CleanResult result = results.get(0);
    assertThat(result.earliestInstantRetained()).isEqualTo(w.get(4));
    assertThat(result.filesDeleted()).isEqualTo(4);
    assertThat(result.deletedFilesByPartition().keySet()).containsExactlyInAnyOrderElementsOf(CleanTestTable.PARTITIONS);
    assertThat(result.deletedFilesByPartition().values()).allSatisfy(files ->
        assertThat(files).hasSize(2).allSatisfy(f -> assertThat(CleanTestTable.sliceOf(f)).isEqualTo(w.get(0))));
    assertThat(slices(t.dataFiles())).containsExactly(w.get(2), w.get(5));
    assertRetainedAnswersUnchanged(t, before, snapshot, result.earliestInstantRetained());
    assertThat(t.incremental(w.get(3), w.get(6))).isEqualTo(incremental);
    assertThat(t.cleans()).extracting(i -> i.fileName()).containsExactly(result.instantTime() + ".clean");
  }

  @Test
  void keepLatestCommitsOnCopyOnWriteKeepsTheSliceAQueryAsOfTheEarliestRetainedReads() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 5);
    List<String> w = t.writes();
    var before = t.answersAsOfEachWrite();
    var snapshot = t.snapshot();

    CleanResult result = Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 2, 1)).execute().get(0);

    assertThat(result.earliestInstantRetained()).isEqualTo(w.get(3));
    assertThat(result.filesDeleted()).isEqualTo(4);
    assertThat(slices(t.dataFiles())).containsExactly(w.get(2), w.get(3), w.get(4));
    assertRetainedAnswersUnchanged(t, before, snapshot, w.get(3));
    assertThat(t.incremental(w.get(3), w.get(4))).isNotEmpty();
  }

  @Test
  void keepLatestFileVersionsKeepsTheNewestSlicesOfEachFileGroup() throws Exception {
    var mor = CleanTestTable.morWithTwoCompactions(dir);
    var morSnapshot = mor.snapshot();
    var asOfFirstCompaction = mor.asOf(mor.writes().get(2));
    CleanResult morResult = Cleaner.of(mor.table)
        .options(cleanOptions(CleaningPolicy.KEEP_LATEST_FILE_VERSIONS, 10, 2)).execute().get(0);
    assertThat(morResult.earliestInstantRetained()).isEmpty();
    assertThat(slices(mor.dataFiles())).containsExactly(mor.writes().get(2), mor.writes().get(5));
    assertThat(mor.snapshot()).isEqualTo(morSnapshot);
    assertThat(mor.asOf(mor.writes().get(2))).isEqualTo(asOfFirstCompaction);
  }

  @Test
  void keepLatestFileVersionsOnCopyOnWrite() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 5);
    List<String> w = t.writes();
    var before = t.answersAsOfEachWrite();
    var snapshot = t.snapshot();
    CleanResult result = Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_FILE_VERSIONS, 10, 2))
        .execute().get(0);
    assertThat(result.filesDeleted()).isEqualTo(6);
    assertThat(slices(t.dataFiles())).containsExactly(w.get(3), w.get(4));
    assertRetainedAnswersUnchanged(t, before, snapshot, w.get(3));
  }

  @Test
  void keepLatestByHoursRetainsTheCommitsOfTheWindow() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 4);
    List<String> w = t.writes();
    var before = t.answersAsOfEachWrite();
    var snapshot = t.snapshot();
    var zone = t.table.config().timelineTimezone().zoneId();
    var now = InstantTime.parseToDateTime(w.get(2)).plusHours(1).atZone(zone).toInstant();
    var opts = CleanOptions.fromMap(Map.of(CleanOptions.POLICY, "KEEP_LATEST_BY_HOURS", CleanOptions.HOURS_RETAINED, "1"));

    CleanResult result = Cleaner.of(t.table).options(opts).wallClock(Clock.fixed(now, ZoneOffset.UTC)).execute().get(0);

    assertThat(result.earliestInstantRetained()).isEqualTo(w.get(2));
    assertThat(slices(t.dataFiles())).containsExactly(w.get(1), w.get(2), w.get(3));
    assertRetainedAnswersUnchanged(t, before, snapshot, w.get(2));
  }

  @Test
  void keepLatestByHoursOnMergeOnRead() throws Exception {
    var t = CleanTestTable.morWithTwoCompactions(dir);
    List<String> w = t.writes();
    var snapshot = t.snapshot();
    var zone = t.table.config().timelineTimezone().zoneId();
    var now = InstantTime.parseToDateTime(w.get(5)).plusHours(2).atZone(zone).toInstant();
    var opts = CleanOptions.fromMap(Map.of(CleanOptions.POLICY, "KEEP_LATEST_BY_HOURS", CleanOptions.HOURS_RETAINED, "2"));

    CleanResult result = Cleaner.of(t.table).options(opts).wallClock(Clock.fixed(now, ZoneOffset.UTC)).execute().get(0);

    assertThat(result.earliestInstantRetained()).isEqualTo(w.get(5));
    assertThat(slices(t.dataFiles())).containsExactly(w.get(2), w.get(5));
    assertThat(t.snapshot()).isEqualTo(snapshot);
  }

  @Test
  void nothingToCleanWritesNoInstant() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 3);
    var opts = cleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 5, 1);
    assertThat(Cleaner.of(t.table).options(opts).execute()).isEmpty();
    assertThat(t.cleans()).isEmpty();

    var retainOne = cleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 1, 1);
    assertThat(Cleaner.of(t.table).options(retainOne).execute()).hasSize(1);
    var files = t.dataFiles();
    assertThat(Cleaner.of(t.table).options(retainOne).execute()).as("second clean, nothing new").isEmpty();
    assertThat(t.cleans()).hasSize(1).allSatisfy(i -> assertThat(i.isCompleted()).isTrue());
    assertThat(t.dataFiles()).isEqualTo(files);
  }

  @Test
  void timeTravelBeforeTheEarliestRetainedInstantFailsAsInHudi() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 4);
    List<String> w = t.writes();
    Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 2, 1)).execute();
    assertThatThrownBy(() -> t.asOf(w.get(1))).isInstanceOf(TableException.class)
        .hasMessageContaining("time travel to " + w.get(1)).hasMessageContaining(w.get(2));
    assertThat(t.asOf(w.get(2))).isNotEmpty();
  }

  @Test
  void minCommitsBetweenCleansDefersTheNextPlan() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 3);
    var opts = CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "1", CleanOptions.MAX_COMMITS, "2"));
    assertThat(Cleaner.of(t.table).options(opts).execute()).hasSize(1);
    t.upsertRound(4);
    assertThat(Cleaner.of(t.table).options(opts).scheduleClean()).as("one commit since the last clean").isEmpty();
    t.upsertRound(5);
    assertThat(Cleaner.of(t.table).options(opts).execute()).hasSize(1);
    assertThat(slices(t.dataFiles())).containsExactly(t.writes().get(3), t.writes().get(4));
  }
}
