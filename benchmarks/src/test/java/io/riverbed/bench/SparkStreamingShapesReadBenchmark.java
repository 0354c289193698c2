package io.riverbed.bench;

import static io.riverbed.bench.SparkReadRun.HUDI;
import static io.riverbed.bench.SparkReadRun.RIVERBED;
import static io.riverbed.bench.SparkReadRun.incremental;
import static io.riverbed.bench.SparkReadRun.read;
import static io.riverbed.bench.SparkReadRun.readOptimized;
import static io.riverbed.bench.SparkReadRun.snapshot;
import static io.riverbed.bench.SparkReadRun.writeWithHudi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;

/**
 * Spark reads of the tables streaming leaves between compactions, Riverbed against Apache Hudi
 * 0.15's reader and plain Parquet, every table written by Hudi 0.15's own Spark writer and opened
 * afresh by every query (timeline, listing and planning inside the time):
 * <ul>
 *   <li>{@code all-logs}, {@code half-logs}: an upsert of {@code bench.records} keys, then 10% or
 *       50% of the keys (uniformly) updated, so every file group has a log;</li>
 *   <li>{@code many-logs}: then eight delta commits of 2% of the keys each, so every slice has
 *       several log files; also an incremental read of one of those commits;</li>
 *   <li>{@code cow}: the 10% table as COPY_ON_WRITE, against plain Parquet over its latest base files;</li>
 *   <li>{@code spill}: one file group whose log updates every key, read with the default merge
 *       memory and with one its log entries exceed, with each reader's live heap probed.</li>
 * </ul>
 */
class SparkStreamingShapesReadBenchmark {
  private static final String FILTERED_AGGREGATE =
      "fare > 50 grouped by partition (count, sum and max of fare), snapshot";
  private static final String SPILL_BUDGET_BYTES = Long.toString(8L << 20);

  private final SparkReadRun run = new SparkReadRun();

  @Test
  void readTableWithLogsInEveryFileGroup() throws IOException {
    onUpdatedTable("all-logs", "MERGE_ON_READ", 10, (spark, table, layout) -> List.of(
        fullScan("(d) full scan, snapshot, 10% of keys in logs", table),
        filteredAggregate("(e) " + FILTERED_AGGREGATE + ", 10% of keys in logs", table),
        new ReadComparison("(c2) base files only: read_optimized vs plain Parquet", Map.of(
            "Riverbed", s -> readOptimized(s, RIVERBED, table),
            "Parquet", s -> parquet(s, layout),
            "Hudi", s -> readOptimized(s, HUDI, table)), "Riverbed", "Parquet")));
  }

  @Test
  void readTableWithHalfItsKeysInLogs() throws IOException {
    onUpdatedTable("half-logs", "MERGE_ON_READ", 50, (spark, table, layout) -> List.of(
        fullScan("(d50) full scan, snapshot, 50% of keys in logs", table),
        filteredAggregate("(e50) " + FILTERED_AGGREGATE + ", 50% of keys in logs", table)));
  }

  @Test
  void readTableWithSeveralLogFilesPerSlice() throws IOException {
    onUpdatedTable("many-logs", "MERGE_ON_READ", 10, (spark, table, layout) -> {
      for (int k = 0; k < 8; k++) {
        writeWithHudi(table, "upsert", Trips.generate(spark, 0, run.records, "pmod(hash(id, 9), 50) = " + k)
            .selectExpr(Trips.updated()));
      }
      TableLayout after = TableLayout.of(table);
      List<String> instants = after.writeInstants();
      String begin = instants.get(instants.size() - 5);
      String end = instants.get(instants.size() - 4);
      CommitFiles written = CommitFiles.of(table, end);
      System.out.printf("[bench] after 8 more delta commits: %s; delta commit %s wrote %s%n", after.describe(), end,
          written);
      return List.of(
          fullScan("(d8) full scan, snapshot, 10% of keys then 8 x 2% in logs (" + after.describe() + ")", table),
          filteredAggregate("(e8) " + FILTERED_AGGREGATE + ", 10% then 8 x 2% in logs", table),
          new ReadComparison("(f) incremental read of one delta commit of " + instants.size() + " (" + end + ", which "
              + written + "; the table's data files " + String.format(java.util.Locale.ROOT, "%.1f MB",
              (after.baseBytes() + after.logBytes()) / 1e6) + ")", Map.of(
              "Riverbed", s -> incremental(s, RIVERBED, table, begin, end),
              "Hudi", s -> incremental(s, HUDI, table, begin, end)), "Riverbed", "Hudi"));
    });
  }

  @Test
  void readCopyOnWriteTable() throws IOException {
    onUpdatedTable("cow", "COPY_ON_WRITE", 10, (spark, table, layout) -> {
      Map<String, Function<SparkSession, Dataset<Row>>> readers = Map.of(
          "Riverbed", s -> snapshot(s, RIVERBED, table),
          "Parquet", s -> parquet(s, layout),
          "Hudi", s -> snapshot(s, HUDI, table));
      return List.of(
          new ReadComparison("(g) COPY_ON_WRITE full scan, snapshot vs plain Parquet over the latest base files",
              readers, "Riverbed", "Parquet"),
          new ReadComparison("(h) COPY_ON_WRITE fare > 50 grouped by partition (count, sum and max of fare)",
              readers, "Riverbed", "Parquet", SparkStreamingShapesReadBenchmark::aggregateFares, rows -> rows, false));
    });
  }

  /**
   * One file group whose log updates every one of its keys; Riverbed reads it with the default
   * merge memory (Hudi's 1 GB) and with 8 MB, which the log's entries exceed, so they spill.
   */
  @Test
  void readSliceWhoseLogsExceedTheMergeMemory() throws IOException {
    long ids = run.records * Trips.PARTITIONS / 10;
    String onePartition = "pmod(id, " + Trips.PARTITIONS + ") = 0";
    run.onFreshTable("spill", "spark-read-spill", "spark-trips-mor-spill", (spark, report, table) -> {
      long t0 = System.nanoTime();
      writeWithHudi(table, "upsert", Trips.generate(spark, 0, ids, onePartition));
      writeWithHudi(table, "upsert", Trips.generate(spark, 0, ids, onePartition).selectExpr(Trips.updated()));
      TableLayout layout = TableLayout.of(table);
      report.format("- table written by Apache Hudi 0.15's Spark writer in %.1f s: an upsert of %d keys into one "
              + "partition, then an upsert updating every key; %s", (System.nanoTime() - t0) / 1e9, run.records / 10,
          layout.describe());
      report.format("- Riverbed reads it with Hudi's default hoodie.memory.merge.max.size (1 GB) and with %s bytes",
          SPILL_BUDGET_BYTES);
      Map<String, Function<SparkSession, Dataset<Row>>> readers = Map.of(
          "Riverbed", s -> snapshot(s, RIVERBED, table),
          "Riverbed, 8 MB merge memory", s -> read(s, RIVERBED, table, Map.of(
              "hoodie.datasource.query.type", "snapshot", "hoodie.memory.merge.max.size", SPILL_BUDGET_BYTES)),
          "Hudi", s -> snapshot(s, HUDI, table));
      run.compare(spark, List.of(new ReadComparison("(s) full scan of one slice whose log updates every key",
          readers, "Riverbed, 8 MB merge memory", "Riverbed").withLiveHeapProbe()), report, t0);
    });
  }

  /** Builds a table's comparisons once it is written. */
  @FunctionalInterface
  private interface Comparisons {
    List<ReadComparison> of(SparkSession spark, Path table, TableLayout layout) throws IOException;
  }

  /**
   * A table written by Hudi's upsert of {@code bench.records} keys, then {@code percent}% of them,
   * spread uniformly, updated; fails unless every file group then has a log (MERGE_ON_READ) or a
   * second base file (COPY_ON_WRITE).
   */
  private void onUpdatedTable(String key, String tableType, int percent, Comparisons comparisons) throws IOException {
    String suffix = tableType.equals("COPY_ON_WRITE") ? "cow" : "mor";
    run.onFreshTable(key, "spark-read-" + key, "spark-trips-" + suffix + "-" + key, (spark, report, table) -> {
      Dataset<Row> updates = Trips.generate(spark, 0, run.records, "pmod(hash(id, 8), 100) < " + percent)
          .selectExpr(Trips.updated());
      long updated = updates.count();
      long t0 = System.nanoTime();
      writeWithHudi(table, tableType, "upsert", Trips.generate(spark, 0, run.records, "true"), Map.of());
      long t1 = System.nanoTime();
      writeWithHudi(table, tableType, "upsert", updates, Map.of());
      long t2 = System.nanoTime();
      TableLayout layout = TableLayout.of(table);
      report.format("- %s table written by Apache Hudi 0.15's Spark writer: upsert %.1f s, upsert of %d updates "
              + "(%d%% of the keys, uniformly) %.1f s; %s", tableType, (t1 - t0) / 1e9, updated, percent,
          (t2 - t1) / 1e9, layout.describe());
      if (tableType.equals("MERGE_ON_READ") && layout.withLogs() != layout.fileGroups()) {
        throw new AssertionError("not every file group has a log: " + layout.describe());
      }
      List<ReadComparison> list = comparisons.of(spark, table, layout);
      run.compare(spark, list, report, t0);
    });
  }

  private static ReadComparison fullScan(String title, Path table) {
    return new ReadComparison(title, Map.of(
        "Riverbed", s -> snapshot(s, RIVERBED, table),
        "Hudi", s -> snapshot(s, HUDI, table)), "Riverbed", "Hudi");
  }

  private static ReadComparison filteredAggregate(String title, Path table) {
    return new ReadComparison(title, Map.of(
        "Riverbed", s -> snapshot(s, RIVERBED, table),
        "Hudi", s -> snapshot(s, HUDI, table)), "Riverbed", "Hudi",
        SparkStreamingShapesReadBenchmark::aggregateFares, rows -> rows, false);
  }

  private static Dataset<Row> aggregateFares(Dataset<Row> d) {
    return d.where("fare > 50").groupBy("region", "country", "city")
        .agg(functions.count("*").as("n"), functions.sum("fare"), functions.max("fare"));
  }

  /** The latest base files through Spark's own Parquet source, the partition columns as stored in them. */
  private static Dataset<Row> parquet(SparkSession spark, TableLayout layout) {
    return spark.read().parquet(layout.baseFiles().toArray(String[]::new));
  }

  /** The files one commit wrote, from its metadata: how many, how many bytes. */
  private record CommitFiles(int files, long bytes) {
    static CommitFiles of(Path table, String instant) throws IOException {
      Path metadata;
      try (var list = Files.list(table.resolve(".hoodie"))) {
        metadata = list.filter(f -> f.getFileName().toString().startsWith(instant + ".")
            && (f.toString().endsWith(".commit") || f.toString().endsWith(".deltacommit"))).findFirst()
            .orElseThrow(() -> new IOException("no completed commit " + instant + " in " + table));
      }
      JsonNode stats = new ObjectMapper().readTree(Files.readAllBytes(metadata)).path("partitionToWriteStats");
      List<JsonNode> all = new ArrayList<>();
      stats.elements().forEachRemaining(partition -> partition.elements().forEachRemaining(all::add));
      return new CommitFiles(all.size(), all.stream().mapToLong(s -> s.path("fileSizeInBytes").asLong()).sum());
    }

    @Override
    public String toString() {
      return String.format(java.util.Locale.ROOT, "wrote %d files, %.1f MB", files, bytes / 1e6);
    }
  }
}
