package io.riverbed.it.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.fixtures.GoldenFixtures;
import io.riverbed.it.oracle.NextHudiOracle.Read;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.Scenarios;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Hudi 1.0.x, run in a forked JVM on the same Spark 3.5.1, reads tables Hudi 0.15 wrote
 * exactly as Hudi 0.15 does, for every query kind.
 */
class NextHudiOracleTest {

  @Test
  void hudi1ReadsTablesWrittenByHudi015LikeHudi015(@TempDir Path dir) {
    ScenarioTable mor = Scenarios.morTrips();
    ScenarioTable cow = Scenarios.cowComposite();
    ScenarioTable nested = Scenarios.nestedKey();
    var cs = mor.commits();
    var reads = new ArrayList<Read>(List.of(
        new Read(mor.path(), Query.snapshot()),
        new Read(mor.path(), Query.readOptimized()),
        new Read(mor.path(), Query.asOf(cs.get(3).time())),
        new Read(mor.path(), Query.incremental(cs.get(0).time(), cs.get(2).time())),
        new Read(mor.path(), Query.incremental(cs.get(4).time(), cs.get(7).time())),
        new Read(cow.path(), Query.snapshot()),
        new Read(cow.path(), Query.incremental(cow.commits().get(0).time())),
        new Read(nested.path(), Query.snapshot())));
    int scenarioReads = reads.size();
    var golden = GoldenFixtures.expectedReads();
    for (var g : golden) {
      Path table = dir.resolve(g.table());
      if (!table.toFile().exists()) {
        GoldenFixtures.copy(g.table(), dir);
      }
      reads.add(new Read(table, g.query()));
    }

    var answer = NextHudiOracle.read(reads);

    assertThat(answer.hudiOrigin()).contains("hudi-spark3.5-bundle_2.12-1.");
    for (int i = 0; i < scenarioReads; i++) {
      Read r = reads.get(i);
      Rows hudi015 = SparkOracle.read(r.table(), r.query());
      assertThat(hudi015.isEmpty()).as(r.toString()).isFalse();
      answer.rows().get(i).assertSameAs(hudi015, r + ": Hudi 1.0 vs Hudi 0.15");
    }
    for (int i = 0; i < golden.size(); i++) {
      answer.rows().get(scenarioReads + i).assertSameAs(golden.get(i).rows(),
          "golden " + golden.get(i) + ": Hudi 1.0 vs the rows Hudi 0.15 recorded");
    }
  }
}
