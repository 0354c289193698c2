package io.riverbed.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Assumptions;
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
 * checksum doubles as a check that the readers agree.
 *
 * <p>A second table has the shape streaming produces between compactions: {@code bench.records}
 * records written by Hudi's upsert, then 10% of the keys (spread uniformly) updated, so every
 * file group carries a log. There a full scan and a filtered two-column aggregate are timed, the
 * table opened afresh by every query. {@code bench.spark.read.tables} picks the tables
 * ({@code some-logs}, {@code all-logs}; both by default).
 */
class SparkReadBenchmark {
  static final String RIVERBED = "io.riverbed.spark.HudiDataSource";
  static final String HUDI = "org.apache.hudi.DefaultSource";


  static final String META_COLUMNS = "_hoodie_commit_time, _hoodie_commit_seqno, _hoodie_record_key, "
      + "_hoodie_partition_path, _hoodie_file_name";
  static final String[] AGGREGATES = {"count(*) AS n", "sum(hash(" + Trips.DATA_COLUMNS + ")) AS data_hash",
      "sum(hash(" + META_COLUMNS + ")) AS meta_hash"};

  private final long records = Long.getLong("bench.records", 1_000_000L);
  private final int rounds = Integer.getInteger("bench.rounds", 5);
  private final int warmups = Integer.getInteger("bench.warmups", 1);
  private final Path dir = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath();
  private final List<String> tables = List.of(System.getProperty("bench.spark.read.tables", "some-logs,all-logs")
      .split(","));

  @Test
  void readTripsTable() throws IOException {
    onFreshTable("some-logs", "spark-read", "spark-trips-mor", (spark, report, table) -> {
      long t0 = System.nanoTime();
      write(spark, table, "bulk_insert", Trips.generate(spark, 0, records, "true"));
      long t1 = System.nanoTime();
      write(spark, table, "upsert", Trips.generate(spark, 0, records, "pmod(id, 48) % 5 = 0 AND pmod(id div 48, 2) = 0")
          .selectExpr(Trips.updated()));
      long t2 = System.nanoTime();
      Layout layout = Layout.of(table);
      report.format("- table written by Apache Hudi 0.15's Spark writer: bulk_insert %.1f s, upsert (%d records) %.1f s; "
              + "%d file groups, %d with log files (%.0f%%), %d base files (%.1f MB), %d log files (%.1f MB)",
          (t1 - t0) / 1e9, updateCount(), (t2 - t1) / 1e9, layout.fileGroups(), layout.withLogs(),
          100.0 * layout.withLogs() / layout.fileGroups(), layout.baseFiles().size(), layout.baseBytes() / 1e6,
          layout.logFiles(), layout.logBytes() / 1e6);

      String updatedPartition = "region = 'americas' AND country = 'country_1' AND city = 'city_1'"; // p = 5
      long tsLow = Trips.TS0 + records * 400;
      long tsHigh = Trips.TS0 + records * 420;
      List<Comparison> comparisons = List.of(
          new Comparison("(a) full scan, snapshot", Map.of(
              "Riverbed", s -> snapshot(s, RIVERBED, table),
              "Hudi", s -> snapshot(s, HUDI, table)), "Riverbed", "Hudi"),
          new Comparison("(b1) one partition with logs + fare > 50, snapshot", Map.of(
              "Riverbed", s -> snapshot(s, RIVERBED, table).where(updatedPartition + " AND fare > 50"),
              "Hudi", s -> snapshot(s, HUDI, table).where(updatedPartition + " AND fare > 50")), "Riverbed", "Hudi"),
          new Comparison("(b2) ts range (2% of keys), snapshot", Map.of(
              "Riverbed", s -> snapshot(s, RIVERBED, table).where("ts BETWEEN " + tsLow + " AND " + tsHigh),
              "Hudi", s -> snapshot(s, HUDI, table).where("ts BETWEEN " + tsLow + " AND " + tsHigh)), "Riverbed", "Hudi"),
          new Comparison("(c) base files only: read_optimized vs plain Parquet", Map.of(
              "Riverbed", s -> readOptimized(s, RIVERBED, table),
              "Parquet", s -> s.read().parquet(layout.baseFiles().toArray(String[]::new)),
              "Hudi", s -> readOptimized(s, HUDI, table)), "Riverbed", "Parquet"));

      run(spark, comparisons, report, t0);
    });
  }

  /** A benchmark's body, given its session, report and (empty) table folder. */
  @FunctionalInterface
  interface TableRun {
    void run(SparkSession spark, Report report, Path table) throws IOException;
  }

  /** Runs {@code body} in a fresh session on an emptied table folder, if {@code bench.spark.read.tables} names {@code key}. */
  private void onFreshTable(String key, String reportName, String tableName, TableRun body) throws IOException {
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

  /**
   * Runs the comparisons round by round, reports them and fails if readers disagreed. Rounds
   * outside, queries inside: load from other processes drifts, so every query and reader should
   * see the same stretch of it.
   */
  private void run(SparkSession spark, List<Comparison> comparisons, Report report, long t0) throws IOException {
    List<String> mismatches = new ArrayList<>();
    for (int round = 0; round < warmups + rounds; round++) {
      for (Comparison c : comparisons) {
        c.runRound(spark, round, warmups, mismatches);
      }
    }
    for (Comparison c : comparisons) {
      c.report(report);
    }
    report.line("");
    report.line(mismatches.isEmpty() ? "- results: every reader returned the same rows (what each query compares) in every run"
        : "- MISMATCHES: " + mismatches);
    report.format("- whole run %.0f s", (System.nanoTime() - t0) / 1e9);
    report.line("- written to " + report.write());
    if (!mismatches.isEmpty()) {
      throw new AssertionError("readers disagree: " + mismatches);
    }
  }

  /**
   * The table streaming leaves between compactions: written by Hudi's upsert, then 10% of its keys
   * (uniformly) updated, so every file group has a log; a full scan and the filtered aggregate,
   * the table opened afresh by every query.
   */
  @Test
  void readTableWithLogsInEveryFileGroup() throws IOException {
    onFreshTable("all-logs", "spark-read-all-logs", "spark-trips-mor-all-logs", (spark, report, table) -> {
      Dataset<Row> updates = Trips.generate(spark, 0, records, "pmod(hash(id, 8), 10) = 0").selectExpr(Trips.updated());
      long updated = updates.count();
      long t0 = System.nanoTime();
      write(spark, table, "upsert", Trips.generate(spark, 0, records, "true"));
      long t2 = System.nanoTime();
      write(spark, table, "upsert", updates);
      long t3 = System.nanoTime();
      Layout layout = Layout.of(table);
      report.format("- table written by Apache Hudi 0.15's Spark writer: upsert %.1f s, upsert of %d updates (10%% of the "
              + "keys, uniformly) %.1f s; %d file groups, %d with log files (%.0f%%), %d base files (%.1f MB), %d log files (%.1f MB)",
          (t2 - t0) / 1e9, updated, (t3 - t2) / 1e9, layout.fileGroups(), layout.withLogs(),
          100.0 * layout.withLogs() / layout.fileGroups(), layout.baseFiles().size(), layout.baseBytes() / 1e6,
          layout.logFiles(), layout.logBytes() / 1e6);
      if (layout.withLogs() != layout.fileGroups()) {
        throw new AssertionError("not every file group has a log: " + layout);
      }
      Map<String, Function<SparkSession, Dataset<Row>>> readers = Map.of(
          "Riverbed", s -> snapshot(s, RIVERBED, table),
          "Hudi", s -> snapshot(s, HUDI, table));
      List<Comparison> comparisons = List.of(
          new Comparison("(d) full scan, snapshot, logs in every file group", readers, "Riverbed", "Hudi"),
          new Comparison("(e) fare > 50 grouped by partition (count, sum and max of fare), snapshot, logs in every file group",
              readers, "Riverbed", "Hudi",
              d -> d.where("fare > 50").groupBy("region", "country", "city")
                  .agg(functions.count("*").as("n"), functions.sum("fare"), functions.max("fare")),
              rows -> rows));
      run(spark, comparisons, report, t0);
    });
  }

  /**
   * One query through several readers, timed (wall and process CPU) in alternating order; the
   * query's rows are collected, and {@code agreed} picks what of them every reader must return
   * alike.
   */
  record Comparison(String title, Map<String, Function<SparkSession, Dataset<Row>>> readers, String subject,
      String baseline, Function<Dataset<Row>, Dataset<Row>> query, Function<List<Row>, Object> agreed,
      Map<String, Samples> wall, Map<String, Samples> cpu, Map<String, List<Row>> results,
      Map<String, Integer> partitions) {

    /** The all-column checksum aggregate; count and data checksum must agree. */
    Comparison(String title, Map<String, Function<SparkSession, Dataset<Row>>> readers, String subject, String baseline) {
      this(title, readers, subject, baseline, d -> d.selectExpr(AGGREGATES),
          rows -> List.of(rows.get(0).get(0), rows.get(0).get(1)));
    }

    Comparison(String title, Map<String, Function<SparkSession, Dataset<Row>>> readers, String subject, String baseline,
        Function<Dataset<Row>, Dataset<Row>> query, Function<List<Row>, Object> agreed) {
      this(title, new TreeMap<>(readers), subject, baseline, query, agreed, new LinkedHashMap<>(), new LinkedHashMap<>(),
          new LinkedHashMap<>(), new TreeMap<>());
      for (String name : this.readers.keySet()) {
        wall.put(name, new Samples(name));
        cpu.put(name, new Samples(name));
      }
    }

    void runRound(SparkSession spark, int round, int warmups, List<String> mismatches) {
      if (round == 0) {
        readers.forEach((name, reader) -> partitions.put(name, reader.apply(spark).rdd().getNumPartitions()));
      }
      List<String> order = new ArrayList<>(readers.keySet());
      if (round % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      for (String name : order) {
        System.gc();
        long cpuStart = ProcessCpu.nanos();
        long start = System.nanoTime();
        List<Row> rows = query.apply(readers.get(name).apply(spark)).collectAsList();
        double ms = (System.nanoTime() - start) / 1e6;
        double cpuMs = (ProcessCpu.nanos() - cpuStart) / 1e6;
        rows = rows.stream().sorted(Comparator.comparing(Row::toString)).toList();
        System.out.printf(Locale.ROOT, "[bench] round %d%s | %s | %s | wall %.0f ms | cpu %.0f ms | %s%n", round,
            round < warmups ? " (warm-up)" : "", title, name, ms, cpuMs, rows.size() == 1 ? rows.get(0) : rows.size() + " rows");
        if (round >= warmups) {
          wall.get(name).add(ms);
          cpu.get(name).add(cpuMs);
        }
        List<Row> first = results.putIfAbsent(name, rows);
        List<Row> reference = results.values().iterator().next();
        if (!agreed.apply(rows).equals(agreed.apply(reference)) || (first != null && !first.equals(rows))) {
          mismatches.add(title + ": " + name + " " + rows + " vs " + reference);
        }
      }
    }

    void report(Report report) {
      report.line("");
      report.line("### " + title);
      report.line("");
      List<Row> r = results.get(subject);
      report.format("rows: %s; Spark input partitions: %s",
          r.size() == 1 && r.get(0).schema().fieldNames()[0].equals("n") ? r.get(0).getLong(0) : r.size() + " groups",
          partitions);
      report.line("");
      report.line("| reader | wall ms: median | min–max | spread | process CPU ms: median | min–max | spread |");
      report.line("|---|---:|---:|---:|---:|---:|---:|");
      for (String name : wall.keySet()) {
        Samples w = wall.get(name);
        Samples c = cpu.get(name);
        report.format("| %s | %.0f | %.0f–%.0f | %.0f%% | %.0f | %.0f–%.0f | %.0f%% |", name, w.median(), w.min(), w.max(),
            w.spread() * 100, c.median(), c.min(), c.max(), c.spread() * 100);
      }
      report.line("");
      for (String other : wall.keySet()) {
        if (other.equals(subject)) {
          continue;
        }
        Samples pairedWall = Samples.ratios("wall", wall.get(subject), wall.get(other));
        Samples pairedCpu = Samples.ratios("cpu", cpu.get(subject), cpu.get(other));
        report.format("- %s/%s%s: wall **%.2f** (ratio of medians; per-round ratios median %.2f, range %.2f–%.2f); "
                + "CPU **%.2f** (per-round median %.2f, range %.2f–%.2f)", subject, other,
            other.equals(baseline) ? "" : " (context)",
            wall.get(subject).median() / wall.get(other).median(), pairedWall.median(), pairedWall.min(), pairedWall.max(),
            cpu.get(subject).median() / cpu.get(other).median(), pairedCpu.median(), pairedCpu.min(), pairedCpu.max());
      }
      List<Row> theirs = results.get(baseline);
      if (!r.equals(theirs)) {
        report.format("- note: results differ from %s beyond what must agree (%s vs %s)", baseline, r, theirs);
      }
    }
  }

  static Dataset<Row> snapshot(SparkSession spark, String source, Path table) {
    return spark.read().format(source)
        .option("hoodie.datasource.query.type", "snapshot")
        .option("hoodie.metadata.enable", "false")
        .load(table.toUri().toString());
  }

  static Dataset<Row> readOptimized(SparkSession spark, String source, Path table) {
    return spark.read().format(source)
        .option("hoodie.datasource.query.type", "read_optimized")
        .option("hoodie.metadata.enable", "false")
        .load(table.toUri().toString());
  }

  private long updateCount() {
    long n = 0;
    for (long id = 0; id < records; id++) {
      if ((id % 48) % 5 == 0 && (id / 48) % 2 == 0) {
        n++;
      }
    }
    return n;
  }

  private static void write(SparkSession spark, Path table, String operation, Dataset<Row> rows) {
    Map<String, String> o = new LinkedHashMap<>(Trips.writeOptions("MERGE_ON_READ", operation));
    o.put("hoodie.metadata.enable", "false");
    o.put("hoodie.compact.inline", "false");
    o.put("hoodie.datasource.compaction.async.enable", "false");
    o.put("hoodie.embed.timeline.server", "false");
    // one file group per partition: each partition path goes to one task
    o.put("hoodie.bulkinsert.sort.mode", "PARTITION_PATH_REPARTITION_AND_SORT");
    o.put("hoodie.bulkinsert.shuffle.parallelism", "2");
    o.put("hoodie.upsert.shuffle.parallelism", "2");
    rows.write().format(HUDI).options(o).mode(SaveMode.Append).save(table.toUri().toString());
  }

  /** The table's files as listed (no compaction ran, so every base file is its file group's latest). */
  record Layout(int fileGroups, int withLogs, List<String> baseFiles, long baseBytes, int logFiles, long logBytes) {
    static Layout of(Path table) throws IOException {
      Map<String, Path> baseByGroup = new TreeMap<>();
      Map<String, Integer> logsByGroup = new TreeMap<>();
      long baseBytes = 0;
      long logBytes = 0;
      int logs = 0;
      try (Stream<Path> files = Files.walk(table)) {
        for (Path f : files.filter(Files::isRegularFile).filter(f -> !table.relativize(f).startsWith(".hoodie"))
            .filter(f -> !f.getFileName().toString().endsWith(".crc")).toList()) {
          String name = f.getFileName().toString();
          String group = table.relativize(f.getParent()) + "/";
          if (name.endsWith(".parquet")) {
            String fileId = name.substring(0, name.indexOf('_'));
            Path previous = baseByGroup.put(group + fileId, f);
            if (previous != null) {
              throw new IllegalStateException("two base files in file group " + fileId + ": " + previous + ", " + f);
            }
            baseBytes += Files.size(f);
          } else if (name.startsWith(".") && name.contains(".log.")) {
            String fileId = name.substring(1, name.indexOf('_'));
            logsByGroup.merge(group + fileId, 1, Integer::sum);
            logBytes += Files.size(f);
            logs++;
          }
        }
      }
      List<String> bases = baseByGroup.values().stream().sorted(Comparator.naturalOrder())
          .map(p -> p.toUri().toString()).toList();
      return new Layout(baseByGroup.size(), logsByGroup.size(), bases, baseBytes, logs, logBytes);
    }
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
