package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.Split;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.TableReads;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Incremental reads of ranges reaching into archived time, with and without
 * {@value QuerySpec#FALLBACK_FULL_TABLE_SCAN}, on a table whose early rounds wrote both partitions
 * and whose later ones only the first: rounds 1-3 (w0-w2) upsert k0..k5, rounds 4-6 only k0, k2,
 * k4; archival keeps the last three writes. (In the {@code write} package for {@link CleanTestTable}.)
 */
class IncrementalIntoArchivedTimeTest {
  private static final List<String> FIRST_DAY = List.of(CleanTestTable.PARTITIONS.get(0));

  @TempDir java.nio.file.Path dir;

  /** Rounds 1-3 on both days, on MERGE_ON_READ a compaction, then rounds 4-6 on the first day. */
  private static CleanTestTable write(java.nio.file.Path dir, TableType type) throws Exception {
    var t = CleanTestTable.create(dir, type);
    for (int r = 1; r <= 6; r++) {
      t.upsertRound(r, r <= 3 ? CleanTestTable.PARTITIONS : FIRST_DAY);
      if (r == 3 && type == TableType.MERGE_ON_READ) {
        t.compact();
      }
    }
    return t;
  }

  /** Archives down to the last three writes. */
  private static void archiveAllButThree(CleanTestTable t) {
    Archiver.of(t.table).options(ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, "3",
        ArchiveOptions.MAX_COMMITS, "4", ArchiveOptions.COMPACTION_DELTA_COMMITS, "1"))).execute();
    List<String> w = t.writes();
    assertThat(t.timeline().commitsTimeline().completed().times()).containsExactlyElementsOf(w.subList(w.size() - 3, w.size()));
  }

  /** "key@name" of each row, sorted. */
  private static List<String> read(CleanTestTable t, String begin, String end, boolean fallback) {
    return TableReads.read(t.table, QuerySpec.incremental(begin, end).withFallbackToFullTableScan(fallback)).stream()
        .map(r -> r.get("id") + "@" + r.get("name")).sorted().toList();
  }

  /** "key@name" of each row, without and with the fallback. */
  private static void reads(CleanTestTable t, String begin, String end, List<String> without, List<String> with) {
    assertThat(read(t, begin, end, false)).as("(" + begin + ", " + end + "] without fallback").isEqualTo(without);
    assertThat(read(t, begin, end, true)).as("(" + begin + ", " + end + "] with fallback").isEqualTo(with);
  }

  private CleanTestTable archived(TableType type) throws Exception {
    var t = write(dir, type);
    archiveAllButThree(t);
    return t;
  }

  /**
   * COPY_ON_WRITE, w3-w5 active: without the fallback only the active commits' files are read (a
   * range wholly archived is empty); with it an archived bound scans the latest files for rows
   * committed in the range.
   */
  @Test
  void copyOnWriteRangesReachingIntoArchivedTimeReadWhatHudiReads() throws Exception {
    var t = archived(TableType.COPY_ON_WRITE);
    List<String> w = t.writes();
    List<String> firstDay = List.of("k0@r6", "k2@r6", "k4@r6");
    List<String> secondDay = List.of("k1@r3", "k3@r3", "k5@r3");

    reads(t, "000", null, firstDay, List.of("k0@r6", "k1@r3", "k2@r6", "k3@r3", "k4@r6", "k5@r3"));
    reads(t, w.get(1), w.get(4), List.of("k0@r5", "k2@r5", "k4@r5"), secondDay);
    reads(t, w.get(0), w.get(2), List.of(), secondDay);
    reads(t, w.get(3), null, firstDay, firstDay);
  }

  /**
   * MERGE_ON_READ, compaction w3 archived, w4-w6 active (logs on the first day's slices): as
   * Hudi 0.15, the fallback reads the latest base files only, so the first day's keys come back
   * as compacted (r3), not as their logs have them (r6).
   */
  @Test
  void mergeOnReadRangesReachingIntoArchivedTimeReadWhatHudiReads() throws Exception {
    var t = archived(TableType.MERGE_ON_READ);
    List<String> w = t.writes();
    List<String> compacted = List.of("k0@r3", "k1@r3", "k2@r3", "k3@r3", "k4@r3", "k5@r3");
    List<String> firstDay = List.of("k0@r6", "k2@r6", "k4@r6");

    reads(t, "000", null, firstDay, compacted);
    reads(t, w.get(1), w.get(5), List.of("k0@r5", "k2@r5", "k4@r5"), compacted);
    reads(t, w.get(0), w.get(2), List.of(), compacted);
    reads(t, w.get(4), null, firstDay, firstDay);
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void theFallbackReadsTheLatestBaseFilesAsOfTheLatestCommit(TableType type) throws Exception {
    var t = archived(type);
    List<String> w = t.writes();

    List<Split> splits = QueryPlanner.plan(t.table, QuerySpec.incremental(w.get(1), w.get(4))
        .withFallbackToFullTableScan(true)).splits();

    assertThat(splits).isNotEmpty().allSatisfy(s -> {
      assertThat(s.latestInstant()).isEqualTo(w.get(w.size() - 1));
      assertThat(s.baseOnly()).isTrue();
      assertThat(s.range()).hasValueSatisfying(r -> assertThat(r).hasToString("(" + w.get(1) + ", " + w.get(4) + "]"));
    });
  }

  @Test
  void aRangeWhoseFilesWereCleanedFailsWithoutFallbackAndIsScannedWithIt() throws Exception {
    var t = write(dir, TableType.COPY_ON_WRITE);
    List<String> w = t.writes();
    Cleaner.of(t.table).options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "2"))).execute();

    assertThatThrownBy(() -> read(t, w.get(0), w.get(2), false)).isInstanceOf(TableException.class)
        .hasMessageContaining(QuerySpec.FALLBACK_FULL_TABLE_SCAN);
    assertThat(read(t, w.get(0), w.get(2), true)).containsExactly("k1@r3", "k3@r3", "k5@r3");
  }
}
