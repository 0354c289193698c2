package io.riverbed.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One query through several readers, timed (wall and process CPU) in alternating order, with the
 * bytes each read from the local file system; the query's rows are collected, and {@code agreed}
 * picks what of them every reader must return alike. With {@code probeLiveHeap} each reader also
 * runs the query once more, untimed, while a full collection is forced 250 ms after the last one, and the largest
 * heap left after one is reported as its live heap high-water mark.
 */
record ReadComparison(String title, Map<String, Function<SparkSession, Dataset<Row>>> readers, String subject,
    String baseline, Function<Dataset<Row>, Dataset<Row>> query, Function<List<Row>, Object> agreed,
    boolean probeLiveHeap, Map<String, Samples> wall, Map<String, Samples> cpu, Map<String, Samples> bytesRead,
    Map<String, Double> liveHeapMb, Map<String, List<Row>> results, Map<String, Integer> partitions) {

  private static final long PROBE_PAUSE_MILLIS = 250;
  /** The probe's entry for the heap with no query running: the floor every reader's figure includes. */
  private static final String AT_REST = "(no query: the session at rest)";

  static final String META_COLUMNS = "_hoodie_commit_time, _hoodie_commit_seqno, _hoodie_record_key, "
      + "_hoodie_partition_path, _hoodie_file_name";
  static final String[] AGGREGATES = {"count(*) AS n", "sum(hash(" + Trips.DATA_COLUMNS + ")) AS data_hash",
      "sum(hash(" + META_COLUMNS + ")) AS meta_hash"};

  /** The all-column checksum aggregate; count and data checksum must agree. */
  ReadComparison(String title, Map<String, Function<SparkSession, Dataset<Row>>> readers, String subject,
      String baseline) {
    this(title, readers, subject, baseline, d -> d.selectExpr(AGGREGATES),
        rows -> List.of(rows.get(0).get(0), rows.get(0).get(1)), false);
  }

  ReadComparison(String title, Map<String, Function<SparkSession, Dataset<Row>>> readers, String subject,
      String baseline, Function<Dataset<Row>, Dataset<Row>> query, Function<List<Row>, Object> agreed,
      boolean probeLiveHeap) {
    this(title, new TreeMap<>(readers), subject, baseline, query, agreed, probeLiveHeap, new LinkedHashMap<>(),
        new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), new TreeMap<>());
    for (String name : this.readers.keySet()) {
      wall.put(name, new Samples(name));
      cpu.put(name, new Samples(name));
      bytesRead.put(name, new Samples(name));
    }
  }

  /** The same comparison with the live heap of every reader probed after the timed rounds. */
  ReadComparison withLiveHeapProbe() {
    return new ReadComparison(title, readers, subject, baseline, query, agreed, true);
  }

  /**
   * Runs the comparisons round by round, reports them and fails if readers disagreed. Rounds
   * outside, queries inside: load from other processes drifts, so every query and reader should
   * see the same stretch of it.
   */
  static void runAll(SparkSession spark, List<ReadComparison> comparisons, int warmups, int rounds, Report report,
      long t0) {
    List<String> mismatches = new ArrayList<>();
    for (int round = 0; round < warmups + rounds; round++) {
      for (ReadComparison c : comparisons) {
        c.runRound(spark, round, warmups, mismatches);
      }
    }
    for (ReadComparison c : comparisons) {
      if (c.probeLiveHeap()) {
        c.probe(spark);
      }
      c.report(report);
    }
    report.line("");
    report.line(mismatches.isEmpty()
        ? "- results: every reader returned the same rows (what each query compares) in every run"
        : "- MISMATCHES: " + mismatches);
    report.format("- whole run %.0f s", (System.nanoTime() - t0) / 1e9);
    report.line("- written to " + report.write());
    if (!mismatches.isEmpty()) {
      throw new AssertionError("readers disagree: " + mismatches);
    }
  }

  void runRound(SparkSession spark, int round, int warmups, List<String> mismatches) {
    if (round == 0) {
      readers.forEach((name, reader) -> partitions.put(name, reader.apply(spark).rdd().getNumPartitions()));
    }
    List<String> order = new ArrayList<>(readers.keySet());
    if (round % 2 == 1) {
      Collections.reverse(order);
    }
    for (String name : order) {
      System.gc();
      long bytesStart = localBytesRead();
      long cpuStart = ProcessCpu.nanos();
      long start = System.nanoTime();
      List<Row> rows = query.apply(readers.get(name).apply(spark)).collectAsList();
      double ms = (System.nanoTime() - start) / 1e6;
      double cpuMs = (ProcessCpu.nanos() - cpuStart) / 1e6;
      long bytes = localBytesRead() - bytesStart;
      rows = rows.stream().sorted(Comparator.comparing(Row::toString)).toList();
      System.out.printf(Locale.ROOT, "[bench] round %d%s | %s | %s | wall %.0f ms | cpu %.0f ms | %.1f MB read | %s%n",
          round, round < warmups ? " (warm-up)" : "", title, name, ms, cpuMs, bytes / 1e6,
          rows.size() == 1 ? rows.get(0) : rows.size() + " rows");
      if (round >= warmups) {
        wall.get(name).add(ms);
        cpu.get(name).add(cpuMs);
        bytesRead.get(name).add(bytes);
      }
      List<Row> first = results.putIfAbsent(name, rows);
      List<Row> reference = results.values().iterator().next();
      if (!agreed.apply(rows).equals(agreed.apply(reference)) || (first != null && !first.equals(rows))) {
        mismatches.add(title + ": " + name + " " + rows + " vs " + reference);
      }
    }
  }

  /** Each reader once more, untimed, with full collections 250 ms apart: the largest heap left after one. */
  private void probe(SparkSession spark) {
    liveHeapMb.put(AT_REST, HeapWatcher.usedAfterFullCollection() / 1e6);
    for (var e : readers.entrySet()) {
      try (HeapWatcher heap = HeapWatcher.startForcingCollections(PROBE_PAUSE_MILLIS)) {
        query.apply(e.getValue().apply(spark)).collectAsList();
        // no collection fell inside a query shorter than the pause: nothing measured
        liveHeapMb.put(e.getKey(), heap.peakAfterGcBytes() == 0 ? Double.NaN : heap.peakAfterGcBytes() / 1e6);
      }
      System.out.printf(Locale.ROOT, "[bench] live heap probe | %s | %s | %.0f MB%n", title, e.getKey(),
          liveHeapMb.get(e.getKey()));
    }
  }

  /**
   * Bytes read from {@code file:} paths by every thread of this JVM so far: the sum of Hadoop's
   * per-class statistics for the scheme (the raw local file system's streams count the reads).
   */
  @SuppressWarnings("deprecation")
  static long localBytesRead() {
    return FileSystem.getAllStatistics().stream().filter(s -> "file".equals(s.getScheme()))
        .mapToLong(FileSystem.Statistics::getBytesRead).sum();
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
    report.line("| reader | wall ms: median | min–max | spread | process CPU ms: median | min–max | spread | MB read |"
        + (liveHeapMb.isEmpty() ? "" : " live heap high-water MB |"));
    report.line("|---|---:|---:|---:|---:|---:|---:|---:|" + (liveHeapMb.isEmpty() ? "" : "---:|"));
    for (String name : wall.keySet()) {
      Samples w = wall.get(name);
      Samples c = cpu.get(name);
      report.format("| %s | %.0f | %.0f–%.0f | %.0f%% | %.0f | %.0f–%.0f | %.0f%% | %.1f |%s", name, w.median(), w.min(),
          w.max(), w.spread() * 100, c.median(), c.min(), c.max(), c.spread() * 100, bytesRead.get(name).median() / 1e6,
          liveHeapMb.isEmpty() ? "" : liveHeapMb.get(name).isNaN() ? " – (no collection during the query) |"
              : String.format(Locale.ROOT, " %.0f |", liveHeapMb.get(name)));
    }
    if (liveHeapMb.containsKey(AT_REST)) {
      report.format("- live heap high-water with no query running (the session at rest): %.0f MB", liveHeapMb.get(AT_REST));
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
          wall.get(subject).median() / wall.get(other).median(), pairedWall.median(), pairedWall.min(),
          pairedWall.max(), cpu.get(subject).median() / cpu.get(other).median(), pairedCpu.median(), pairedCpu.min(),
          pairedCpu.max());
    }
    List<Row> theirs = results.get(baseline);
    if (!r.equals(theirs)) {
      report.format("- note: results differ from %s beyond what must agree (%s vs %s)", baseline, r, theirs);
    }
  }
}
