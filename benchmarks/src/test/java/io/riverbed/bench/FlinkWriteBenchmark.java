package io.riverbed.bench;

import io.riverbed.flink.job.TableSinkBuilder;
import io.riverbed.flink.job.WriteJob;
import io.riverbed.flink.job.WriteJobArguments;
import io.riverbed.flink.job.WriteJobConfig;
import io.riverbed.flink.sink.RiverbedSink;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.Split;
import io.riverbed.format.query.SplitReader;
import io.riverbed.format.testing.Await;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.table.Table;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.paimon.flink.sink.FlinkSinkBuilder;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Flink write benchmark: the write job ({@link WriteJob}, what {@code deploy/bin/riverbed-write}
 * runs) on an embedded MiniCluster in this JVM, writing {@code bench.records} trips-like JSON
 * lines, half of them updates of earlier keys, into a fresh MERGE_ON_READ table (parallelism
 * {@code bench.flink.parallelism}, Flink-state index, checkpoints every
 * {@code bench.flink.checkpoint.interval}, writer defaults otherwise).
 *
 * <p>Baseline in the same run: the same job (same file source, same JSON-to-row conversion, same
 * checkpointing) ending in Flink's {@link DiscardingSink} instead of the table writer, so the
 * difference is what the writer costs (key shuffle, index state, Avro conversion, Parquet and log
 * files, commits). Apache Hudi's Flink bundle is not available here, so there is no Hudi-Flink
 * comparison; {@code -Dbench.flink.paimon=true} (the default) adds Apache Paimon's primary-key table
 * ({@link PaimonSink}) as a third sink of the same job, and the report gives Paimon/Riverbed wall and
 * CPU ratios. {@code -Dbench.flink.rocksdb=true} adds the Riverbed writer with its index on RocksDB
 * ({@code --flink-conf state.backend.type=rocksdb}). {@code -Dbench.flink.iceberg=true} (the default)
 * adds Apache Iceberg's Flink upsert sink ({@link IcebergUpsertSink}), its table read back after the
 * last round with Iceberg's own reader. Rounds alternate the order; heap is measured by
 * {@link HeapWatcher}; every job runs on a MiniCluster of its own whose checkpoint statistics
 * ({@link CheckpointStatsCollector}) give the checkpoints' count, end-to-end duration and checkpointed size.
 *
 * <p>{@code -Dbench.flink.keys=zipf} (default {@code uniform}) draws every event's key from
 * {@code bench.records/2} keys with Zipf's law, skew {@code bench.flink.zipf.skew} ({@link InputKeys});
 * the same input goes to every sink of the run.
 *
 * <p>{@code -Dbench.flink.compaction=true} adds a third sink in the same rounds: the same writer
 * with the compaction stage ({@code compaction.async.enabled=true}, every
 * {@code bench.flink.compaction.delta_commits} delta commits, default 3; {@code compaction.tasks}
 * the writer's parallelism), so the report gives write throughput with async compaction on against
 * off, measured side by side. A bounded run ends only after its last scheduled compaction, so the
 * wall time includes that one.
 */
class FlinkWriteBenchmark {
  static final int PARTITIONS = 48;
  static final String[] REGIONS = {"americas", "asia", "europe", "oceania"};
  static final long TS0 = 1_700_000_000_000L;
  /** The writer's accumulator: the most bytes one writer task ever held in its buffers. */
  static final String MAX_BUFFERED_ACCUMULATOR = "riverbed-writer-max-buffered-bytes";

  private final long records = Long.getLong("bench.records", 1_000_000L);
  private final int rounds = Integer.getInteger("bench.flink.rounds", 3);
  private final int parallelism = Integer.getInteger("bench.flink.parallelism", 2);
  private final String checkpointInterval = System.getProperty("bench.flink.checkpoint.interval", "10s");
  private final boolean compaction = Boolean.getBoolean("bench.flink.compaction");
  private final boolean paimon = Boolean.parseBoolean(System.getProperty("bench.flink.paimon", "true"));
  private final boolean rocksDb = Boolean.getBoolean("bench.flink.rocksdb");
  private final boolean iceberg = Boolean.parseBoolean(System.getProperty("bench.flink.iceberg", "true"));
  private final String keys = System.getProperty("bench.flink.keys", "uniform");
  private final double zipfSkew = Double.parseDouble(System.getProperty("bench.flink.zipf.skew", "1.1"));
  private final int compactionDeltaCommits = Integer.getInteger("bench.flink.compaction.delta_commits", 3);
  private final Path dir = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath().resolve("flink");
  private int runs;

  @Test
  void writeTrips() throws Exception {
    Report report = new Report(dir.getParent(), "flink-write");
    Files.createDirectories(dir);
    BenchFiles.deleteRecursively(dir.resolve("checkpoints"));
    Path schema = Files.writeString(dir.resolve("trips.avsc"), schema().toString(true));
    Path input = dir.resolve("trips.jsonl");
    Path warmupInput = dir.resolve("trips-warmup.jsonl");
    InputKeys inputKeys = InputKeys.named(keys, records, zipfSkew);
    long uniqueKeys = writeInput(input, records, inputKeys);
    writeInput(warmupInput, Math.min(records, 50_000), InputKeys.named(keys, Math.min(records, 50_000), zipfSkew));
    report.format("- %d JSON lines (%.0f MB), %s: %d distinct keys (%d updates of earlier keys), %d partitions; "
            + "parallelism %d, checkpoint interval %s (filesystem checkpoint storage), 1 warm-up run of 50k records per sink, then %d rounds",
        records, Files.size(input) / 1e6, inputKeys.describe(), uniqueKeys, records - uniqueKeys, PARTITIONS, parallelism,
        checkpointInterval, rounds);

    Map<String, TableSinkBuilder> sinks = new LinkedHashMap<>();
    sinks.put("no-op sink", (rows, rowType, options) -> rows.sinkTo(new DiscardingSink<>()).name("discard"));
    sinks.put("Riverbed MOR", TableSinkBuilder.tableWriter());
    if (rocksDb) {
      sinks.put(ROCKSDB, TableSinkBuilder.tableWriter());
    }
    if (paimon) {
      sinks.put(PAIMON, PaimonSink.primaryKeyTable("uuid", new String[] {"region", "country", "city"}, "ts", parallelism));
    }
    if (iceberg) {
      sinks.put(ICEBERG, IcebergUpsertSink.upsertTable("uuid", new String[] {"region", "country", "city"}, parallelism));
    }
    if (compaction) {
      sinks.put(COMPACTING, (rows, rowType, options) -> {
        Map<String, String> o = new LinkedHashMap<>(options);
        o.put("compaction.async.enabled", "true");
        o.put("compaction.delta_commits", Integer.toString(compactionDeltaCommits));
        return RiverbedSink.forRowData(rowType, o).sinkTo(rows);
      });
    }

    for (String name : sinks.keySet()) {
      Path table = dir.resolve("warmup-" + slug(name));
      BenchFiles.deleteRecursively(table);
      run(name, sinks.get(name), warmupInput, schema, table);
    }
    Map<String, Samples> seconds = new LinkedHashMap<>();
    Map<String, Samples> jobSeconds = new LinkedHashMap<>();
    Map<String, Samples> cpuSeconds = new LinkedHashMap<>();
    Samples settle = new Samples("settle ms");
    Samples buffered = new Samples("max buffered MB");
    Map<String, Samples> peakUsed = new LinkedHashMap<>();
    Map<String, Samples> peakAfterGc = new LinkedHashMap<>();
    Map<String, Samples> gcShare = new LinkedHashMap<>();
    Map<String, Samples> ingestSeconds = new LinkedHashMap<>();
    Map<String, Samples> checkpointCounts = new LinkedHashMap<>();
    Map<String, Samples> checkpointMillis = new LinkedHashMap<>();
    Map<String, Samples> checkpointBytes = new LinkedHashMap<>();
    Samples compactionsDuringIngest = new Samples("compactions before the last delta commit");
    sinks.keySet().forEach(n -> {
      ingestSeconds.put(n, new Samples(n));
      seconds.put(n, new Samples(n));
      jobSeconds.put(n, new Samples(n));
      cpuSeconds.put(n, new Samples(n));
      peakUsed.put(n, new Samples(n));
      peakAfterGc.put(n, new Samples(n));
      gcShare.put(n, new Samples(n));
      checkpointCounts.put(n, new Samples(n));
      checkpointMillis.put(n, new Samples(n));
      checkpointBytes.put(n, new Samples(n));
    });
    Path lastTable = null;
    Path lastCompactedTable = null;
    Path lastPaimonTable = null;
    Path lastRocksDbTable = null;
    Path lastIcebergTable = null;
    for (int round = 0; round < rounds; round++) {
      List<String> order = new ArrayList<>(sinks.keySet());
      if (round % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      for (String name : order) {
        Path table = dir.resolve("table-" + slug(name));
        BenchFiles.deleteRecursively(table);
        Measured m = run(name, sinks.get(name), input, schema, table);
        seconds.get(name).add(m.seconds());
        jobSeconds.get(name).add(m.jobSeconds());
        cpuSeconds.get(name).add(m.cpuSeconds());
        if (name.startsWith("Riverbed")) {
          ingestSeconds.get(name).add(m.ingestSeconds());
          settle.add(m.settleMillis());
          buffered.add(m.maxBufferedBytes() / 1e6);
        }
        peakUsed.get(name).add(m.peakUsedBytes() / 1e6);
        peakAfterGc.get(name).add(m.peakAfterGcBytes() / 1e6);
        gcShare.get(name).add(m.gcMillis() / 10.0 / m.seconds());
        List<CheckpointStatsCollector.Completed> completed = m.checkpoints().completed();
        checkpointCounts.get(name).add(completed.size());
        completed.forEach(c -> {
          checkpointMillis.get(name).add(c.endToEndMillis());
          checkpointBytes.get(name).add(c.uploadedBytes() / 1e6);
        });
        System.out.printf(Locale.ROOT, "[bench] round %d | %s | %.1f s | cpu %.1f s | %.0f records/s | peak heap used %.0f MB, "
                + "after GC %.0f MB | %d GCs, %d ms | %d checkpoints (%d failed): ms %s, MB %s%n", round, name, m.seconds(),
            m.cpuSeconds(), records / m.seconds(), m.peakUsedBytes() / 1e6, m.peakAfterGcBytes() / 1e6, m.gcCount(),
            m.gcMillis(), completed.size(), m.checkpoints().failed(),
            completed.stream().map(c -> Long.toString(c.endToEndMillis())).toList(),
            completed.stream().map(c -> String.format(Locale.ROOT, "%.1f", c.uploadedBytes() / 1e6)).toList());
        if (name.equals("Riverbed MOR")) {
          lastTable = table;
        } else if (name.equals(PAIMON)) {
          lastPaimonTable = table;
        } else if (name.equals(ROCKSDB)) {
          lastRocksDbTable = table;
        } else if (name.equals(ICEBERG)) {
          lastIcebergTable = table;
        } else if (name.equals(COMPACTING)) {
          lastCompactedTable = table;
          compactionsDuringIngest.add(m.compactionsDuringIngest());
        }
      }
    }

    report.line("");
    report.line("| sink | wall s: median (min–max) | spread | job net runtime s: median (min–max) | process CPU s: median "
        + "(min–max) | records/s (wall) | records/s (net) | CPU s per 1M records | peak heap used MB | peak heap after GC MB "
        + "| GC time | checkpoints per run | checkpoint ms: median (max) | checkpointed MB: median (max) |");
    report.line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (String name : sinks.keySet()) {
      Samples s = seconds.get(name);
      Samples j = jobSeconds.get(name);
      Samples c = cpuSeconds.get(name);
      Samples cpMillis = checkpointMillis.get(name);
      Samples cpBytes = checkpointBytes.get(name);
      report.format("| %s | %.1f (%.1f–%.1f) | %.0f%% | %.1f (%.1f–%.1f) | %.1f (%.1f–%.1f) | %.0f | %.0f | %.1f | %.0f (%.0f–%.0f) | "
              + "%.0f (%.0f–%.0f) | %.0f%% | %.0f (%.0f–%.0f) | %s | %s |",
          name, s.median(), s.min(), s.max(), s.spread() * 100, j.median(), j.min(), j.max(), c.median(), c.min(), c.max(),
          records / s.median(), records / j.median(), c.median() * 1e6 / records,
          peakUsed.get(name).median(), peakUsed.get(name).min(), peakUsed.get(name).max(),
          peakAfterGc.get(name).median(), peakAfterGc.get(name).min(), peakAfterGc.get(name).max(),
          gcShare.get(name).median(), checkpointCounts.get(name).median(), checkpointCounts.get(name).min(),
          checkpointCounts.get(name).max(),
          cpMillis.size() == 0 ? "–" : String.format(Locale.ROOT, "%.0f (%.0f)", cpMillis.median(), cpMillis.max()),
          cpBytes.size() == 0 ? "–" : String.format(Locale.ROOT, "%.1f (%.1f)", cpBytes.median(), cpBytes.max()));
    }
    Samples paired = Samples.ratios("time ratio", seconds.get("Riverbed MOR"), seconds.get("no-op sink"));
    Samples pairedNet = Samples.ratios("net ratio", jobSeconds.get("Riverbed MOR"), jobSeconds.get("no-op sink"));
    report.line("");
    report.format("- Riverbed/no-op wall time: ratio of medians **%.2f**; per-round ratios %.2f–%.2f "
            + "(wall = WriteJob.run from call to return, MiniCluster start and stop included)",
        seconds.get("Riverbed MOR").median() / seconds.get("no-op sink").median(), paired.min(), paired.max());
    report.format("- Riverbed/no-op job net runtime: ratio of medians **%.2f**; per-round ratios %.2f–%.2f",
        jobSeconds.get("Riverbed MOR").median() / jobSeconds.get("no-op sink").median(), pairedNet.min(), pairedNet.max());
    report.format("- Riverbed/no-op process CPU: ratio of medians **%.2f**",
        cpuSeconds.get("Riverbed MOR").median() / cpuSeconds.get("no-op sink").median());
    report.format("- after WriteJob.run returned, the Riverbed table still had a pending instant or marker folder for "
        + "%.0f ms (median; %.0f–%.0f), included in the wall time", settle.median(), settle.min(), settle.max());
    report.format("- largest write buffer one Riverbed writer task held (accumulator %s): %.0f MB (median; %.0f–%.0f)",
        MAX_BUFFERED_ACCUMULATOR, buffered.median(), buffered.min(), buffered.max());
    report.format("- heap: max heap %d MB; peaks measured from a full GC at the start of each run (MiniCluster, source and "
        + "sink all in this JVM)", Runtime.getRuntime().maxMemory() >> 20);

    if (paimon) {
      Samples wall = Samples.ratios("Paimon/Riverbed wall", seconds.get(PAIMON), seconds.get("Riverbed MOR"));
      Samples cpu = Samples.ratios("Paimon/Riverbed CPU", cpuSeconds.get(PAIMON), cpuSeconds.get("Riverbed MOR"));
      report.format("- Apache Paimon %s primary-key table / Riverbed, wall time: ratio of medians **%.2f** (per-round "
              + "%.2f–%.2f); process CPU: ratio of medians **%.2f** (per-round %.2f–%.2f); above 1 Riverbed is faster",
          FlinkSinkBuilder.class.getPackage().getImplementationVersion(),
          seconds.get(PAIMON).median() / seconds.get("Riverbed MOR").median(), wall.min(), wall.max(),
          cpuSeconds.get(PAIMON).median() / cpuSeconds.get("Riverbed MOR").median(), cpu.min(), cpu.max());
    }
    if (iceberg) {
      Samples wall = Samples.ratios("Iceberg/Riverbed wall", seconds.get(ICEBERG), seconds.get("Riverbed MOR"));
      Samples cpu = Samples.ratios("Iceberg/Riverbed CPU", cpuSeconds.get(ICEBERG), cpuSeconds.get("Riverbed MOR"));
      report.format("- Apache Iceberg %s Flink upsert sink / Riverbed, wall time: ratio of medians **%.2f** (per-round "
              + "%.2f–%.2f); process CPU: ratio of medians **%.2f** (per-round %.2f–%.2f); above 1 Riverbed is faster",
          org.apache.iceberg.IcebergBuild.version(),
          seconds.get(ICEBERG).median() / seconds.get("Riverbed MOR").median(), wall.min(), wall.max(),
          cpuSeconds.get(ICEBERG).median() / cpuSeconds.get("Riverbed MOR").median(), cpu.min(), cpu.max());
    }
    report.line("- checkpoints: completed checkpoints per run, and the end-to-end duration and checkpointed (uploaded) "
        + "size of every completed checkpoint of every recorded round (median and max), from the MiniCluster's checkpoint "
        + "statistics; CPU s per 1M records = median process CPU (MiniCluster, source and sink) / records × 1M");
    if (rocksDb) {
      Samples wall = Samples.ratios("RocksDB/heap wall", seconds.get(ROCKSDB), seconds.get("Riverbed MOR"));
      report.format("- index on RocksDB / on the heap, wall time: ratio of medians **%.2f** (per-round %.2f–%.2f); "
              + "process CPU: ratio of medians **%.2f**", seconds.get(ROCKSDB).median() / seconds.get("Riverbed MOR").median(),
          wall.min(), wall.max(), cpuSeconds.get(ROCKSDB).median() / cpuSeconds.get("Riverbed MOR").median());
    }
    if (compaction) {
      Samples compactedPaired = Samples.ratios("compaction ratio", seconds.get(COMPACTING), seconds.get("Riverbed MOR"));
      report.format("- async compaction (every %d delta commits) on/off, wall time: ratio of medians **%.2f**; per-round "
              + "ratios %.2f–%.2f; job net runtime: ratio of medians **%.2f**", compactionDeltaCommits,
          seconds.get(COMPACTING).median() / seconds.get("Riverbed MOR").median(), compactedPaired.min(),
          compactedPaired.max(), jobSeconds.get(COMPACTING).median() / jobSeconds.get("Riverbed MOR").median());
      Samples ingestPaired = Samples.ratios("ingest ratio", ingestSeconds.get(COMPACTING),
          ingestSeconds.get("Riverbed MOR"));
      report.format("- until the last delta commit (the writers' data committed; the bounded job then runs its last "
              + "compaction): %.1f s with async compaction, %.1f s without (medians), ratio of medians **%.2f**, "
              + "per-round ratios %.2f–%.2f; compactions completed before it: %.0f (median; %.0f–%.0f)",
          ingestSeconds.get(COMPACTING).median(), ingestSeconds.get("Riverbed MOR").median(),
          ingestSeconds.get(COMPACTING).median() / ingestSeconds.get("Riverbed MOR").median(), ingestPaired.min(),
          ingestPaired.max(), compactionsDuringIngest.median(), compactionsDuringIngest.min(),
          compactionsDuringIngest.max());
    }

    List<TableFacts> checked = new ArrayList<>();
    Map<String, Path> riverbedTables = new LinkedHashMap<>();
    riverbedTables.put("Riverbed MOR", lastTable);
    if (compaction) {
      riverbedTables.put(COMPACTING, lastCompactedTable);
    }
    if (rocksDb) {
      riverbedTables.put(ROCKSDB, lastRocksDbTable);
    }
    for (var named : riverbedTables.entrySet()) {
      TableFacts facts = TableFacts.of(named.getValue());
      report.format("- last %s table: %d live records (expected %d), %d delta commits, %d compactions, %d base files "
              + "(%.1f MB), %d log files (%.1f MB)", named.getKey(), facts.liveRecords(),
          uniqueKeys, facts.deltaCommits(), facts.compactions(), facts.baseFiles(), facts.baseBytes() / 1e6,
          facts.logFiles(), facts.logBytes() / 1e6);
      checked.add(facts);
    }
    long paimonRecords = paimon ? PaimonSink.liveRecords(lastPaimonTable.toUri().toString()) : uniqueKeys;
    if (paimon) {
      report.format("- last Paimon table: %d live records (expected %d)", paimonRecords, uniqueKeys);
    }
    long[] icebergRowsAndKeys = iceberg
        ? IcebergUpsertSink.rowsAndKeys(lastIcebergTable.toUri().toString(), "uuid") : new long[] {uniqueKeys, uniqueKeys};
    if (iceberg) {
      report.format("- last Iceberg table (read by IcebergGenerics): %d rows, %d distinct keys (expected %d); %s",
          icebergRowsAndKeys[0], icebergRowsAndKeys[1], uniqueKeys,
          IcebergUpsertSink.describe(lastIcebergTable.toUri().toString()));
    }
    report.line("- written to " + report.write());
    if (icebergRowsAndKeys[0] != uniqueKeys || icebergRowsAndKeys[1] != uniqueKeys) {
      throw new AssertionError("Iceberg table holds " + icebergRowsAndKeys[0] + " rows with " + icebergRowsAndKeys[1]
          + " distinct keys, expected " + uniqueKeys);
    }
    if (paimonRecords != uniqueKeys) {
      throw new AssertionError("Paimon table holds " + paimonRecords + " records, expected " + uniqueKeys);
    }
    for (TableFacts facts : checked) {
      if (facts.liveRecords() != uniqueKeys) {
        throw new AssertionError("table holds " + facts.liveRecords() + " records, expected " + uniqueKeys);
      }
    }
  }

  /**
   * @param ingestSeconds from the call until the last delta commit completed (the writers' last data
   *     committed; a bounded job with async compaction then still runs its last compaction), NaN without a table
   * @param compactionsDuringIngest compactions completed before that last delta commit
   */
  record Measured(double seconds, double jobSeconds, double cpuSeconds, long settleMillis, long maxBufferedBytes,
      long peakUsedBytes, long peakAfterGcBytes, long gcCount, long gcMillis, double ingestSeconds,
      int compactionsDuringIngest, CheckpointStatsCollector checkpoints) {}

  /** Completion times (file modification times) of the table's delta commits and compactions. */
  record Completions(long lastDeltaCommitMillis, int compactionsBefore) {
    static Completions of(Path table) throws IOException {
      List<long[]> commits = new ArrayList<>(); // {mtime, 1 if a compaction}
      try (Stream<Path> timeline = Files.list(table.resolve(".hoodie"))) {
        for (Path f : timeline.toList()) {
          String name = f.getFileName().toString();
          if (name.endsWith(".deltacommit") || name.endsWith(".commit")) {
            commits.add(new long[] {Files.getLastModifiedTime(f).toMillis(), name.endsWith(".commit") ? 1 : 0});
          }
        }
      }
      long last = commits.stream().filter(c -> c[1] == 0).mapToLong(c -> c[0]).max().orElse(0);
      int before = (int) commits.stream().filter(c -> c[1] == 1 && c[0] <= last).count();
      return new Completions(last, before);
    }
  }

  private Measured run(String name, TableSinkBuilder sink, Path input, Path schema, Path table) throws Exception {
    // A folder per run: Flink may still be removing a finished job's checkpoints after it returned.
    Path checkpoints = dir.resolve("checkpoints").resolve("run-" + (++runs));
    List<String> args = new ArrayList<>(List.of(
        "--source", "file", "--input", input.toString(), "--schema", schema.toString(),
        "--table-path", table.toString(), "--table-name", "trips", "--table-type", "MERGE_ON_READ",
        "--record-key", "uuid", "--precombine", "ts", "--partition-path", "region,country,city",
        "--checkpoint-interval", checkpointInterval, "--parallelism", Integer.toString(parallelism),
        // Without a checkpoint directory Flink keeps checkpoints in the JobManager's memory (5 MB at
        // most): the index state of ~500k keys exceeds it and the job fails after 3 restarts.
        "--checkpoint-dir", checkpoints.toString()));
    if (name.equals(ROCKSDB)) {
      // as a user picks it; Riverbed adds incremental checkpoints, bloom filters and managed memory
      args.addAll(List.of("--flink-conf", "state.backend.type=rocksdb"));
    }
    WriteJobConfig config = WriteJobArguments.parse(args.toArray(String[]::new));
    CheckpointStatsCollector checkpointStats = new CheckpointStatsCollector();
    try (HeapWatcher heap = HeapWatcher.start()) {
      long cpuStart = ProcessCpu.nanos();
      long startMillis = System.currentTimeMillis();
      long start = System.nanoTime();
      JobExecutionResult result = runOnMiniCluster(config, sink, checkpointStats);
      double returned = (System.nanoTime() - start) / 1e9;
      // The job can be reported finished while the coordinator still commits the last instant;
      // the run counts until the table has no pending instant and no marker folder left.
      long settleMillis = Files.isDirectory(table.resolve(".hoodie")) ? awaitTimelineSettled(table) : 0;
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf(Locale.ROOT, "[bench] %s: job %s net runtime %.1f s, WriteJob.run returned after %.1f s, "
              + "table settled %d ms later%n", name, result.getJobID(), result.getNetRuntime() / 1000.0, returned,
          settleMillis);
      double cpuSeconds = (ProcessCpu.nanos() - cpuStart) / 1e9;
      Object buffered = result.getAccumulatorResult(MAX_BUFFERED_ACCUMULATOR);
      Completions completions = Files.isDirectory(table.resolve(".hoodie")) ? Completions.of(table) : null;
      return new Measured(seconds, result.getNetRuntime() / 1000.0, cpuSeconds, settleMillis,
          buffered instanceof Long b ? b : -1, heap.peakUsedBytes(), heap.peakAfterGcBytes(), heap.gcCountSinceStart(),
          heap.gcMillisSinceStart(),
          completions == null ? Double.NaN : (completions.lastDeltaCommitMillis() - startMillis) / 1000.0,
          completions == null ? 0 : completions.compactionsBefore(), checkpointStats);
    }
  }

  /**
   * What {@link WriteJob#run(WriteJobConfig, TableSinkBuilder)} does on a local environment (the job
   * on a MiniCluster of its own, started and stopped here), with the job's checkpoint statistics
   * polled every second while it runs and once after it finished.
   */
  private static JobExecutionResult runOnMiniCluster(WriteJobConfig config, TableSinkBuilder sink,
      CheckpointStatsCollector stats)
      throws Exception {
    org.apache.flink.configuration.Configuration conf = WriteJob.flinkConfiguration(config);
    conf.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, 100_000);
    if (!conf.contains(RestOptions.BIND_PORT)) {
      conf.set(RestOptions.BIND_PORT, "0");
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    WriteJob.build(config, env, sink);
    JobGraph jobGraph = env.getStreamGraph().getJobGraph();
    int slots = conf.getOptional(TaskManagerOptions.NUM_TASK_SLOTS).orElse(jobGraph.getMaximumParallelism());
    MiniClusterRun run = MiniClusterRun.of(conf, jobGraph, slots, "bench-checkpoint-stats", stats::poll);
    if (stats.pollError() != null) {
      System.out.printf(Locale.ROOT, "[bench] checkpoint statistics of job %s: last poll failed: %s%n", run.job(),
          stats.pollError());
    }
    return run.result().toJobExecutionResult(FlinkWriteBenchmark.class.getClassLoader());
  }

  /** Waits until every requested/inflight instant is completed and .hoodie/.temp is empty; returns the wait. */
  static long awaitTimelineSettled(Path table) throws InterruptedException {
    long start = System.nanoTime();
    Await.await("no pending work on table " + table + " after the job finished", Duration.ofSeconds(120))
        .every(Duration.ofMillis(20))
        .explainedBy(() -> "still pending: " + pendingWork(table))
        .until(() -> pendingWork(table).isEmpty());
    return (System.nanoTime() - start) / 1_000_000;
  }

  private static List<String> pendingWork(Path table) throws IOException {
    Path meta = table.resolve(".hoodie");
    Set<String> completed = new HashSet<>();
    Set<String> started = new HashSet<>();
    try (Stream<Path> files = Files.list(meta)) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (name.endsWith(".crc") || !Character.isDigit(name.charAt(0))) {
          continue;
        }
        String instant = name.substring(0, name.indexOf('.'));
        if (name.endsWith(".requested") || name.endsWith(".inflight")) {
          started.add(instant);
        } else {
          completed.add(instant);
        }
      }
    }
    List<String> pending = new ArrayList<>();
    started.stream().filter(i -> !completed.contains(i)).sorted().forEach(i -> pending.add("instant " + i));
    Path temp = meta.resolve(".temp");
    if (Files.isDirectory(temp)) {
      try (Stream<Path> markers = Files.list(temp)) {
        markers.forEach(m -> pending.add("markers " + m.getFileName()));
      }
    }
    return pending;
  }

  static Schema schema() {
    return SchemaBuilder.record("trip").namespace("io.riverbed.bench").fields()
        .requiredString("uuid")
        .requiredLong("ts")
        .requiredString("rider")
        .requiredString("driver")
        .requiredDouble("begin_lat")
        .requiredDouble("begin_lon")
        .requiredDouble("end_lat")
        .requiredDouble("end_lon")
        .requiredDouble("fare")
        .requiredDouble("tip")
        .requiredInt("trip_seconds")
        .requiredString("currency")
        .requiredString("region")
        .requiredString("country")
        .requiredString("city")
        .endRecord();
  }

  /**
   * Writes {@code n} JSON lines: the first 1,000 and every even line a new key, every other odd
   * line an update (larger {@code ts}, new fare) of a uniformly chosen earlier key. Returns the
   * number of distinct keys.
   */
  static long writeInput(Path file, long n) throws IOException {
    return writeInput(file, n, InputKeys.uniform());
  }

  /** Writes {@code n} JSON lines with the keys {@code keys} gives, {@code ts} growing by line; returns the distinct keys. */
  static long writeInput(Path file, long n, InputKeys keys) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      StringBuilder line = new StringBuilder(320);
      for (long i = 0; i < n; i++) {
        long key = keys.next(i);
        line.setLength(0);
        appendTripLine(line, key, TS0 + i * 1000, i);
        out.append(line);
      }
    }
    return keys.distinct();
  }

  /**
   * One JSON line of the trips schema for {@code key} (uuid derived from it, partition {@code key %
   * PARTITIONS}) with ordering value {@code ts}; the other values vary with {@code i}.
   */
  static void appendTripLine(StringBuilder line, long key, long ts, long i) {
    int p = (int) (key % PARTITIONS);
    Random r = new Random(key * 31 + i);
    line.append("{\"uuid\":\"").append(UUID.nameUUIDFromBytes(Long.toString(key).getBytes(StandardCharsets.UTF_8)))
        .append("\",\"ts\":").append(ts)
        .append(",\"rider\":\"rider-").append(String.format(Locale.ROOT, "%05d", key % 10000))
        .append("\",\"driver\":\"driver-").append(String.format(Locale.ROOT, "%04d", i % 2000))
        .append("\",\"begin_lat\":").append(r.nextInt(180000) / 1000.0 - 90)
        .append(",\"begin_lon\":").append(r.nextInt(360000) / 1000.0 - 180)
        .append(",\"end_lat\":").append(r.nextInt(180000) / 1000.0 - 90)
        .append(",\"end_lon\":").append(r.nextInt(360000) / 1000.0 - 180)
        .append(",\"fare\":").append(r.nextInt(10000) / 100.0)
        .append(",\"tip\":").append(r.nextInt(2000) / 100.0)
        .append(",\"trip_seconds\":").append(r.nextInt(3600))
        .append(",\"currency\":\"").append(new String[] {"USD", "EUR", "INR", "BRL"}[(int) (key % 4)])
        .append("\",\"region\":\"").append(REGIONS[p / 12])
        .append("\",\"country\":\"country_").append((p / 4) % 3)
        .append("\",\"city\":\"city_").append(p % 4)
        .append("\"}\n");
  }

  private static String slug(String name) {
    return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
  }

  /** What the write left: live records (read back through the core), commits and files. */
  static final String COMPACTING = "Riverbed MOR, async compaction";
  static final String PAIMON = "Apache Paimon PK table";
  static final String ROCKSDB = "Riverbed MOR, index on RocksDB";
  static final String ICEBERG = "Apache Iceberg upsert sink";

  record TableFacts(long liveRecords, int deltaCommits, int compactions, int baseFiles, long baseBytes, int logFiles,
      long logBytes) {
    static TableFacts of(Path path) throws IOException {
      org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(path.toUri());
      Table table = Table.open(base.getFileSystem(new Configuration()), base);
      QueryPlan plan = QueryPlanner.plan(table, QuerySpec.snapshot());
      SplitReader reader = SplitReader.of(plan, ReadSettings.defaults());
      Schema keyOnly = SchemaBuilder.record("k").fields().optionalString(MetaFields.RECORD_KEY).endRecord();
      Set<String> keys = new HashSet<>();
      long live = 0;
      for (Split split : plan.splits()) {
        try (CloseableIterator<org.apache.avro.generic.GenericRecord> it = reader.read(split, Optional.of(keyOnly))) {
          while (it.hasNext()) {
            keys.add(it.next().get(MetaFields.RECORD_KEY).toString());
            live++;
          }
        }
      }
      if (keys.size() != live) {
        throw new AssertionError(path + ": " + live + " records but " + keys.size() + " distinct keys");
      }
      int commits;
      int compactions;
      try (Stream<Path> timeline = Files.list(path.resolve(".hoodie"))) {
        List<String> names = timeline.map(f -> f.getFileName().toString()).toList();
        commits = (int) names.stream().filter(n -> n.endsWith(".deltacommit")).count();
        compactions = (int) names.stream().filter(n -> n.endsWith(".commit")).count();
      }
      int bases = 0;
      int logs = 0;
      long baseBytes = 0;
      long logBytes = 0;
      try (Stream<Path> files = Files.walk(path)) {
        for (Path f : files.filter(Files::isRegularFile).filter(f -> !path.relativize(f).startsWith(".hoodie"))
            .filter(f -> !f.getFileName().toString().endsWith(".crc")).toList()) {
          String name = f.getFileName().toString();
          if (name.endsWith(".parquet")) {
            bases++;
            baseBytes += Files.size(f);
          } else if (name.contains(".log.")) {
            logs++;
            logBytes += Files.size(f);
          }
        }
      }
      return new TableFacts(live, commits, compactions, bases, baseBytes, logs, logBytes);
    }
  }
}
