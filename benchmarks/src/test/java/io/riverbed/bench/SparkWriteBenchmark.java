package io.riverbed.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;

/**
 * Spark write benchmark: Riverbed's DataSource against Apache Hudi 0.15's, writing the same cached
 * trips-like rows with the same options, in one JVM and one SparkSession ({@code local[2]}).
 *
 * <p>Cases: bulk_insert and upsert of {@code bench.records} rows into a new table, and an upsert of
 * 10% of the keys (spread over every file group) plus 1% new keys into an existing table of
 * {@code bench.records} rows, each on COPY_ON_WRITE and MERGE_ON_READ. The existing table is written
 * once by Hudi with its defaults and copied for every write (the copy is not timed). Hudi runs with
 * its defaults, and, with {@code bench.spark.write.hudi.metadata_off}, a second time without its
 * metadata table (Riverbed never writes one). Each case runs once unrecorded at a tenth of the size,
 * then {@code bench.spark.write.rounds} recorded rounds, the writers alternating order. After every
 * write, the table is read back (Riverbed's reader) and its count and data checksum must equal the
 * expected rows', so no writer is timed doing less work than the others.
 */
class SparkWriteBenchmark {
  static final String RIVERBED = "Riverbed";
  static final String HUDI = "Hudi";
  static final String HUDI_NO_METADATA = "Hudi, metadata off";

  private final long records = Long.getLong("bench.records", 1_000_000L);
  private final int rounds = Integer.getInteger("bench.spark.write.rounds", 3);
  private final int parallelism = Integer.getInteger("bench.spark.write.parallelism", 4);
  private final boolean hudiMetadataOff = Boolean.parseBoolean(
      System.getProperty("bench.spark.write.hudi.metadata_off", "true"));
  private final Set<String> only = Arrays.stream(System.getProperty("bench.spark.write.cases", "").split(","))
      .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
  private final Path dir = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath();

  /** One writer: a DataSource class and the options it adds to the shared ones. */
  record Writer(String name, String source, Map<String, String> options) {}

  /** One kind of write: into a new table, or an upsert of changes into a copy of an existing one. */
  record Case(String id, String title, String tableType, String operation, boolean intoExisting) {}

  static final List<Case> CASES = List.of(
      new Case("bulk_insert-cow", "bulk_insert into a new COPY_ON_WRITE table", "COPY_ON_WRITE", "bulk_insert", false),
      new Case("bulk_insert-mor", "bulk_insert into a new MERGE_ON_READ table", "MERGE_ON_READ", "bulk_insert", false),
      new Case("upsert-new-cow", "upsert into a new COPY_ON_WRITE table (insert path)", "COPY_ON_WRITE", "upsert", false),
      new Case("upsert-new-mor", "upsert into a new MERGE_ON_READ table (insert path)", "MERGE_ON_READ", "upsert", false),
      new Case("upsert-10pct-cow", "upsert of 10% of the keys + 1% new keys into an existing COPY_ON_WRITE table",
          "COPY_ON_WRITE", "upsert", true),
      new Case("upsert-10pct-mor", "upsert of 10% of the keys + 1% new keys into an existing MERGE_ON_READ table",
          "MERGE_ON_READ", "upsert", true));

  /** What one writer did in one case over the recorded rounds. */
  static final class Measured {
    final Samples wall = new Samples("wall");
    final Samples cpu = new Samples("cpu");
    final Samples load = new Samples("load");
    long peakUsed;
    long peakAfterGc;
    String files = "";
  }

  @Test
  void writeTrips() throws IOException {
    Report report = new Report(dir, "spark-write");
    Path work = dir.resolve("spark-write");
    BenchFiles.deleteRecursively(work);
    List<Case> cases = CASES.stream().filter(c -> only.isEmpty() || only.contains(c.id())).toList();
    List<Writer> writers = new ArrayList<>(List.of(
        new Writer(RIVERBED, SparkReadRun.RIVERBED, Map.of()),
        new Writer(HUDI, SparkReadRun.HUDI, Map.of())));
    if (hudiMetadataOff) {
      writers.add(new Writer(HUDI_NO_METADATA, SparkReadRun.HUDI, Map.of("hoodie.metadata.enable", "false")));
    }
    Map<String, Map<String, Measured>> results = new LinkedHashMap<>();
    for (Case c : cases) {
      Map<String, Measured> byWriter = new LinkedHashMap<>();
      writers.forEach(w -> byWriter.put(w.name(), new Measured()));
      results.put(c.id(), byWriter);
    }
    List<String> mismatches = new ArrayList<>();
    long t0 = System.nanoTime();
    try (SparkSession spark = SparkReadRun.session(work.resolve("scratch"), "riverbed-bench-spark-write")) {
      report.format("- Spark %s, Apache Hudi 0.15.0 bundle, local[2], %d records, %d partitions "
              + "(region,country,city), shuffle parallelism %d, 1 warm-up round at %d records + %d recorded rounds",
          spark.version(), records, Trips.PARTITIONS, parallelism, records / 10, rounds);
      try (Workload warmUp = new Workload(spark, records / 10, work.resolve("warm-up"), cases)) {
        runRound(spark, warmUp, cases, writers, 0, null, mismatches);
      }
      try (Workload workload = new Workload(spark, records, work.resolve("recorded"), cases)) {
        report.format("- existing tables (written once by Hudi's defaults, bulk_insert): %s", workload.baseLayouts);
        report.format("- upsert into them: %d changes (%d updates: every tenth key, %d new keys)",
            workload.changeCount, workload.changeCount - records / 100, records / 100);
        for (int round = 0; round < rounds; round++) {
          runRound(spark, workload, cases, writers, round, results, mismatches);
        }
        for (Case c : cases) {
          report(report, c, c.intoExisting() ? workload.changeCount : records, results.get(c.id()));
        }
      }
    }
    report.line("");
    report.line(mismatches.isEmpty()
        ? "- results: after every write, every table held the expected rows (count and data checksum)"
        : "- MISMATCHES: " + mismatches);
    report.format("- whole run %.0f s", (System.nanoTime() - t0) / 1e9);
    report.line("- written to " + report.write());
    if (!mismatches.isEmpty()) {
      throw new AssertionError("writes disagree: " + mismatches);
    }
  }

  /** Every case once, the writers in alternating order; {@code results} null for the warm-up. */
  private void runRound(SparkSession spark, Workload workload, List<Case> cases, List<Writer> writers, int round,
      Map<String, Map<String, Measured>> results, List<String> mismatches) throws IOException {
    List<Writer> order = new ArrayList<>(writers);
    if (round % 2 == 1) {
      Collections.reverse(order);
    }
    String label = results == null ? "warm-up" : "round " + round;
    for (Case c : cases) {
      for (Writer w : order) {
        Path table = workload.root.resolve(c.id() + "-" + w.name().replaceAll("[^A-Za-z]+", "-").toLowerCase(Locale.ROOT));
        BenchFiles.deleteRecursively(table);
        if (c.intoExisting()) {
          copy(workload.baseTables.get(c.tableType()), table);
        }
        Dataset<Row> input = c.intoExisting() ? workload.changes : workload.rows;
        long cpuStart;
        long start;
        double seconds;
        double cpuSeconds;
        try (HeapWatcher heap = HeapWatcher.start()) {
          cpuStart = ProcessCpu.nanos();
          start = System.nanoTime();
          write(input, table, w, c.tableType(), c.operation());
          seconds = (System.nanoTime() - start) / 1e9;
          cpuSeconds = (ProcessCpu.nanos() - cpuStart) / 1e9;
          if (results != null) {
            Measured m = results.get(c.id()).get(w.name());
            m.wall.add(seconds);
            m.cpu.add(cpuSeconds);
            m.load.add(Report.loadAverage());
            m.peakUsed = Math.max(m.peakUsed, heap.peakUsedBytes());
            m.peakAfterGc = Math.max(m.peakAfterGc, heap.peakAfterGcBytes());
            m.files = files(table);
          }
        }
        Row expected = c.intoExisting() ? workload.expectedAfterUpsert : workload.expectedNew;
        Row actual = contents(SparkReadRun.snapshot(spark, SparkReadRun.RIVERBED, table));
        System.out.printf(Locale.ROOT, "[bench] %s | %s | %s | wall %.1f s | cpu %.1f s | load %.1f | %s (expected %s)%n",
            label, c.id(), w.name(), seconds, cpuSeconds, Report.loadAverage(), actual, expected);
        if (!actual.equals(expected)) {
          mismatches.add(label + " " + c.id() + " " + w.name() + ": " + actual + ", expected " + expected);
        }
      }
    }
  }

  private void write(Dataset<Row> rows, Path table, Writer writer, String tableType, String operation) {
    Map<String, String> o = new LinkedHashMap<>(Trips.writeOptions(tableType, operation));
    for (String op : List.of("bulkinsert", "insert", "upsert")) {
      o.put("hoodie." + op + ".shuffle.parallelism", Integer.toString(parallelism));
    }
    o.putAll(writer.options());
    rows.write().format(writer.source()).options(o).mode(SaveMode.Append).save(table.toUri().toString());
  }

  private static Row contents(Dataset<Row> rows) {
    return rows.selectExpr("count(*) AS n", "sum(hash(" + Trips.DATA_COLUMNS + ")) AS data_hash").collectAsList().get(0);
  }

  private void report(Report report, Case c, long rows, Map<String, Measured> byWriter) {
    report.line("");
    report.line("### " + c.title() + " (`" + c.id() + "`)");
    report.line("");
    report.format("%d rows written per run", rows);
    report.line("");
    report.line("| writer | wall s: median | min–max | rows/s | process CPU s: median | min–max "
        + "| load at the end of the write: min–max | heap peak used MB | peak after GC MB | files after the write |");
    report.line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    byWriter.forEach((name, m) -> report.format(
        "| %s | %.1f | %.1f–%.1f | %,.0f | %.1f | %.1f–%.1f | %.1f–%.1f | %d | %d | %s |",
        name, m.wall.median(), m.wall.min(), m.wall.max(), rows / m.wall.median(), m.cpu.median(), m.cpu.min(),
        m.cpu.max(), m.load.min(), m.load.max(), m.peakUsed >> 20, m.peakAfterGc >> 20, m.files));
    report.line("");
    Measured ours = byWriter.get(RIVERBED);
    for (var e : byWriter.entrySet()) {
      if (e.getKey().equals(RIVERBED)) {
        continue;
      }
      Samples pairedWall = Samples.ratios("wall", ours.wall, e.getValue().wall);
      Samples pairedCpu = Samples.ratios("cpu", ours.cpu, e.getValue().cpu);
      report.format("- Riverbed/%s time: wall **%.2f** (speed-up %.2fx; per-round %.2f, range %.2f–%.2f); CPU **%.2f** "
              + "(per-round %.2f, range %.2f–%.2f)", e.getKey(), ours.wall.median() / e.getValue().wall.median(),
          e.getValue().wall.median() / ours.wall.median(), pairedWall.median(), pairedWall.min(), pairedWall.max(),
          ours.cpu.median() / e.getValue().cpu.median(), pairedCpu.median(), pairedCpu.min(), pairedCpu.max());
    }
  }

  /** The table's data files (not .hoodie, not checksum side files): counts and size. */
  private static String files(Path table) throws IOException {
    long base = 0;
    long logs = 0;
    long bytes = 0;
    try (Stream<Path> walk = Files.walk(table)) {
      for (Path f : walk.filter(Files::isRegularFile).filter(f -> !table.relativize(f).startsWith(".hoodie")).toList()) {
        String name = f.getFileName().toString();
        if (name.endsWith(".parquet")) {
          base++;
        } else if (name.startsWith(".") && name.contains(".log.") && !name.endsWith(".crc")) {
          logs++;
        } else {
          continue;
        }
        bytes += Files.size(f);
      }
    }
    return String.format(Locale.ROOT, "%d base, %d log, %.0f MB", base, logs, bytes / 1e6);
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path f : walk.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
  }

  /**
   * The rows of one size, cached (so their generation is not timed): a new table's rows, the
   * changes of the upsert into an existing table, that table per table type, and the count and
   * data checksum every table must hold after each kind of write.
   */
  private final class Workload implements AutoCloseable {
    final Path root;
    final Dataset<Row> rows;
    final Dataset<Row> changes;
    final long changeCount;
    final Row expectedNew;
    final Row expectedAfterUpsert;
    final Map<String, Path> baseTables = new LinkedHashMap<>();
    final Map<String, String> baseLayouts = new LinkedHashMap<>();

    Workload(SparkSession spark, long size, Path root, List<Case> cases) throws IOException {
      this.root = root;
      long newKeys = size / 100;
      rows = Trips.generate(spark, 0, size, "true").persist(StorageLevel.MEMORY_ONLY());
      Dataset<Row> updates = Trips.generate(spark, 0, size, "pmod(id, 10) = 0").selectExpr(Trips.updated());
      // in the table's column types: Spark widens the decimal of fare + 1.0, which Riverbed refuses
      Column[] tableTypes = Arrays.stream(rows.schema().fields())
          .map(f -> updates.col(f.name()).cast(f.dataType()).as(f.name())).toArray(Column[]::new);
      changes = updates.select(tableTypes).union(Trips.generate(spark, size, size + newKeys, "true"))
          .persist(StorageLevel.MEMORY_ONLY());
      changeCount = changes.count();
      expectedNew = contents(rows);
      expectedAfterUpsert = contents(Trips.generate(spark, 0, size, "pmod(id, 10) <> 0").union(changes));
      Writer hudi = new Writer(HUDI, SparkReadRun.HUDI, Map.of());
      for (String type : cases.stream().filter(Case::intoExisting).map(Case::tableType).distinct().toList()) {
        Path base = root.resolve("existing-" + type.toLowerCase(Locale.ROOT));
        write(rows, base, hudi, type, "bulk_insert");
        baseTables.put(type, base);
        baseLayouts.put(type, files(base));
      }
    }

    @Override
    public void close() {
      rows.unpersist(true);
      changes.unpersist(true);
    }
  }
}
