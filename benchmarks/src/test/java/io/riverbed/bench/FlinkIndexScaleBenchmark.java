package io.riverbed.bench;

import io.riverbed.flink.job.TableSinkBuilder;
import io.riverbed.flink.job.WriteJob;
import io.riverbed.flink.job.WriteJobArguments;
import io.riverbed.flink.job.WriteJobConfig;
import io.riverbed.flink.sql.HudiConnectorOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * The Flink-state index at scale (issue 14): the Riverbed writer (MERGE_ON_READ, parallelism
 * {@code bench.flink.parallelism}, checkpoints every {@code bench.flink.scale.checkpoint.interval},
 * the table options and Flink configuration {@code riverbed-write} builds from its flags) over a
 * generated stream ({@link ScaleStream}) that inserts {@code bench.flink.scale.keys} distinct keys
 * (10M by default) interleaved with updates of earlier keys, then updates only a hot set of
 * {@code bench.flink.scale.hot.keys} keys at the paced rates of {@code bench.flink.scale.hot.rates}
 * for {@code bench.flink.scale.hot.seconds} each.
 *
 * <p>Per checkpoint, from the MiniCluster's own checkpoint statistics ({@link CheckpointStatsCollector}):
 * bytes uploaded (Flink's checkpointed size), full state size, end-to-end, synchronous and
 * asynchronous durations; from the generator ({@link ScaleEvents}): the distinct keys written since
 * the previous checkpoint. Over the run: records/s and CPU per million keys inserted, heap after GC
 * and resident memory per million keys, index bytes per key. Baselines of the same run: the first
 * million keys (throughput, heap), the early checkpoints (bytes uploaded per changed key) and the
 * interval (checkpoint duration); with {@code bench.flink.scale.backends=heap,rocksdb} the heap
 * default and RocksDB on the same stream. The table is then read back through the core reader: one
 * row per key, each with its last event's ordering value, a sample compared field by field. The
 * table and checkpoints are deleted afterwards unless {@code bench.flink.scale.keep=true}.
 */
class FlinkIndexScaleBenchmark {
  private final long keys = Long.getLong("bench.flink.scale.keys", 10_000_000L);
  private final List<String> backends = Arrays.stream(System.getProperty("bench.flink.scale.backends", "rocksdb")
      .split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  private final long hotKeys = Long.getLong("bench.flink.scale.hot.keys", 100_000L);
  private final List<Integer> hotRates = Arrays.stream(System.getProperty("bench.flink.scale.hot.rates", "2000,8000")
      .split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Integer::valueOf).toList();
  private final int hotSeconds = Integer.getInteger("bench.flink.scale.hot.seconds", 30);
  private final String interval = System.getProperty("bench.flink.scale.checkpoint.interval", "10s");
  private final int parallelism = Integer.getInteger("bench.flink.parallelism", 2);
  private final boolean keep = Boolean.getBoolean("bench.flink.scale.keep");
  private final Path dir = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath().resolve("flink-scale");

  @Test
  void indexStateAtScale() throws Exception {
    Report report = new Report(dir.getParent(), "flink-index-scale");
    BenchFiles.deleteRecursively(dir);
    Files.createDirectories(dir);
    ScaleStream stream = new ScaleStream(keys, hotKeys, hotRates, hotSeconds);
    report.format("- stream: %,d distinct keys inserted in %,d events (4 inserts, then 1 update of a key inserted at least "
            + "%,d keys earlier), then hot updates of %,d keys (every %,d-th key) at %s events/s for %d s each: %,d events "
            + "in all; %d partitions", keys, stream.growthEvents, ScaleStream.UPDATE_LAG, stream.hotKeys,
        keys / stream.hotKeys, hotRates, hotSeconds, stream.events(), FlinkWriteBenchmark.PARTITIONS);
    report.format("- job: the Riverbed writer into a new MERGE_ON_READ table, parallelism %d (generator included), "
        + "checkpoints every %s to the local file system, `riverbed-write`'s options; state backends: %s (heap: Flink's "
        + "default; rocksdb: `--flink-conf state.backend.type=rocksdb` with the settings Riverbed adds; rocksdb-flink-levels: "
        + "the same with Flink's level and file sizes; rocksdb-small-levels: dynamic level sizes, 16 MB base level, 2 MB files; rocksdb-universal: universal compaction; "
        + "rocksdb-changelog: behind Flink's changelog state backend)",
        parallelism, interval, backends);
    Map<String, ScaleRun> runs = new LinkedHashMap<>();
    for (String backend : backends) {
      ScaleRun run = run(backend, stream);
      runs.put(backend, run);
      run.report(report, backend, stream, Duration.parse(interval));
      ReadBack check = ReadBack.of(run.table(), stream);
      report.format("- read back through the core reader: %,d rows (expected %,d), %,d distinct keys, %,d duplicate rows, "
              + "%,d keys whose ordering value is not their last event's, %,d sampled keys compared field by field with "
              + "%,d differences; %.0f s", check.rows(), keys, check.distinctKeys(), check.duplicates(), check.staleRows(),
          check.sampled(), check.sampleMismatches(), check.seconds());
      run.check(check);
      if (!keep) {
        BenchFiles.deleteRecursively(run.table());
        BenchFiles.deleteRecursively(run.checkpoints());
      }
    }
    ScaleRun rocks = runs.get("rocksdb");
    for (String other : List.of("heap", "rocksdb-flink-levels", "rocksdb-small-levels", "rocksdb-universal",
        "rocksdb-changelog")) {
      ScaleRun run = runs.get(other);
      if (run == null || rocks == null) {
        continue;
      }
      report.line("");
      report.format("- %s / rocksdb (Riverbed's settings) on the same stream: bytes uploaded per checkpoint, median **%.2f**, "
              + "all checkpoints **%.2f**; largest checkpoint duration **%.2f**; growth wall time **%.2f**, process CPU "
              + "**%.2f**; peak heap after GC **%.2f**", other, run.uploaded().median() / rocks.uploaded().median(),
          run.uploadedTotal() / rocks.uploadedTotal(), run.maxDurationMillis() / rocks.maxDurationMillis(),
          run.growthSeconds() / rocks.growthSeconds(), run.cpuSeconds() / rocks.cpuSeconds(),
          (double) run.peakAfterGcBytes() / rocks.peakAfterGcBytes());
    }
    report.line("- written to " + report.write());
    for (var run : runs.entrySet()) {
      run.getValue().failures().forEach(f -> System.out.println("[bench] CHECK FAILED (" + run.getKey() + "): " + f));
    }
  }

  private ScaleRun run(String backend, ScaleStream stream) throws Exception {
    Path table = dir.resolve("table-" + backend);
    Path checkpoints = dir.resolve("checkpoints-" + backend);
    Path schema = Files.writeString(dir.resolve("trips.avsc"), FlinkWriteBenchmark.schema().toString(true));
    List<String> args = new ArrayList<>(List.of(
        // the input flags are parsed but unused: the rows come from the generator
        "--source", "file", "--input", schema.toString(), "--schema", schema.toString(),
        "--table-path", table.toString(), "--table-name", "trips", "--table-type", "MERGE_ON_READ",
        "--record-key", "uuid", "--precombine", "ts", "--partition-path", "region,country,city",
        "--checkpoint-interval", interval, "--parallelism", Integer.toString(parallelism),
        "--checkpoint-dir", checkpoints.toString()));
    switch (backend) {
      case "rocksdb" -> args.addAll(List.of("--flink-conf", "state.backend.type=rocksdb"));
      // RocksDB with Flink's own level and file sizes instead of Riverbed's (the settings before issue 14's 10M run)
      case "rocksdb-flink-levels" -> args.addAll(List.of("--flink-conf", "state.backend.type=rocksdb",
          "--flink-conf", "state.backend.rocksdb.compaction.level.use-dynamic-size=false",
          "--flink-conf", "state.backend.rocksdb.compaction.level.max-size-level-base=256mb",
          "--flink-conf", "state.backend.rocksdb.compaction.level.target-file-size-base=64mb"));
      // RocksDB with dynamic level sizes, a 16 MB base level and 2 MB files: a compaction rewrites a small base
      // level and parts of the next ones, not the whole first level (an experiment, not Riverbed's setting)
      case "rocksdb-small-levels" -> args.addAll(List.of("--flink-conf", "state.backend.type=rocksdb",
          "--flink-conf", "state.backend.rocksdb.compaction.level.use-dynamic-size=true",
          "--flink-conf", "state.backend.rocksdb.compaction.level.max-size-level-base=16mb",
          "--flink-conf", "state.backend.rocksdb.compaction.level.target-file-size-base=2mb"));
      // RocksDB's universal compaction: small sorted runs merge with each other, the whole index only when the newer
      // runs outgrow it (size amplification), instead of leveled compaction's rewrites of the first level
      case "rocksdb-universal" -> args.addAll(List.of("--flink-conf", "state.backend.type=rocksdb",
          "--flink-conf", "state.backend.rocksdb.compaction.style=UNIVERSAL"));
      // RocksDB behind Flink's changelog state backend: a checkpoint uploads the state changes since the last one,
      // and RocksDB's incremental files only at a materialization (state.changelog.periodic-materialize.interval)
      case "rocksdb-changelog" -> args.addAll(List.of("--flink-conf", "state.backend.type=rocksdb",
          "--flink-conf", "state.changelog.enabled=true", "--flink-conf", "state.changelog.storage=filesystem",
          "--flink-conf", "state.changelog.dstl.dfs.base-path=" + checkpoints.resolve("changelog").toUri()));
      case "heap" -> { } // Flink's default (hashmap)
      default -> throw new IllegalArgumentException("bench.flink.scale.backends: heap, rocksdb, rocksdb-flink-levels, "
          + "rocksdb-small-levels, rocksdb-universal or rocksdb-changelog, not " + backend);
    }
    WriteJobConfig config = WriteJobArguments.parse(args.toArray(String[]::new));
    Configuration conf = WriteJob.flinkConfiguration(config);
    conf.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, 100_000);
    conf.set(RestOptions.BIND_PORT, "0");
    RowType rowType = WriteJob.rowType(config);
    Map<String, String> options = new LinkedHashMap<>(config.tableOptions());
    options.put(HudiConnectorOptions.PATH.key(), table.toUri().toString());

    String runName = "scale-" + backend;
    ScaleEvents.Probe probe = ScaleEvents.register(runName);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    var rows = env.fromSequence(0, stream.events() - 1).name("sequence").uid("bench-sequence")
        .map(new ScaleEvents(stream, runName), InternalTypeInfo.of(rowType)).name("scale-events").uid("bench-scale-events");
    TableSinkBuilder.tableWriter().build(rows, Optional.empty(), rowType, options);
    StreamGraph graph = env.getStreamGraph();
    graph.setJobName("index scale: " + backend);
    JobGraph jobGraph = graph.getJobGraph();

    List<MemorySample> memory = new CopyOnWriteArrayList<>();
    CheckpointStatsCollector stats = new CheckpointStatsCollector();
    double loadStart = Report.loadAverage();
    try (HeapWatcher heap = HeapWatcher.start()) {
      MiniClusterRun run = MiniClusterRun.of(conf, jobGraph, parallelism, "bench-scale-sampler", (cluster, jobId, start) -> {
        memory.add(new MemorySample(System.nanoTime(), heap.lastAfterGcBytes(), MemorySample.readResidentBytes()));
        // printed as they come, so that a run cut short still leaves its figures in the log
        for (var c : stats.poll(cluster, jobId, start)) {
          System.out.printf(Locale.ROOT, "[bench] %s checkpoint %d at %.0f s: %,d ms, uploaded %.1f MB (index %.1f MB), state "
                  + "%.1f MB (index %.1f MB), index sync/async %d/%d ms, writer sync %d ms; keys changed %,d, inserted so far "
                  + "%,d; heap after GC %.0f MB%n", backend, c.id(), c.atSeconds(), c.endToEndMillis(), c.uploadedBytes() / 1e6,
              c.indexUploadedBytes() / 1e6, c.stateBytes() / 1e6, c.indexStateBytes() / 1e6, c.indexSyncMillis(),
              c.indexAsyncMillis(), c.writerSyncMillis(), probe.changedKeys.getOrDefault(c.id(), 0L),
              probe.inserts.entrySet().stream().filter(x -> x.getKey() <= c.id()).mapToLong(Map.Entry::getValue).sum(),
              heap.lastAfterGcBytes() / 1e6);
        }
      });
      run.result().toJobExecutionResult(getClass().getClassLoader());
      FlinkWriteBenchmark.awaitTimelineSettled(table);
      System.out.printf(Locale.ROOT, "[bench] %s: job %s finished after %.1f s, %d checkpoints completed%n", backend,
          run.job(), (run.endedNanos() - run.submittedNanos()) / 1e9, stats.completed().size());
      return new ScaleRun(table, checkpoints, run.submittedNanos(), run.endedNanos(), run.cpuSeconds(), loadStart,
          Report.loadAverage(), probe, stats, List.copyOf(memory), heap.peakAfterGcBytes(), heap.peakUsedBytes(),
          heap.gcMillisSinceStart(), Duration.parse(interval), keys);
    } finally {
      ScaleEvents.unregister(runName);
    }
  }

  /** A duration flag such as {@code 10s} or {@code 500ms}, in milliseconds. */
  record Duration(long millis) {
    static Duration parse(String text) {
      return new Duration(org.apache.flink.util.TimeUtils.parseDuration(text).toMillis());
    }
  }

  /** Heap after the latest GC and the process's resident memory at one moment of a run. */
  record MemorySample(long nanos, long heapAfterGcBytes, long residentBytes) {
    /** VmRSS of this process (Linux), or -1. */
    static long readResidentBytes() {
      try {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
          if (line.startsWith("VmRSS:")) {
            return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
          }
        }
      } catch (java.io.IOException | RuntimeException e) {
        return -1;
      }
      return -1;
    }
  }
}
