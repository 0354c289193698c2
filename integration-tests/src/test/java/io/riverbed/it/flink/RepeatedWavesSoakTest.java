package io.riverbed.it.flink;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.riverbed.format.testing.CpuLoad;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Long profile only ({@code -Driverbed.soak=long}, {@code -Driverbed.soak.repeats=N}, default 10):
 * {@link HudiReadsFlinkTablesTest}'s two-wave writes again and again with busy threads beside
 * them, each table checked against the last-writer-wins model. On a loaded machine barriers reach
 * the writer subtasks far apart and tasks fail now and then; this is how the stray files of a
 * recovered commit were found (1 run of 2 at a load average of 20–27: 116 rows too many).
 */
class RepeatedWavesSoakTest {
  @TempDir Path work;

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void everyRunEqualsTheModel(String type) throws Exception {
    assumeTrue("long".equals(System.getProperty("riverbed.soak")), "a long-profile soak (-Driverbed.soak=long)");
    FlinkTrips trips = FlinkTrips.generate(20_260_601L, 20_000);
    Rows expected = trips.expected();
    int repeats = Integer.getInteger("riverbed.soak.repeats", 10);
    try (var load = CpuLoad.start(2)) {
      for (int run = 0; run < repeats; run++) {
        Path dir = work.resolve("run-" + run);
        Path table = dir.resolve("table");
        Path schema = FlinkTrips.writeSchema(dir.resolve("trip.avsc"));
        for (Path wave : trips.writeWaves(dir.resolve("input"), 2)) {
          List<String> args = new ArrayList<>(FlinkTrips.jobFlags(wave, schema, table, type, "300ms"));
          args.addAll(List.of("--parallelism", "2"));
          WriteJobProcess.run(dir.resolve("jobs"), WriteJobProcess.HANG_LIMIT, args);
        }
        HudiReadsFlinkTablesTest.riverbed(table, Query.snapshot())
            .without("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_file_name")
            .assertSameAs(expected, type + " run " + run + " of " + repeats + " (" + table + ")");
        System.out.printf("%s run %d of %d equals the model%n", type, run + 1, repeats);
      }
    }
  }
}
