package io.riverbed.format.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.query.IncrementalScope.Source;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * What an incremental range reaching into archived time reads, decided as Hudi 0.15's Spark reader
 * decides it: the active timeline holds commits 005, 006 and 007; everything before 005 was archived.
 */
class IncrementalScopeTest {
  private static final Timeline ACTIVE = Timeline.fromInstants(List.of(
      new Instant("005", Action.COMMIT, State.COMPLETED),
      new Instant("006", Action.COMMIT, State.COMPLETED),
      new Instant("007", Action.COMMIT, State.COMPLETED)));
  private static final BooleanSupplier ALL_FILES_THERE = () -> false;
  private static final BooleanSupplier A_FILE_CLEANED = () -> true;
  private static final BooleanSupplier NOT_ASKED = () -> {
    throw new AssertionError("the files are checked only with the fallback on");
  };

  private static IncrementalScope cow(String begin, String end) {
    return IncrementalScope.of(TableType.COPY_ON_WRITE, ACTIVE, begin, end);
  }

  private static IncrementalScope mor(String begin, String end) {
    return IncrementalScope.of(TableType.MERGE_ON_READ, ACTIVE, begin, end);
  }

  @Test
  void aBoundIsArchivedWhenItPrecedesTheFirstActiveCommitEvenWithNothingArchived() {
    assertThat(cow("000", "007").beginArchived()).isTrue();
    assertThat(cow("004", "007").beginArchived()).isTrue();
    assertThat(cow("005", "007").beginArchived()).as("the first active commit itself").isFalse();
    assertThat(cow("002", "004").endArchived()).isTrue();
    assertThat(cow("002", "005").endArchived()).isFalse();
    var empty = IncrementalScope.of(TableType.COPY_ON_WRITE, Timeline.empty(), "000", "000");
    assertThat(empty.beginArchived()).as("a table without commits has no start").isFalse();
    assertThat(empty.source(true, NOT_ASKED)).isEqualTo(Source.NOTHING);
  }

  @Test
  void copyOnWriteWithoutFallbackReadsTheActiveCommitsFilesFromTheFirstToTheLastOfThem() {
    IncrementalScope scope = cow("002", "006");
    assertThat(scope.commits().times()).containsExactly("005", "006");
    assertThat(scope.source(false, NOT_ASKED)).isEqualTo(Source.COMMIT_FILES);
    assertThat(scope.rows(Source.COMMIT_FILES)).isEqualTo(InstantRange.closed("005", "006"));
  }

  @Test
  void copyOnWriteWithFallbackScansTheTableForAnArchivedBoundWithoutLookingAtFiles() {
    assertThat(cow("002", "006").source(true, NOT_ASKED)).isEqualTo(Source.FULL_TABLE_SCAN);
    assertThat(cow("002", "006").rows(Source.FULL_TABLE_SCAN)).isEqualTo(InstantRange.between("002", "006"));
    IncrementalScope archived = cow("001", "003");
    assertThat(archived.commits().isEmpty()).isTrue();
    assertThat(archived.source(false, NOT_ASKED)).as("no active commit in the range").isEqualTo(Source.NOTHING);
    assertThat(archived.source(true, NOT_ASKED)).as("scanned although no active commit is in it")
        .isEqualTo(Source.FULL_TABLE_SCAN);
    assertThat(archived.rows(Source.FULL_TABLE_SCAN)).isEqualTo(InstantRange.between("001", "003"));
  }

  @Test
  void withFallbackAnActiveRangeWhoseFilesWereCleanedIsScannedToo() {
    assertThat(cow("005", "007").source(true, A_FILE_CLEANED)).isEqualTo(Source.FULL_TABLE_SCAN);
    assertThat(cow("005", "007").rows(Source.FULL_TABLE_SCAN)).isEqualTo(InstantRange.between("005", "007"));
    assertThat(cow("005", "007").source(true, ALL_FILES_THERE)).isEqualTo(Source.COMMIT_FILES);
    assertThat(cow("005", "007").source(false, NOT_ASKED)).isEqualTo(Source.COMMIT_FILES);
    assertThat(mor("005", "007").source(true, A_FILE_CLEANED)).isEqualTo(Source.FULL_TABLE_SCAN);
    assertThat(mor("005", "007").rows(Source.FULL_TABLE_SCAN)).as("from the first commit after the begin")
        .isEqualTo(InstantRange.closed("006", "007"));
    assertThat(mor("007", "009").source(true, NOT_ASKED)).as("no commit in the range").isEqualTo(Source.NOTHING);
  }

  @Test
  void mergeOnReadFromArchivedTimeReadsTheActiveCommitsFilesRowsAfterTheBegin() {
    IncrementalScope scope = mor("002", "009");
    assertThat(scope.commits().times()).containsExactly("005", "006", "007");
    assertThat(scope.source(false, NOT_ASKED)).isEqualTo(Source.COMMIT_FILES);
    assertThat(scope.rows(Source.COMMIT_FILES)).as("up to the last commit, not the end given")
        .isEqualTo(InstantRange.between("002", "007"));
    assertThat(scope.source(true, NOT_ASKED)).isEqualTo(Source.FULL_TABLE_SCAN);
    assertThat(scope.rows(Source.FULL_TABLE_SCAN)).isEqualTo(InstantRange.between("002", "007"));
  }

  @Test
  void mergeOnReadWhollyArchivedReadsNothingWithoutFallbackAndTheArchivedWindowWithIt() {
    IncrementalScope scope = mor("001", "003");
    assertThat(scope.commits().times()).as("every active commit, as Hudi's reader takes them")
        .containsExactly("005", "006", "007");
    assertThat(scope.source(false, NOT_ASKED)).isEqualTo(Source.NOTHING);
    assertThat(scope.source(true, NOT_ASKED)).isEqualTo(Source.FULL_TABLE_SCAN);
    assertThat(scope.rows(Source.FULL_TABLE_SCAN)).isEqualTo(InstantRange.between("001", "003"));
  }

  @Test
  void mergeOnReadInsideTheActiveTimelineReadsFromTheFirstToTheLastCommitOfTheRange() {
    IncrementalScope scope = mor("005", "007");
    assertThat(scope.source(false, NOT_ASKED)).isEqualTo(Source.COMMIT_FILES);
    assertThat(scope.rows(Source.COMMIT_FILES)).isEqualTo(InstantRange.closed("006", "007"));
    assertThat(scope.lastCommit()).isEqualTo("007");
  }

  @Test
  void anInclusiveRangeHoldsItsStart() {
    assertThat(InstantRange.closed("005", "007").contains("005")).isTrue();
    assertThat(InstantRange.between("005", "007").contains("005")).isFalse();
    assertThat(InstantRange.closed("005", "007").contains("008")).isFalse();
    assertThat(InstantRange.closed("005", "007")).hasToString("[005, 007]");
  }
}
