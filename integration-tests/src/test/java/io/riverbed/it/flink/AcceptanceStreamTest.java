package io.riverbed.it.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.QueryKind;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Flink writer issue's acceptance stream: 100,000 changes (about 30% updates of earlier keys
 * with shuffled ordering values, 2% deletes, 3 partition levels) written by the write job (four runs
 * of a quarter of the stream each, child JVMs, parallelism 2, 150 ms checkpoints: about 25
 * commits) into a MERGE_ON_READ table, then
 * read by Apache Hudi 0.15's Spark reader: the snapshot equals the last-writer-wins model, and
 * read_optimized, time travel to each commit and incremental between consecutive commits run in
 * Hudi without error and return exactly what Riverbed's core reader returns.
 */
class AcceptanceStreamTest {
  private static final int CHANGES = 100_000;
  private static final int WAVES = 4;

  @TempDir static Path work;
  static FlinkTrips trips;
  static Path table;

  @BeforeAll
  static void writeTable() {
    trips = FlinkTrips.generate(20_261_129L, CHANGES);
    table = work.resolve("acceptance");
    Path schema = FlinkTrips.writeSchema(work.resolve("trip.avsc"));
    Path checkpointDir = work.resolve("checkpoints");
    for (Path input : trips.writeWaves(work.resolve("input"), WAVES)) {
      WriteJobProcess.run(work.resolve("jobs"), WriteJobProcess.HANG_LIMIT, List.of("--source", "file", "--input", input.toString(),
          "--schema", schema.toString(), "--table-path", table.toString(), "--table-name", "trips",
          "--table-type", "MERGE_ON_READ", "--record-key", "uuid", "--precombine", "ts",
          "--partition-path", String.join(",", FlinkTrips.PARTITION_FIELDS),
          "--checkpoint-interval", "150ms", "--checkpoint-dir", checkpointDir.toString(), "--parallelism", "2",
          // time travel to each commit is checked: the job must not clean or archive
          "--set", "clean.async.enabled=false", "--set", "hoodie.archive.automatic=false"));
    }
    System.out.printf("acceptance stream: timeline %s%n", TimelineInstant.completed(table));
  }

  @Test
  void streamAndTableHaveTheRequiredShape() {
    assertThat(trips.size()).isEqualTo(CHANGES);
    assertThat(trips.deletes()).isBetween(1_500L, 2_500L);
    // A commit per checkpoint that carried data (idle checkpoints open nothing): about 25 on a quiet
    // machine, but how many checkpoints fall inside a wave depends on the load (14 were seen at a
    // load of 7). What does not: each bounded wave ends with a commit of its own.
    assertThat(TimelineInstant.completedWrites(table)).as("commits of %s", table).hasSizeGreaterThanOrEqualTo(WAVES);
    assertThat(HudiReadsFlinkTablesTest.incompleteInstants(table)).isEmpty();
  }

  @Test
  void hudiSnapshotEqualsTheLastWriterWinsModelAndRiverbedsReader() {
    Rows hudi = SparkOracle.snapshot(table);
    hudi.without("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_file_name")
        .assertSameAs(trips.expected(), table + ": Hudi snapshot vs model");
    HudiReadsFlinkTablesTest.riverbed(table, Query.snapshot()).assertSameAs(hudi, table + ": snapshot, Riverbed vs Hudi");
  }

  @Test
  void everyQueryKindRunsInHudiAndReturnsWhatRiverbedReturns() {
    for (Query q : HudiReadsFlinkTablesTest.queries(table)) {
      if (q.kind() == QueryKind.SNAPSHOT) {
        continue;
      }
      Rows hudi = SparkOracle.read(table, q);
      HudiReadsFlinkTablesTest.riverbed(table, q).assertSameAs(hudi, table + " " + q + ", Riverbed vs Hudi 0.15");
    }
  }
}
