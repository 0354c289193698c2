package io.riverbed.it.riverbed;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import io.riverbed.it.oracle.NextHudiOracle;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.QueryKind;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.scenario.ScenarioTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Tables Riverbed's core wrote, read by Apache Hudi's own Spark readers (0.15 in this JVM, 1.0.2 in
 * a forked one): every query kind runs without error and returns the expected rows, the same rows
 * Riverbed's reader returns.
 */
class HudiReadsRiverbedTablesTest {
  /**
   * Hudi 0.15's answer to each read, kept for the class: the tables are written once and never
   * changed here, and two tests compare against the same answers.
   */
  private static final Map<NextHudiOracle.Read, Rows> HUDI_015_ANSWERS = new ConcurrentHashMap<>();

  static Rows hudi015(NextHudiOracle.Read read) {
    return HUDI_015_ANSWERS.computeIfAbsent(read, r -> SparkOracle.read(r.table(), r.query()));
  }

  /** Every query the tests run on a table: snapshot, read-optimized, time travel to each commit, incremental ranges. */
  static List<Query> queries(ScenarioTable t) {
    return Query.everyKind(t.commitTimes());
  }

  @Test
  void morTableHasTheRequiredShape() {
    ScenarioTable t = RiverbedScenarios.mor();
    assertThat(t.commits()).extracting(ScenarioTable.Commit::operation)
        .containsExactly("bulk_insert", "upsert", "delete", "upsert", "compaction", "upsert");
    assertThat(SparkOracle.snapshot(t.path()).size()).isGreaterThan(1_900);
    assertThat(t.latest().state().values()).extracting(e -> e.trip().partitionPath(false).split("/").length).containsOnly(3);
  }

  @Test
  void hudiSnapshotOfRiverbedTablesEqualsTheModelAndRiverbedsReader() {
    for (ScenarioTable t : List.of(RiverbedScenarios.mor(), RiverbedScenarios.cow())) {
      Rows hudi = SparkOracle.snapshot(t.path());
      hudi.withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), t + " snapshot vs model");
      riverbed(t, Query.snapshot()).assertSameAs(hudi, t + " snapshot, Riverbed vs Hudi");
    }
  }

  @Test
  void hudiReadOptimizedSeesTheCompactedBaseFiles() {
    ScenarioTable t = RiverbedScenarios.mor();
    Rows ro = SparkOracle.readOptimized(t.path());
    ro.withoutPhysicalMetaColumns().assertSameAs(t.expectedRows(t.commit("compaction").state()), t + " read_optimized");
    assertThat(ro.withoutPhysicalMetaColumns()).isNotEqualTo(t.expectedSnapshot());
  }

  @Test
  void hudiTimeTravelToEveryCommitEqualsTheModelAtThatCommit() {
    for (ScenarioTable t : List.of(RiverbedScenarios.mor(), RiverbedScenarios.cow())) {
      for (ScenarioTable.Commit c : t.commits()) {
        SparkOracle.asOf(t.path(), c.time()).withoutPhysicalMetaColumns()
            .assertSameAs(t.expectedAsOf(c.time()), t + " as of " + c.time() + " (" + c.operation() + ")");
      }
    }
  }

  @Test
  void everyQueryKindReturnsTheSameRowsInHudiAndRiverbed() {
    for (ScenarioTable t : List.of(RiverbedScenarios.mor(), RiverbedScenarios.cow())) {
      for (Query q : queries(t)) {
        Rows hudi = hudi015(new NextHudiOracle.Read(t.path(), q));
        if (q.kind() != QueryKind.INCREMENTAL) {
          assertThat(hudi.size()).as(t + " " + q).isPositive();
        }
        riverbed(t, q).assertSameAs(hudi, t + " " + q + ", Riverbed vs Hudi 0.15");
      }
    }
  }

  @Test
  void hudiOnePointZeroReturnsWhatHudiZeroFifteenReturns() {
    List<NextHudiOracle.Read> reads = new ArrayList<>();
    for (ScenarioTable t : List.of(RiverbedScenarios.mor(), RiverbedScenarios.cow())) {
      for (Query q : queries(t)) {
        reads.add(new NextHudiOracle.Read(t.path(), q));
      }
    }
    NextHudiOracle.Answer answer = NextHudiOracle.read(reads);
    assertThat(answer.hudiOrigin()).contains("1.0.2");
    for (int i = 0; i < reads.size(); i++) {
      NextHudiOracle.Read read = reads.get(i);
      answer.rows().get(i).assertSameAs(hudi015(read), read + ", Hudi 1.0.2 vs 0.15");
    }
  }

  static Rows riverbed(ScenarioTable t, Query q) {
    try {
      Table table = Table.open(FileSystem.getLocal(new Configuration()), new Path(t.path().toUri()));
      return Rows.ofJsonLines(TableReads.lines(table, QuerySpec.fromOptions(q.hudiOptions())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
