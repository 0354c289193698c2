package io.riverbed.bench;

import io.riverbed.flink.job.TableSinkBuilder;
import io.riverbed.flink.job.WriteJob;
import io.riverbed.flink.job.WriteJobArguments;
import io.riverbed.flink.job.WriteJobConfig;
import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.Split;
import io.riverbed.format.query.SplitReader;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.service.TableService;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import io.riverbed.format.write.WriteRecord;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Timeline;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * Table age (issue 14): the same small update job run on one MERGE_ON_READ table as it ages to
 * {@code bench.flink.aging.commits} (50, 100, 300, 500) commits, and how long its commits and
 * checkpoints take at each age. Acceptance: the median commit and checkpoint durations at the
 * oldest age within 1.2x of those at the youngest.
 *
 * <p>Every job is {@link WriteJob} (what {@code riverbed-write} runs) in this JVM with the table
 * services a streaming MERGE_ON_READ job runs: async compaction every 5 delta commits
 * ({@code compaction.async.enabled=true}), cleaning and archival after commits (Riverbed's defaults);
 * Flink-state index, bootstrapped from the table as each job starts without state. The table is made
 * by one job inserting {@code bench.flink.aging.keys} keys. Between measurements it ages through the
 * core ({@link #ageTable}: small delta commits written as a writer task writes them, a compaction
 * after every fifth, cleaning and archival after each, with the job's options) until it has the next
 * age's number of commits (completed delta commits and compactions, archived ones included). The
 * measured job: {@code bench.flink.aging.updates} updates of uniformly chosen existing keys at
 * {@code bench.flink.aging.rate} records/s, checkpoints every {@code bench.flink.aging.checkpoint.interval},
 * parallelism 2. Its commit durations are the write coordinator's {@code lastCommitDurationMs} after
 * each commit, its checkpoint durations Flink's {@code lastCheckpointDuration} after each completed
 * checkpoint (sampled from an in-memory metric reporter every 5 ms).
 */
class FlinkAgingBenchmark {
  private final int[] ages = Arrays.stream(System.getProperty("bench.flink.aging.commits", "50,100,300,500").split(","))
      .mapToInt(s -> Integer.parseInt(s.trim())).toArray();
  private final int keys = Integer.getInteger("bench.flink.aging.keys", 20_000);
  private final int updates = Integer.getInteger("bench.flink.aging.updates", 10_000);
  private final int rate = Integer.getInteger("bench.flink.aging.rate", 2_000);
  private final String interval = System.getProperty("bench.flink.aging.checkpoint.interval", "500ms");
  private static final int AGING_KEYS_PER_COMMIT = 20;
  private final Path dir = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath().resolve("flink-aging");
  private long nextTs = FlinkWriteBenchmark.TS0;
  private int runs;

  @Test
  void commitAndCheckpointDurationsAsTheTableAges() throws Exception {
    Report report = new Report(dir.getParent(), "flink-aging");
    BenchFiles.deleteRecursively(dir);
    Files.createDirectories(dir);
    Path schema = Files.writeString(dir.resolve("trips.avsc"), FlinkWriteBenchmark.schema().toString(true));
    Path table = dir.resolve("table");
    report.format("- %d keys in %d partitions; measured job: %d updates at %d records/s, checkpoints every %s, "
            + "parallelism 2; async compaction every 5 delta commits, cleaning and archival with Riverbed's defaults; "
            + "aged between measurements through the core: delta commits of %d updates, compaction every 5, cleaning and "
            + "archival after each", keys, FlinkWriteBenchmark.PARTITIONS, updates, rate, interval, AGING_KEYS_PER_COMMIT);

    Path inserts = dir.resolve("inserts.jsonl");
    writeLines(inserts, keys, true, new Random(1));
    runJob(inserts, schema, table, "1s", 0, null);

    report.line("");
    report.line("| age: commits before the measured job | active timeline instants | archived commits | commits measured "
        + "| commit ms: median (min–max) | checkpoints measured | checkpoint ms: median (min–max) | job s | load |");
    report.line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    List<Samples> commitsAt = new ArrayList<>();
    List<Samples> checkpointsAt = new ArrayList<>();
    List<Integer> measuredAges = new ArrayList<>();
    for (int age : ages) {
      TimelineSize size = TimelineSize.of(table);
      if (size.commits() < age) {
        long start = System.nanoTime();
        int made = ageTable(table, schema, age - size.commits(), new Random(age));
        System.out.printf(Locale.ROOT, "[bench] aged by %d commits in %.1f s%n", made, (System.nanoTime() - start) / 1e9);
        size = TimelineSize.of(table);
      }
      Path measured = dir.resolve("updates-" + age + ".jsonl");
      writeLines(measured, updates, false, new Random(7));
      JobDurations durations = new JobDurations();
      double load = Report.loadAverage();
      long start = System.nanoTime();
      runJob(measured, schema, table, interval, rate, durations);
      double seconds = (System.nanoTime() - start) / 1e9;
      report.format("| %d | %d | %d | %d | %.0f (%.0f–%.0f) | %d | %.0f (%.0f–%.0f) | %.1f | %.1f |", size.commits(),
          size.activeInstants(), size.archivedCommits(), durations.commitMillis.size(), durations.commitMillis.median(),
          durations.commitMillis.min(), durations.commitMillis.max(), durations.checkpointMillis.size(),
          durations.checkpointMillis.median(), durations.checkpointMillis.min(), durations.checkpointMillis.max(), seconds,
          load);
      System.out.printf(Locale.ROOT, "[bench] age %d commits: commit ms %s, checkpoint ms %s%n", size.commits(),
          durations.commitMillis.values(), durations.checkpointMillis.values());
      commitsAt.add(durations.commitMillis);
      checkpointsAt.add(durations.checkpointMillis);
      measuredAges.add(size.commits());
    }
    int last = commitsAt.size() - 1;
    report.line("");
    report.format("- commit duration at %d commits / at %d: ratio of medians **%.2f** (acceptance: at most 1.2)",
        measuredAges.get(last), measuredAges.get(0), commitsAt.get(last).median() / commitsAt.get(0).median());
    report.format("- checkpoint duration at %d commits / at %d: ratio of medians **%.2f** (acceptance: at most 1.2)",
        measuredAges.get(last), measuredAges.get(0), checkpointsAt.get(last).median() / checkpointsAt.get(0).median());
    FlinkWriteBenchmark.TableFacts facts = FlinkWriteBenchmark.TableFacts.of(table);
    report.format("- the table at the end: %d live records (expected %d), %d base files, %d log files; %d active delta "
        + "commits, %d active compactions", facts.liveRecords(), keys, facts.baseFiles(), facts.logFiles(),
        facts.deltaCommits(), facts.compactions());
    report.line("- written to " + report.write());
    if (facts.liveRecords() != keys) {
      throw new AssertionError("table holds " + facts.liveRecords() + " records, expected " + keys);
    }
  }

  /**
   * JSON lines: {@code n} inserts of keys 0..n-1, or {@code n} updates of uniformly chosen keys; the
   * ordering value grows across every file written, so each update wins over what the table holds.
   */
  private void writeLines(Path file, long n, boolean insert, Random random) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      StringBuilder line = new StringBuilder(320);
      for (long i = 0; i < n; i++) {
        long key = insert ? i : random.nextInt(keys);
        line.setLength(0);
        FlinkWriteBenchmark.appendTripLine(line, key, nextTs++, i);
        out.append(line);
      }
    }
  }

  /**
   * Ages the table by {@code commits} commits through the core, as a writer task and the job's table
   * services make them, without Flink (a checkpoint per commit would take minutes on a busy machine):
   * delta commits of {@value #AGING_KEYS_PER_COMMIT} updates of random keys (each written to the file
   * group the table holds it in), a compaction scheduled and run after every fifth, cleaning and
   * archival after each commit, all with the options the measured job runs with.
   *
   * @return the commits made (a compaction may take the count one past {@code commits})
   */
  private int ageTable(Path tablePath, Path schemaFile, int commits, Random random) throws IOException {
    WriteJobConfig config = WriteJobArguments.parse(jobArgs(schemaFile, schemaFile, tablePath, "1s", 0));
    Map<String, String> raw = new HashMap<>(config.tableOptions());
    raw.put(FlinkWriteOptions.PATH, tablePath.toUri().toString());
    FlinkWriteOptions options = FlinkWriteOptions.fromMap(raw);
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(tablePath.toUri());
    Table table = Table.open(base.getFileSystem(new org.apache.hadoop.conf.Configuration()), base);
    Schema schema = TableSchemas.removeMetaFields(TableSchemaResolver.resolve(table, table.refreshTimeline()).orElseThrow());
    SingleTaskEngine engine = new SingleTaskEngine(table, schema, options.writeOptions());
    Map<String, FileGroupId> groups = fileGroupsByKey(table);
    engine.index().putAll(groups);
    Map<String, String> partitionByKey = new HashMap<>();
    groups.forEach((key, group) -> partitionByKey.put(key, group.partitionPath()));
    List<String> keysOfTable = new ArrayList<>(groups.keySet());
    TableService cleaning = TableService.cleaning(options.cleanOptions());
    TableService archiving = TableService.archiving(options.archiveOptions());
    int made = 0;
    int deltaCommits = 0;
    while (made < commits) {
      List<WriteRecord> batch = new ArrayList<>();
      for (int i = 0; i < AGING_KEYS_PER_COMMIT; i++) {
        String key = keysOfTable.get(random.nextInt(keysOfTable.size()));
        batch.add(WriteRecord.upsert(key, groups.get(key).partitionPath(), agingRecord(schema, key, partitionByKey, random), nextTs));
        nextTs++;
      }
      engine.write(WriteOperationType.UPSERT, batch, Map.of());
      made++;
      if (++deltaCommits % 5 == 0) {
        var scheduled = CompactionScheduler.of(table).options(options.compactionOptions()).execute();
        if (scheduled.isScheduled()) {
          CompactionRunner.of(table, scheduled.instantTime().orElseThrow()).options(options.compactionOptions()).execute();
          made++;
        }
      }
      cleaning.run(table);
      archiving.run(table);
    }
    return made;
  }

  /** Each key of the table's snapshot and the file group that holds it. */
  private static Map<String, FileGroupId> fileGroupsByKey(Table table) {
    QueryPlan plan = QueryPlanner.plan(table, QuerySpec.snapshot());
    SplitReader reader = SplitReader.of(plan, ReadSettings.defaults());
    Schema keyOnly = SchemaBuilder.record("k").fields().optionalString(MetaFields.RECORD_KEY).endRecord();
    Map<String, FileGroupId> out = new HashMap<>();
    for (Split split : plan.splits()) {
      try (CloseableIterator<GenericRecord> it = reader.read(split, Optional.of(keyOnly))) {
        while (it.hasNext()) {
          out.put(it.next().get(MetaFields.RECORD_KEY).toString(), split.slice().fileGroupId());
        }
      }
    }
    return out;
  }

  /** An update of {@code key}: its uuid and partition fields kept (from the key's partition path), the rest new. */
  private GenericRecord agingRecord(Schema schema, String key, Map<String, String> partitionOf, Random random) {
    GenericRecordBuilder record = new GenericRecordBuilder(schema);
    for (Schema.Field field : schema.getFields()) {
      Schema type = field.schema().getType() == Schema.Type.UNION
          ? field.schema().getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElseThrow()
          : field.schema();
      record.set(field, switch (type.getType()) {
        case STRING -> "v" + random.nextInt(10_000);
        case LONG -> nextTs;
        case INT -> random.nextInt(3600);
        case DOUBLE -> random.nextInt(10_000) / 100.0;
        default -> throw new IllegalStateException("trips schema field " + field);
      });
    }
    record.set("uuid", key);
    String[] partition = partitionOf.get(key).split("/");
    record.set("region", partition[0]);
    record.set("country", partition[1]);
    record.set("city", partition[2]);
    return record.build();
  }

  private JobExecutionResult runJob(Path input, Path schema, Path table, String checkpointInterval, int rateLimit,
      JobDurations durations) throws Exception {
    WriteJobConfig config = WriteJobArguments.parse(jobArgs(input, schema, table, checkpointInterval, rateLimit));
    if (durations == null) {
      return WriteJob.run(config, TableSinkBuilder.tableWriter());
    }
    InMemoryReporter reporter = InMemoryReporter.createWithRetainedMetrics();
    Configuration conf = reporter.addToConfiguration(WriteJob.flinkConfiguration(config));
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "aging-metrics-sampler");
      t.setDaemon(true);
      return t;
    });
    sampler.scheduleWithFixedDelay(() -> durations.sample(reporter), 5, 5, TimeUnit.MILLISECONDS);
    try {
      return WriteJob.run(config, StreamExecutionEnvironment.getExecutionEnvironment(conf), TableSinkBuilder.tableWriter());
    } finally {
      sampler.shutdown();
      sampler.awaitTermination(1, TimeUnit.MINUTES);
      durations.sample(reporter); // the last commit and checkpoint, if they came after the last poll
      reporter.close();
    }
  }

  private String[] jobArgs(Path input, Path schema, Path table, String checkpointInterval, int rateLimit) {
    Path checkpoints = dir.resolve("checkpoints").resolve("run-" + (++runs));
    List<String> args = new ArrayList<>(List.of(
        "--source", "file", "--input", input.toString(), "--schema", schema.toString(),
        "--table-path", table.toString(), "--table-name", "trips", "--table-type", "MERGE_ON_READ",
        "--record-key", "uuid", "--precombine", "ts", "--partition-path", "region,country,city",
        "--checkpoint-interval", checkpointInterval, "--parallelism", "2", "--checkpoint-dir", checkpoints.toString(),
        "--set", "compaction.async.enabled=true"));
    if (rateLimit > 0) {
      args.addAll(List.of("--set", "write.rate.limit=" + rateLimit));
    }
    return args.toArray(String[]::new);
  }

  /** The commits of a table (completed delta commits and compactions, archived ones included) and its active instants. */
  record TimelineSize(int commits, int activeInstants, int archivedCommits) {
    static TimelineSize of(Path path) throws IOException {
      org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(path.toUri());
      Table table = Table.open(base.getFileSystem(new org.apache.hadoop.conf.Configuration()), base);
      Timeline active = table.refreshTimeline();
      int archived = ArchivedTimeline.load(table).timeline().commitsTimeline().completed().instants().size();
      return new TimelineSize(active.commitsTimeline().completed().instants().size() + archived,
          active.instants().size(), archived);
    }
  }

  /** Commit and checkpoint durations of one job, read from its metrics whenever their counters move. */
  static final class JobDurations {
    final Samples commitMillis = new Samples("commit ms");
    final Samples checkpointMillis = new Samples("checkpoint ms");
    private Map<String, Metric> coordinator = Map.of();
    private Map<String, Metric> checkpoints = Map.of();
    private long commitsSeen;
    private long checkpointsSeen;

    void sample(InMemoryReporter reporter) {
      try {
        if (coordinator.isEmpty()) {
          coordinator = group(reporter, "numCommits", "lastCommitDurationMs");
        }
        if (checkpoints.isEmpty()) {
          checkpoints = group(reporter, "numberOfCompletedCheckpoints", "lastCheckpointDuration");
        }
      } catch (ConcurrentModificationException e) {
        return; // the job is registering its metrics: look again at the next poll
      }
      if (!coordinator.isEmpty()) {
        long commits = ((Counter) coordinator.get("numCommits")).getCount();
        if (commits != commitsSeen) {
          commitsSeen = commits;
          commitMillis.add(((Number) ((Gauge<?>) coordinator.get("lastCommitDurationMs")).getValue()).doubleValue());
        }
      }
      if (!checkpoints.isEmpty()) {
        long completed = ((Number) ((Gauge<?>) checkpoints.get("numberOfCompletedCheckpoints")).getValue()).longValue();
        if (completed != checkpointsSeen) {
          checkpointsSeen = completed;
          checkpointMillis.add(((Number) ((Gauge<?>) checkpoints.get("lastCheckpointDuration")).getValue()).doubleValue());
        }
      }
    }

    /** The metric group holding every one of {@code names}; empty before the job registered them. */
    private static Map<String, Metric> group(InMemoryReporter reporter, String... names) {
      for (Map<String, Metric> group : reporter.getMetricsByGroup().values()) {
        if (Arrays.stream(names).allMatch(group::containsKey)) {
          return group;
        }
      }
      return Map.of();
    }
  }
}
