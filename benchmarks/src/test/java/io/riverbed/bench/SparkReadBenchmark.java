package io.riverbed.bench;

import static io.riverbed.bench.SparkReadRun.HUDI;
import static io.riverbed.bench.SparkReadRun.RIVERBED;
import static io.riverbed.bench.SparkReadRun.readOptimized;
import static io.riverbed.bench.SparkReadRun.snapshot;
import static io.riverbed.bench.SparkReadRun.writeWithHudi;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Spark read benchmark: Riverbed's DataSource against Apache Hudi 0.15's and against Spark
 * reading the same Parquet files directly, in one JVM and one SparkSession.
 *
 * <p>The table (MERGE_ON_READ, trips-like, 3-level partitions) is written once per run by Hudi's
 * own Spark writer: a bulk_insert of {@code bench.records} records (one file group per
 * partition), then an upsert of half the records of every fifth partition, so about 20% of the
 * file groups carry a log file over their base file. Then each query runs {@code bench.warmups}
 * unrecorded rounds and {@code bench.rounds} recorded ones, the readers alternating order every
 * round. Every query is an aggregate over all of its rows ({@code count(*)} and {@code sum(hash(..))}
 * of every column), so every column is decoded and nothing is collected to the driver; the data
 * checksum doubles as a check that the readers agree. The tables streaming produces are in
 * {@link SparkStreamingShapesReadBenchmark}.
 */
class SparkReadBenchmark {
  private final SparkReadRun run = new SparkReadRun();

  @Test
  void readTripsTable() throws IOException {
    long records = run.records;
    run.onFreshTable("some-logs", "spark-read", "spark-trips-mor", (spark, report, table) -> {
      long t0 = System.nanoTime();
      writeWithHudi(table, "bulk_insert", Trips.generate(spark, 0, records, "true"));
      long t1 = System.nanoTime();
      writeWithHudi(table, "upsert", Trips.generate(spark, 0, records,
          "pmod(id, 48) % 5 = 0 AND pmod(id div 48, 2) = 0").selectExpr(Trips.updated()));
      long t2 = System.nanoTime();
      TableLayout layout = TableLayout.of(table);
      report.format("- table written by Apache Hudi 0.15's Spark writer: bulk_insert %.1f s, upsert (%d records) %.1f s; %s",
          (t1 - t0) / 1e9, updateCount(records), (t2 - t1) / 1e9, layout.describe());

      String updatedPartition = "region = 'americas' AND country = 'country_1' AND city = 'city_1'"; // p = 5
      long tsLow = Trips.TS0 + records * 400;
      long tsHigh = Trips.TS0 + records * 420;
      List<ReadComparison> comparisons = List.of(
          new ReadComparison("(a) full scan, snapshot", Map.of(
              "Riverbed", s -> snapshot(s, RIVERBED, table),
              "Hudi", s -> snapshot(s, HUDI, table)), "Riverbed", "Hudi"),
          new ReadComparison("(b1) one partition with logs + fare > 50, snapshot", Map.of(
              "Riverbed", s -> snapshot(s, RIVERBED, table).where(updatedPartition + " AND fare > 50"),
              "Hudi", s -> snapshot(s, HUDI, table).where(updatedPartition + " AND fare > 50")), "Riverbed", "Hudi"),
          new ReadComparison("(b2) ts range (2% of keys), snapshot", Map.of(
              "Riverbed", s -> snapshot(s, RIVERBED, table).where("ts BETWEEN " + tsLow + " AND " + tsHigh),
              "Hudi", s -> snapshot(s, HUDI, table).where("ts BETWEEN " + tsLow + " AND " + tsHigh)), "Riverbed", "Hudi"),
          new ReadComparison("(c) base files only: read_optimized vs plain Parquet", Map.of(
              "Riverbed", s -> readOptimized(s, RIVERBED, table),
              "Parquet", s -> s.read().parquet(layout.baseFiles().toArray(String[]::new)),
              "Hudi", s -> readOptimized(s, HUDI, table)), "Riverbed", "Parquet"));

      run.compare(spark, comparisons, report, t0);
    });
  }

  private static long updateCount(long records) {
    long n = 0;
    for (long id = 0; id < records; id++) {
      if ((id % 48) % 5 == 0 && (id / 48) % 2 == 0) {
        n++;
      }
    }
    return n;
  }
}
