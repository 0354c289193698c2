package io.riverbed.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Assumptions;

/**
 * What every Spark read benchmark shares: its knobs ({@code bench.records}, {@code bench.rounds},
 * {@code bench.warmups}, {@code bench.spark.read.tables}), a fresh session and table folder per
 * table, the table written by Apache Hudi 0.15's own Spark writer, and the readers by class name.
 */
final class SparkReadRun {
  static final String RIVERBED = "io.riverbed.spark.HudiDataSource";
  static final String HUDI = "org.apache.hudi.DefaultSource";

  final long records = Long.getLong("bench.records", 1_000_000L);
  final int rounds = Integer.getInteger("bench.rounds", 5);
  final int warmups = Integer.getInteger("bench.warmups", 1);
  private final Path dir = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath();
  private final List<String> tables = List.of(System.getProperty("bench.spark.read.tables",
      "some-logs,all-logs,half-logs,many-logs,cow,spill").split(","));

  /** A benchmark's body, given its session, report and (empty) table folder. */
  @FunctionalInterface
  interface TableRun {
    void run(SparkSession spark, Report report, Path table) throws IOException;
  }

  /** Runs {@code body} in a fresh session on an emptied table folder, if {@code bench.spark.read.tables} names {@code key}. */
  void onFreshTable(String key, String reportName, String tableName, TableRun body) throws IOException {
    Assumptions.assumeTrue(tables.contains(key), "bench.spark.read.tables excludes " + key);
    Report report = new Report(dir, reportName);
    Path table = dir.resolve(tableName);
    BenchFiles.deleteRecursively(table);
    try (SparkSession spark = session(dir.resolve("spark-scratch"), "riverbed-bench-" + reportName)) {
      report.format("- Spark %s, Apache Hudi 0.15.0 bundle, local[2], %d records, %d partitions, %d warm-up + %d recorded rounds",
          spark.version(), records, Trips.PARTITIONS, warmups, rounds);
      body.run(spark, report, table);
    }
  }

  void compare(SparkSession spark, List<ReadComparison> comparisons, Report report, long t0) {
    ReadComparison.runAll(spark, comparisons, warmups, rounds, report, t0);
  }

  /**
   * Writes {@code rows} with Hudi 0.15's writer: no compaction, clustering or metadata table, and
   * one task per partition path, so every partition holds as few file groups as its size needs.
   */
  static void writeWithHudi(Path table, String tableType, String operation, Dataset<Row> rows,
      Map<String, String> extra) {
    Map<String, String> o = new LinkedHashMap<>(Trips.writeOptions(tableType, operation));
    o.put("hoodie.metadata.enable", "false");
    o.put("hoodie.compact.inline", "false");
    o.put("hoodie.datasource.compaction.async.enable", "false");
    o.put("hoodie.embed.timeline.server", "false");
    o.put("hoodie.bulkinsert.sort.mode", "PARTITION_PATH_REPARTITION_AND_SORT");
    o.put("hoodie.bulkinsert.shuffle.parallelism", "2");
    o.put("hoodie.upsert.shuffle.parallelism", "2");
    o.putAll(extra);
    rows.write().format(HUDI).options(o).mode(SaveMode.Append).save(table.toUri().toString());
  }

  static void writeWithHudi(Path table, String operation, Dataset<Row> rows) {
    writeWithHudi(table, "MERGE_ON_READ", operation, rows, Map.of());
  }

  static Dataset<Row> snapshot(SparkSession spark, String source, Path table) {
    return read(spark, source, table, Map.of("hoodie.datasource.query.type", "snapshot"));
  }

  static Dataset<Row> readOptimized(SparkSession spark, String source, Path table) {
    return read(spark, source, table, Map.of("hoodie.datasource.query.type", "read_optimized"));
  }

  /** The changes of the commits in {@code (begin, end]}. */
  static Dataset<Row> incremental(SparkSession spark, String source, Path table, String begin, String end) {
    return read(spark, source, table, Map.of("hoodie.datasource.query.type", "incremental",
        "hoodie.datasource.read.begin.instanttime", begin, "hoodie.datasource.read.end.instanttime", end));
  }

  static Dataset<Row> read(SparkSession spark, String source, Path table, Map<String, String> options) {
    return spark.read().format(source)
        .option("hoodie.metadata.enable", "false")
        .options(options)
        .load(table.toUri().toString());
  }

  /** A local[2] session with Hudi's recommended settings (Kryo with its registrar, its SQL extension), scratch dirs under {@code scratch}. */
  static SparkSession session(Path scratch, String appName) {
    return SparkSession.builder()
        .appName(appName)
        .master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.default.parallelism", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
        .config("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
        .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
        .config("spark.sql.warehouse.dir", scratch.resolve("warehouse").toString())
        .config("spark.local.dir", scratch.resolve("local").toString())
        .config("spark.sql.sources.parallelPartitionDiscovery.parallelism", "2")
        .config("spark.hadoop.hadoop.tmp.dir", scratch.resolve("hadoop").toString())
        .getOrCreate();
  }
}
