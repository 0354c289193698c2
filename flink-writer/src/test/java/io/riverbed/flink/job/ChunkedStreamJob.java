package io.riverbed.flink.job;

import io.riverbed.flink.sink.ChunkedSource;
import io.riverbed.flink.sink.RiverbedSink;
import io.riverbed.flink.source.JsonRowConverter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The write job with a streaming source of chunks, in a process of its own (integration-tests'
 * table health run): {@code riverbed-write}'s flags build the job as {@link WriteJob} does (its Flink
 * configuration, table options and schema), but the rows come from a {@link ChunkedSource} that
 * emits one chunk per checkpoint, so every commit holds a known prefix of the stream, and streams:
 * the next chunk follows once the barrier passed, while the last one is committed. The chunks
 * are the JSON-lines files of {@code --input} (a folder), in name order, converted with the job's
 * own converter.
 *
 * <p>Arguments: {@code positions-log metrics-log <riverbed-write flags>}. The source appends
 * "checkpoint-id chunks" lines to the positions log; a thread outside the job appends, whenever
 * the write coordinator's {@code numCommits} moves, a line "numCommits lastCommitDurationMs
 * lastCleanDurationMs lastArchiveDurationMs pendingCompactionPlans epoch-ms" read from Flink's
 * in-memory metric reporter.
 */
public final class ChunkedStreamJob {
  private static final String DATASET = "chunked-stream";
  private static final String[] GAUGES = {"lastCommitDurationMs", "lastCleanDurationMs", "lastArchiveDurationMs",
      "pendingCompactionPlans"};

  private ChunkedStreamJob() {}

  public static void main(String[] args) throws Exception {
    Path positionsLog = Path.of(args[0]);
    Path metricsLog = Path.of(args[1]);
    WriteJobConfig config = WriteJobArguments.parse(Arrays.copyOfRange(args, 2, args.length));
    RowType rowType = WriteJob.rowType(config);
    ChunkedSource.register(DATASET, chunks(Path.of(config.source().inputPath()), JsonRowConverter.of(rowType)));

    InMemoryReporter reporter = InMemoryReporter.createWithRetainedMetrics();
    Configuration conf = reporter.addToConfiguration(WriteJob.flinkConfiguration(config));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    var rows = env.addSource(ChunkedSource.streamingRecordingPositionsTo(DATASET, positionsLog.toString()), "chunks",
        InternalTypeInfo.of(rowType)).setParallelism(1);
    Map<String, String> options = new HashMap<>(config.tableOptions());
    options.put("path", WriteJob.toUri(config.table().path()));
    RiverbedSink.forRowData(rowType, options).sinkTo(rows);

    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "commit-metrics-sampler");
      t.setDaemon(true);
      return t;
    });
    sampler.scheduleWithFixedDelay(new CommitSampler(reporter, metricsLog), 5, 5, TimeUnit.MILLISECONDS);
    env.execute(WriteJob.jobName(config));
    sampler.shutdown();
    sampler.awaitTermination(1, TimeUnit.MINUTES);
    System.out.println("chunked-stream done");
  }

  /** The rows of each JSON-lines file of {@code dir}, in name order. */
  private static List<List<RowData>> chunks(Path dir, JsonRowConverter converter) throws IOException {
    List<List<RowData>> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.sorted().toList()) {
        out.add(Files.readAllLines(file, StandardCharsets.UTF_8).stream().map(converter::convert).toList());
      }
    }
    return out;
  }

  /** Appends a line to the log whenever the coordinator's commit count moved; polled every 5 ms. */
  private static final class CommitSampler implements Runnable {
    private final InMemoryReporter reporter;
    private final Path log;
    private Map<String, Metric> metrics = Map.of();
    private long seen;

    CommitSampler(InMemoryReporter reporter, Path log) {
      this.reporter = reporter;
      this.log = log;
    }

    @Override
    public void run() {
      try {
        poll();
      } catch (RuntimeException e) {
        // a scheduled task that throws is not run again, silently: say why the log stops
        e.printStackTrace();
        throw e;
      }
    }

    private void poll() {
      if (metrics.isEmpty()) {
        try {
          metrics = coordinatorMetrics(reporter);
        } catch (java.util.ConcurrentModificationException e) {
          return; // the job is registering its metrics: look again at the next poll
        }
        if (metrics.isEmpty()) {
          return;
        }
      }
      // the metric objects are the coordinator's own: reading them reads its current values
      long commits = ((Counter) metrics.get("numCommits")).getCount();
      if (commits == seen) {
        return;
      }
      seen = commits;
      StringBuilder line = new StringBuilder(Long.toString(seen));
      for (String gauge : GAUGES) {
        line.append(' ').append(((Gauge<?>) metrics.get(gauge)).getValue());
      }
      line.append(' ').append(System.currentTimeMillis()).append('\n');
      try {
        Files.writeString(log, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  /** The metrics of the group that holds the coordinator's {@code numCommits} and every gauge sampled; empty before. */
  private static Map<String, Metric> coordinatorMetrics(InMemoryReporter reporter) {
    for (Map<String, Metric> group : reporter.getMetricsByGroup().values()) {
      // the coordinator registers its metrics one by one: wait until every one sampled is there
      if (group.containsKey("numCommits") && java.util.Arrays.stream(GAUGES).allMatch(group::containsKey)) {
        return group;
      }
    }
    return Map.of();
  }
}
