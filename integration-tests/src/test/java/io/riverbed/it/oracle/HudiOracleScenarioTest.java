package io.riverbed.it.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.Scenarios;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Validates the harness and the expected model against Apache Hudi 0.15's own reader: for every
 * scenario table, Hudi's snapshot equals the model, and the other query kinds return the model's
 * answer at the right instants.
 */
class HudiOracleScenarioTest {

  @Test
  void morSnapshotEqualsModel() {
    ScenarioTable t = Scenarios.morTrips();
    Rows actual = SparkOracle.snapshot(t.path());
    assertThat(actual.size()).isGreaterThan(1_500);
    actual.withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), t + " snapshot");
  }

  @Test
  void morTimelineHasEveryKindOfWrite() {
    ScenarioTable t = Scenarios.morTrips();
    List<String> actions = SparkOracle.completedInstants(t.path()).stream().map(TimelineInstant::action).toList();
    assertThat(actions).containsExactly("deltacommit", "deltacommit", "deltacommit", "deltacommit",
        "replacecommit", "deltacommit", "commit", "deltacommit");
    assertThat(t.commits()).extracting(ScenarioTable.Commit::operation).containsExactly(
        "bulk_insert", "insert", "upsert", "delete", "insert_overwrite", "upsert", "compaction", "upsert");
  }

  @Test
  void morReadOptimizedSeesTheCompactedBaseFilesOnly() {
    ScenarioTable t = Scenarios.morTrips();
    Rows ro = SparkOracle.readOptimized(t.path()).withoutPhysicalMetaColumns();
    assertThat(ro).isNotEqualTo(t.expectedSnapshot());
    ro.assertSameAs(t.expectedRows(t.commit("compaction").state()), t + " read_optimized");
  }

  @Test
  void morTimeTravelToEveryCommitEqualsModelAtThatCommit() {
    ScenarioTable t = Scenarios.morTrips();
    for (ScenarioTable.Commit c : t.commits()) {
      SparkOracle.asOf(t.path(), c.time()).withoutPhysicalMetaColumns()
          .assertSameAs(t.expectedAsOf(c.time()), t + " as of " + c.instant() + " (" + c.operation() + ")");
    }
  }

  /**
   * Hudi 0.15's MOR incremental query builds file slices only from files written in the range, so
   * a log record that lost (smaller ts) against a base record written before the range is
   * returned as if it had won. Otherwise the answer is the model's: the latest version of every
   * record changed in the range.
   */
  @Test
  void morIncrementalReturnsLatestVersionOfRecordsChangedInRange() {
    ScenarioTable t = Scenarios.morTrips();
    List<ScenarioTable.Commit> cs = t.commits();
    int[][] ranges = {{0, 1}, {0, 2}, {1, 2}, {2, 4}, {3, 7}, {5, 7}, {6, 7}, {0, 7}};
    int exact = 0;
    for (int[] r : ranges) {
      String begin = cs.get(r[0]).time();
      String end = cs.get(r[1]).time();
      String what = t + " incremental (" + begin + ", " + end + "] = (" + cs.get(r[0]).operation() + ", "
          + cs.get(r[1]).operation() + "]";
      Rows actual = SparkOracle.incremental(t.path(), begin, end).withoutPhysicalMetaColumns();
      Rows expected = t.expectedIncremental(begin, end);
      assertThat(expected.size()).as(what).isPositive();
      assertThat(expected.minus(actual).size()).as(what + ": missing rows\n" + expected.diff(actual)).isZero();
      Rows extra = actual.minus(expected);
      assertThat(extra.minus(t.versionsWrittenIn(begin, end)).size())
          .as(what + ": extra rows that no write in the range produced\n" + actual.diff(expected)).isZero();
      assertThat(extra.values("_hoodie_record_key")).as(what).doesNotContainAnyElementsOf(
          expected.values("_hoodie_record_key")).hasSize(extra.size());
      exact += extra.isEmpty() ? 1 : 0;
    }
    assertThat(exact).as("ranges answered exactly as the model").isPositive();
    SparkOracle.read(t.path(), Query.incremental("000")).withoutPhysicalMetaColumns()
        .assertSameAs(t.expectedSnapshot(), t + " incremental from the beginning");
  }

  @Test
  void cowCompositeKeySnapshotEqualsModel() {
    ScenarioTable t = Scenarios.cowComposite();
    Rows actual = SparkOracle.snapshot(t.path());
    assertThat(actual.values("_hoodie_record_key")).allMatch(k -> k.startsWith("uuid:") && k.contains(",driver:"));
    assertThat(actual.values("_hoodie_partition_path")).allMatch(p -> p.startsWith("region="));
    actual.withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), t + " snapshot");
    SparkOracle.readOptimized(t.path()).assertSameAs(actual, t + " read_optimized = snapshot");
    var first = t.commits().get(0);
    SparkOracle.asOf(t.path(), first.time()).withoutPhysicalMetaColumns()
        .assertSameAs(t.expectedAsOf(first.time()), t + " as of first commit");
    SparkOracle.incremental(t.path(), first.time(), t.latest().time()).withoutPhysicalMetaColumns()
        .assertSameAs(t.expectedIncremental(first.time(), t.latest().time()), t + " incremental");
  }

  @Test
  void nestedKeySnapshotEqualsModel() {
    ScenarioTable t = Scenarios.nestedKey();
    Rows actual = SparkOracle.snapshot(t.path());
    assertThat(actual.values("_hoodie_record_key")).allMatch(k -> k.startsWith("rider-"));
    actual.withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), t + " snapshot");
    var first = t.commits().get(0);
    SparkOracle.asOf(t.path(), first.time()).withoutPhysicalMetaColumns()
        .assertSameAs(t.expectedAsOf(first.time()), t + " as of first commit");
  }
}
