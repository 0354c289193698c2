package io.riverbed.it.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.Split;
import io.riverbed.format.query.SplitReader;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.Await;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CleanMetadata;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.commit.TableCommitter;
import io.riverbed.it.flink.TableHealthSampler.Sample;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table-services issue's acceptance run ("table health"): a streaming MERGE_ON_READ job with
 * async compaction every 5 delta commits, cleaning that retains 10 commits and archival at 20/30
 * writes a steady stream ({@link FlinkTrips#steady}: a fixed key set, so every file group gets
 * logs in every commit; late changes the index drops; deletes and re-inserts), one chunk per
 * 100 ms checkpoint, each following as soon as the barrier passed (the next instant is open when
 * the last one commits), through the real Flink writer in a child JVM ({@code ChunkedStreamJob}:
 * the write job's flags and configuration, a chunked source). A thread of this JVM samples the table
 * while it runs ({@link TableHealthSampler}); the job's commit durations come from its
 * coordinator's {@code lastCommitDurationMs}. Checked:
 *
 * <ul>
 *   <li>data bytes on disk stay under {@value #MAX_DISK_TO_SNAPSHOT} times those of the latest
 *       snapshot after the warm-up, and the active timeline holds at most {@code archive.max_commits}
 *       + {@value #ROUND_SLACK} completed commits;
 *   <li>compactions complete while data flows (in the first and in the last window), cleans and
 *       archivals run;
 *   <li>snapshot planning (CPU time of the core's planner in this JVM) and commit time (the job's,
 *       corrected for how busy the machine got, by the probe) of the last window are at most
 *       {@value #MAX_GROWTH} times those of the first window after the warm-up (medians);
 *   <li>the final table equals the model through the core reader and Apache Hudi 0.15's reader;
 *       Hudi's time travel to retained instants equals the model there; Hudi's incremental
 *       queries from an archived instant answer as Hudi 0.15's {@code MergeOnReadIncrementalRelation}
 *       answers on any table it cleaned and archived ({@link #hudiIncrementalFromArchivedTimeAnswersAsHudiDoesOnTablesItCleanedAndArchived}).
 * </ul>
 *
 * <p>Profiles: the default (in {@code mvn verify}) writes 60 chunks (3,000 keys, then 300 changes
 * per chunk); {@code -Driverbed.soak=long} writes 400 chunks (6,000 keys), and its figures are in
 * docs/PERFORMANCE.md. Either profile writes its figures to {@code target/table-health-<profile>.md}.
 */
class TableHealthRunTest {
  /** Data bytes on disk over the latest snapshot's (why 4: docs/PERFORMANCE.md, "Table health"). */
  static final double MAX_DISK_TO_SNAPSHOT = 4.0;
  /** Completed commits over {@code archive.max_commits} a round of the table services in flight may leave. */
  static final int ROUND_SLACK = 10;
  static final double MAX_GROWTH = 1.5;
  static final int MIN_COMMITS = 20;
  static final int MAX_COMMITS = 30;
  static final int RETAIN_COMMITS = 10;
  static final int COMPACTION_DELTA_COMMITS = 5;

  /**
   * What a run writes (chunks: the keys' inserts, then {@code perChunk} changes each), how often it
   * samples (every {@code sampleEvery} delta commits), its windows (delta commits) and how many
   * retained instants Hudi reads by time travel (0: all).
   */
  record Profile(String name, int keys, int chunks, int perChunk, int sampleEvery, int warmUp, int window,
      int timeTravels) {
    static Profile current() {
      return "long".equals(System.getProperty("riverbed.soak"))
          ? new Profile("long", 6_000, 400, 300, 4, 60, 60, 0)
          : new Profile("short", 3_000, 60, 300, 2, 20, 20, 3);
    }
  }

  static final Profile PROFILE = Profile.current();

  /** Kept when a test fails: the table, the job's log and the positions and metrics logs are what to look at. */
  @TempDir(cleanup = CleanupMode.ON_SUCCESS) static Path work;
  static Path tablePath;
  static Table table;
  static FlinkTrips trips;
  static List<Integer> chunkEnds;
  static List<Sample> samples;
  /** numCommits → {lastCommitDurationMs, lastCleanDurationMs, lastArchiveDurationMs, pendingCompactionPlans}. */
  static TreeMap<Long, long[]> commitMetrics;
  /** Completed delta commits of the active timeline → the chunks their checkpoint covered, for the newest instant of a checkpoint. */
  static Map<String, Integer> chunksOf;
  static String loadAtStart;
  static String loadAtEnd;
  static double jobSeconds;

  @BeforeAll
  static void streamIntoTheTable() throws Exception {
    loadAtStart = uptime();
    trips = FlinkTrips.steady(20_261_202L, PROFILE.keys(), (PROFILE.chunks() - 1) * PROFILE.perChunk());
    chunkEnds = trips.writeChunks(work.resolve("chunks"), PROFILE.keys(), PROFILE.perChunk());
    tablePath = work.resolve("health");
    Path positions = work.resolve("positions.log");
    Path metrics = work.resolve("commit-metrics.log");
    List<String> args = new ArrayList<>(List.of(positions.toString(), metrics.toString()));
    args.addAll(FlinkTrips.jobFlags(work.resolve("chunks"), FlinkTrips.writeSchema(work.resolve("trip.avsc")),
        tablePath, "MERGE_ON_READ", "100ms"));
    args.addAll(List.of("--parallelism", "2", "--checkpoint-dir", work.resolve("checkpoints").toString(),
        "--set", "compaction.async.enabled=true",
        "--set", "compaction.delta_commits=" + COMPACTION_DELTA_COMMITS,
        "--set", "clean.retain_commits=" + RETAIN_COMMITS,
        "--set", "archive.min_commits=" + MIN_COMMITS,
        "--set", "archive.max_commits=" + MAX_COMMITS,
        // buffers flush within a chunk: a writer begins its instant early, as in any steady stream
        "--set", "write.batch.size=0.02"));
    Path jobs = Files.createDirectories(work.resolve("jobs"));
    Path log = jobs.resolve("chunked-stream.log");
    long start = System.nanoTime();
    Process job = WriteJobProcess.start(jobs, WriteJobProcess.testClasspath(), "io.riverbed.flink.job.ChunkedStreamJob",
        args, log);
    TableHealthSampler watched;
    try {
      try (TableHealthSampler sampler = TableHealthSampler.start(tablePath, PROFILE.sampleEvery(),
          Await.alive(job, "the chunked stream job", () -> WriteJobProcess.tail(log)))) {
        watched = sampler;
        WriteJobProcess.awaitExit(job, jobs, log, WriteJobProcess.HANG_LIMIT, List.of("chunked stream", tablePath.toString()));
        jobSeconds = (System.nanoTime() - start) / 1e9;
      }
    } finally {
      job.destroyForcibly();
    }
    samples = watched.samples();
    loadAtEnd = uptime();
    table = Table.open(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(tablePath.toUri()));
    commitMetrics = commitMetrics(metrics);
    chunksOf = chunksOfDeltaCommits(positions);
    String report = report();
    System.out.println(report);
    Files.writeString(Files.createDirectories(Path.of("target")).resolve("table-health-" + PROFILE.name() + ".md"),
        report, StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- while it ran

  @Test
  void dataOnDiskStaysWithinASmallMultipleOfTheLatestSnapshot() {
    assertThat(samples.size()).as("samples").isGreaterThanOrEqualTo(PROFILE.chunks() / PROFILE.sampleEvery() / 2);
    // while data flowed: after its last delta commit a bounded job compacts once more as it ends, and
    // the table services run after the writer's commits only, so none cleans what that compaction superseded
    List<Sample> steady = afterWarmUp().stream().filter(s -> s.deltaCommits() < lastDeltaCommits()).toList();
    assertThat(steady).hasSizeGreaterThanOrEqualTo(5);
    assertThat(steady).allSatisfy(s -> assertThat(s.diskToSnapshot())
        .as("data on disk / latest snapshot at %d delta commits: %s", s.deltaCommits(), s)
        .isLessThanOrEqualTo(MAX_DISK_TO_SNAPSHOT));
    Sample first = steady.get(0);
    Sample last = steady.get(steady.size() - 1);
    assertThat(last.diskFiles()).as("data files on disk at the end against after the warm-up")
        .isLessThanOrEqualTo((int) (first.diskFiles() * MAX_GROWTH) + first.fileGroups());
  }

  @Test
  void activeTimelineStaysWithinTheArchivalBounds() {
    assertThat(samples).allSatisfy(s -> assertThat(s.activeCommits())
        .as("completed commits in the active timeline at %d delta commits", s.deltaCommits())
        .isLessThanOrEqualTo(MAX_COMMITS + ROUND_SLACK));
    Sample last = samples.get(samples.size() - 1);
    int allCommits = last.deltaCommits() + last.compactions();
    assertThat(last.archived()).as("archived instants after %d commits", allCommits)
        .isGreaterThanOrEqualTo(allCommits - MAX_COMMITS - ROUND_SLACK);
    List<Instant> archivedWrites = ArchivedTimeline.load(table).timeline().commitsTimeline().completed().instants();
    Set<String> active = new HashSet<>(activeTimeline().commitsTimeline().completed().times());
    assertThat(archivedWrites).as("commits both archived and active").noneMatch(i -> active.contains(i.time()));
  }

  @Test
  void compactionsCleansAndArchivalsRunWhileDataFlows() {
    Sample last = samples.get(samples.size() - 1);
    assertThat(last.compactions()).as("compactions completed for %d delta commits", last.deltaCommits())
        .isGreaterThanOrEqualTo(last.deltaCommits() / (2 * COMPACTION_DELTA_COMMITS));
    assertThat(compactionsIn(firstWindow())).as("compactions completed in the first window").isPositive();
    assertThat(compactionsIn(lastWindow())).as("compactions completed in the last window").isPositive();
    assertThat(last.cleans()).as("cleans").isGreaterThanOrEqualTo(last.deltaCommits() / (2 * COMPACTION_DELTA_COMMITS));
    assertThat(last.archiveFiles()).as("archivals").isGreaterThanOrEqualTo(2);
    long stale = activeTimeline().ofAction(Action.DELTA_COMMIT).completed().instants().stream()
        .map(i -> metadata(i).extraMetadata().get(TableCommitter.STALE_RECORDS_KEY)).filter(v -> v != null)
        .mapToLong(Long::parseLong).sum();
    assertThat(stale).as("late changes the index dropped (active delta commits)").isPositive();
  }

  @Test
  void planningAndCommitTimeDoNotGrowWithTheNumberOfCommits() {
    double planFirst = median(firstWindow(), Sample::planCpuMillis);
    double planLast = median(lastWindow(), Sample::planCpuMillis);
    assertThat(planLast).as("median CPU ms of planning a snapshot, last window against first (%.2f)", planFirst)
        .isLessThanOrEqualTo(MAX_GROWTH * planFirst);
    double busier = Math.max(1, median(lastWindow(), Sample::probeMillis) / median(firstWindow(), Sample::probeMillis));
    double commitFirst = commitMillis(PROFILE.warmUp(), PROFILE.warmUp() + PROFILE.window());
    double commitLast = commitMillis(lastDeltaCommits() - PROFILE.window(), lastDeltaCommits() + 1);
    assertThat(commitLast).as("median commit ms, last window against first (%.1f), the machine %.2f times as busy",
        commitFirst, busier).isLessThanOrEqualTo(MAX_GROWTH * busier * commitFirst + 2);
  }

  // ---------------------------------------------------------------- the table at the end

  @Test
  void finalTableEqualsTheModelThroughTheCoreReaderAndHudi() {
    Rows expected = trips.expected();
    HudiReadsFlinkTablesTest.riverbed(tablePath, Query.snapshot()).withoutMetaColumns()
        .assertSameAs(expected.withoutMetaColumns(), "core reader snapshot vs model");
    hudiSnapshot().without("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_file_name")
        .assertSameAs(expected, "Hudi 0.15 snapshot vs model");
    assertThat(HudiReadsFlinkTablesTest.incompleteInstants(tablePath)).as("incomplete instants").isEmpty();
  }

  @Test
  void hudiTimeTravelInsideRetentionEqualsTheModel() {
    String retained = earliestRetained();
    // retained instant → the chunks the table holds as of it (a compaction: those of the delta commit before it)
    Map<Instant, Integer> checkable = new LinkedHashMap<>();
    int chunks = -1;
    for (Instant w : activeTimeline().commitsTimeline().completed().instants()) {
      if (w.action() == Action.DELTA_COMMIT) {
        chunks = chunksOf.getOrDefault(w.time(), -1);
      }
      if (w.time().compareTo(retained) >= 0 && chunks > 0) {
        checkable.put(w, chunks);
      }
    }
    List<Instant> checked = pick(new ArrayList<>(checkable.keySet()), PROFILE.timeTravels());
    for (Instant w : checked) {
      int covered = checkable.get(w);
      SparkOracle.asOf(tablePath, w.time()).without("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_file_name")
          .assertSameAs(trips.expected(chunkEnds.get(covered - 1)), "Hudi as of " + w + " (chunks 0.." + (covered - 1)
              + ") vs model");
    }
    System.out.printf("TABLE HEALTH: Hudi time travel to %d of %d retained instants (from %s) equals the model: %s%n",
        checked.size(), checkable.size(), retained, checked);
    assertThat(checkable).as("retained instants whose chunks are known").hasSizeGreaterThanOrEqualTo(RETAIN_COMMITS / 2);
    assertThat(checked).anyMatch(i -> i.action() == Action.COMMIT);
  }

  /** All of {@code instants} ({@code limit} 0), or the first, the last and the first compaction among the rest. */
  private static List<Instant> pick(List<Instant> instants, int limit) {
    if (limit == 0 || instants.size() <= limit) {
      return instants;
    }
    List<Instant> out = new ArrayList<>(List.of(instants.get(0), instants.get(instants.size() - 1)));
    instants.stream().filter(i -> i.action() == Action.COMMIT && !out.contains(i)).findFirst().ifPresent(out::add);
    for (int i = 1; i < limit && out.size() < limit; i++) {
      Instant next = instants.get(i * instants.size() / limit);
      if (!out.contains(next)) {
        out.add(next);
      }
    }
    out.sort(null);
    return out;
  }

  /**
   * Hudi 0.15's {@code MergeOnReadIncrementalRelation} (what {@code DefaultSource} answers an
   * incremental query on a MERGE_ON_READ table with) on a range whose begin B is older than the
   * active timeline ({@code startInstantArchived}), end E in it:
   *
   * <ul>
   *   <li>{@code hoodie.datasource.read.incr.fallback.fulltablescan.enable=false} (the default):
   *       the commits it includes are the active completed ones in (B, E]; it builds a file system
   *       view of only the files their metadata names, takes the latest merged slice of each file
   *       group as of E, merges it and keeps the rows whose {@code _hoodie_commit_time} is in
   *       (B, E] (not {@code >= first included}, as B is archived). A row whose version an archived
   *       commit wrote is returned only if an included compaction rewrote its file group; a slice
   *       whose files a clean deleted fails the read.
   *   <li>{@code ...enable=true}: {@code fullTableScan} (B archived): the latest slices of the whole
   *       table (as of its last instant, not E), rows with a commit time in (B, E]; and of those
   *       slices only the base files: the relation's file index lists no log files
   *       ({@code HoodieBaseRelation.shouldIncludeLogFiles} is false, only
   *       {@code MergeOnReadSnapshotRelation} says true), so it answers with the read-optimized view.
   * </ul>
   *
   * These are Hudi's answers on any table cleaned and archived this way, its own included; they are
   * built here from Hudi's own snapshot and time travel (whose data the other tests check against
   * the model), the file groups the core's planner reads as of E, and the commits' metadata.
   */
  @Test
  void hudiIncrementalFromArchivedTimeAnswersAsHudiDoesOnTablesItCleanedAndArchived() {
    List<String> archivedWrites = ArchivedTimeline.load(table).timeline().commitsTimeline().completed().times();
    assertThat(archivedWrites).as("archived commits").hasSizeGreaterThanOrEqualTo(3);
    String begin = archivedWrites.get(archivedWrites.size() - 3);
    List<Instant> active = activeTimeline().commitsTimeline().completed().instants();
    String firstActive = active.get(0).time();
    String latest = active.get(active.size() - 1).time();
    String retained = earliestRetained();
    List<String> retainedWrites = active.stream().map(Instant::time).filter(t -> t.compareTo(retained) >= 0)
        .filter(t -> !t.equals(latest)).toList();
    String middle = retainedWrites.get(retainedWrites.size() / 2);
    Rows latestBaseFiles = SparkOracle.readOptimized(tablePath).withoutPhysicalMetaColumns();

    Map<String, String> report = new LinkedHashMap<>();
    for (String end : List.of(latest, middle)) {
      Rows asOfEnd = end.equals(latest) ? hudiSnapshot() : SparkOracle.asOf(tablePath, end);
      Rows withoutFallback = slicesOfIncludedCommits(begin, end, firstActive, asOfEnd.withoutPhysicalMetaColumns());
      Rows fullScan = commitTimeIn(latestBaseFiles, begin, end);
      incremental(begin, end, false).assertSameAs(withoutFallback, "Hudi incremental (" + begin + ", " + end
          + "], no fallback");
      incremental(begin, end, true).assertSameAs(fullScan, "Hudi incremental (" + begin + ", " + end
          + "], full-table-scan fallback");
      Rows ideal = commitTimeIn(asOfEnd.withoutPhysicalMetaColumns(), begin, end);
      report.put(end, String.format("%d rows without fallback (%d of the changes of the range missing), %d with it (%d)",
          withoutFallback.size(), ideal.minus(withoutFallback).size(), fullScan.size(), ideal.minus(fullScan).size()));
    }

    // The first active commit is outside the clean's retention: the slices it wrote are gone, so Hudi
    // fails without the fallback (as on a table it cleaned) and scans the whole table with it.
    List<String> gone = metadata(active.get(0)).writeStats().stream().map(WriteStat::path)
        .filter(p -> !Files.exists(tablePath.resolve(p))).toList();
    assertThat(gone).as("files of %s (outside the retention of %s) the cleaner deleted", active.get(0), retained)
        .isNotEmpty();
    assertThatThrownBy(() -> incremental(begin, firstActive, false)).as("Hudi incremental (%s, %s] without fallback",
        begin, firstActive).satisfies(e -> assertThat(messages(e)).containsAnyOf(gone.stream()
            .map(p -> Path.of(p).getFileName().toString()).toArray(String[]::new)));
    Rows fullScan = commitTimeIn(latestBaseFiles, begin, firstActive);
    incremental(begin, firstActive, true).assertSameAs(fullScan, "Hudi incremental (" + begin + ", " + firstActive
        + "], full-table-scan fallback");
    report.put(firstActive, "fails without fallback (" + gone.size() + " files cleaned), " + fullScan.size()
        + " rows with it");
    System.out.printf("TABLE HEALTH: Hudi incremental from archived %s (first active %s, earliest retained %s): %s%n",
        begin, firstActive, retained, report);
  }

  // ---------------------------------------------------------------- Hudi's incremental answers, modelled

  private static Rows hudiLatest;

  /** Hudi's snapshot of the table the job left, read once. */
  private static synchronized Rows hudiSnapshot() {
    if (hudiLatest == null) {
      hudiLatest = SparkOracle.snapshot(tablePath);
    }
    return hudiLatest;
  }

  /** Hudi's incremental answer (begin, end] with or without the full-table-scan fallback, without layout columns. */
  private static Rows incremental(String begin, String end, boolean fallback) {
    var frame = SparkOracle.spark().read().format(SparkOracle.HUDI_SOURCE)
        .options(Query.incremental(begin, end).hudiOptions())
        .option("hoodie.datasource.read.incr.fallback.fulltablescan.enable", Boolean.toString(fallback))
        .load(tablePath.toUri().toString());
    return SparkOracle.canonicalRows(frame).withoutPhysicalMetaColumns();
  }

  /** The rows of {@code rows} with a commit time in (begin, end]. */
  private static Rows commitTimeIn(Rows rows, String begin, String end) {
    return rows.filter(r -> {
      String t = r.get("_hoodie_commit_time").asText();
      return t.compareTo(begin) > 0 && t.compareTo(end) <= 0;
    });
  }

  /**
   * Without the fallback: of the table as of {@code end}, the rows with a commit time in
   * (begin, end] that the files of the included (active) commits hold: a version an active commit
   * wrote, or any version in a file group an active compaction up to {@code end} rewrote.
   */
  private static Rows slicesOfIncludedCommits(String begin, String end, String firstActive, Rows asOfEnd) {
    Set<String> compacted = new HashSet<>();
    for (Instant i : activeTimeline().ofAction(Action.COMMIT).completed().instants()) {
      if (i.time().compareTo(end) <= 0) {
        metadata(i).writeStats().forEach(s -> compacted.add(s.fileId()));
      }
    }
    Map<String, String> groupOf = fileGroupsAsOf(end);
    return commitTimeIn(asOfEnd, begin, end).filter(r -> r.get("_hoodie_commit_time").asText().compareTo(firstActive) >= 0
        || compacted.contains(groupOf.get(r.get("_hoodie_record_key").asText())));
  }

  /** Record key → file id of the table as of {@code instant}, read split by split with the core's reader. */
  private static Map<String, String> fileGroupsAsOf(String instant) {
    QueryPlan plan = QueryPlanner.plan(table, QuerySpec.asOf(instant));
    SplitReader reader = SplitReader.of(plan, ReadSettings.defaults());
    Map<String, String> out = new HashMap<>();
    for (Split split : plan.splits()) {
      try (var records = reader.read(split, Optional.empty())) {
        records.forEachRemaining((GenericRecord r) -> out.put(r.get("_hoodie_record_key").toString(), split.slice().fileId()));
      }
    }
    return out;
  }

  private static String messages(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.append(t).append('\n');
    }
    return out.toString();
  }

  // ---------------------------------------------------------------- the run's records

  private static Timeline activeTimeline() {
    return table.refreshTimeline();
  }

  private static CommitMetadata metadata(Instant instant) {
    TimelineStore store = table.timelineStore();
    return CommitMetadata.fromJson(store.read(instant), instant.toString());
  }

  /** The earliest commit the newest completed clean retained. */
  private static String earliestRetained() {
    Instant clean = activeTimeline().ofAction(Action.CLEAN).completed().last()
        .orElseThrow(() -> new AssertionError("no completed clean in the active timeline of " + tablePath));
    String retained = CleanMetadata.fromBytes(table.timelineStore().read(clean), clean.toString()).earliestCommitToRetain();
    assertThat(retained).as("earliest commit retained by %s", clean).isNotEmpty();
    return retained;
  }

  /**
   * The chunks each active delta commit holds, for the newest delta commit committed at its
   * checkpoint: what the source recorded for that checkpoint, or every chunk for a checkpoint taken
   * after it finished.
   */
  private static Map<String, Integer> chunksOfDeltaCommits(Path positionsLog) throws IOException {
    Map<Long, Integer> positions = new HashMap<>();
    for (String line : Files.readAllLines(positionsLog, StandardCharsets.UTF_8)) {
      String[] f = line.trim().split(" ");
      if (f.length == 2) {
        positions.put(Long.parseLong(f[0]), Integer.parseInt(f[1]));
      }
    }
    Map<String, Integer> out = new HashMap<>();
    Map<Long, String> newest = new TreeMap<>();
    for (Instant i : activeTimeline().ofAction(Action.DELTA_COMMIT).completed().instants()) {
      newest.put(Long.parseLong(metadata(i).extraMetadata().get(TableCommitter.IDENTIFIER_KEY)), i.time());
    }
    newest.forEach((checkpoint, time) -> out.put(time, positions.getOrDefault(checkpoint, chunkEnds.size())));
    return out;
  }

  private static TreeMap<Long, long[]> commitMetrics(Path log) throws IOException {
    TreeMap<Long, long[]> out = new TreeMap<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      String[] f = line.trim().split(" ");
      if (f.length == 6) {
        out.put(Long.parseLong(f[0]), new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
            Long.parseLong(f[4])});
      }
    }
    return out;
  }

  private static int lastDeltaCommits() {
    return samples.get(samples.size() - 1).deltaCommits();
  }

  private static List<Sample> afterWarmUp() {
    return samples.stream().filter(s -> s.deltaCommits() >= PROFILE.warmUp()).toList();
  }

  private static List<Sample> window(int from, int to) {
    return samples.stream().filter(s -> s.deltaCommits() >= from && s.deltaCommits() < to).toList();
  }

  private static List<Sample> firstWindow() {
    return window(PROFILE.warmUp(), PROFILE.warmUp() + PROFILE.window());
  }

  private static List<Sample> lastWindow() {
    return window(lastDeltaCommits() - PROFILE.window(), lastDeltaCommits() + 1);
  }

  /** Compactions completed between the first and the last sample of {@code window}. */
  private static int compactionsIn(List<Sample> window) {
    assertThat(window).hasSizeGreaterThanOrEqualTo(2);
    return window.get(window.size() - 1).compactions() - window.get(0).compactions();
  }

  private static double median(List<Sample> window, ToDoubleFunction<Sample> f) {
    assertThat(window).as("samples of a window").hasSizeGreaterThanOrEqualTo(5);
    return TableHealthSampler.median(window.stream().map(s -> f.applyAsDouble(s)).toList());
  }

  /** Median duration of the commits numbered [from, to) by the coordinator (a restarted job counts anew). */
  private static double commitMillis(int from, int to) {
    List<Double> values = commitMetrics.subMap((long) from, (long) to).values().stream().map(v -> (double) v[0]).toList();
    assertThat(values).as("commit durations of commits %d..%d", from, to).hasSizeGreaterThanOrEqualTo(5);
    return TableHealthSampler.median(values);
  }

  private static String uptime() {
    try {
      Process p = new ProcessBuilder("uptime").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      p.waitFor();
      return out.substring(out.indexOf("load average"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "?";
    }
  }

  /** The run's figures per window, as the table docs/PERFORMANCE.md shows. */
  private static String report() {
    StringBuilder out = new StringBuilder();
    Sample last = samples.get(samples.size() - 1);
    out.append(String.format("Table health run, profile %s: %d chunks (%d keys, then %d changes each), job %.1f s; "
            + "%s at start, %s at end%n%n", PROFILE.name(), chunkEnds.size(), PROFILE.keys(), PROFILE.perChunk(),
        jobSeconds, loadAtStart, loadAtEnd));
    out.append("| delta commits | samples | disk/snapshot max (median) | data files on disk max | snapshot files | "
        + "active commits max | archived at end | compactions | cleans | archivals | commit ms median (max) | "
        + "plan CPU ms median | plan wall ms median | probe ms median |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    int step = PROFILE.window();
    Sample before = null;
    for (int from = 0; from <= last.deltaCommits(); from += step) {
      List<Sample> w = window(from, from + step);
      if (w.isEmpty()) {
        continue;
      }
      Sample end = w.get(w.size() - 1);
      List<Double> commits = commitMetrics.subMap((long) from, (long) from + step).values().stream()
          .map(v -> (double) v[0]).toList();
      out.append(String.format("| %d–%d | %d | %.2f (%.2f) | %d | %d | %d | %d | %d | %d | %d | %.0f (%.0f) | %.1f | %.1f | %.1f |%n",
          from, from + step - 1, w.size(), max(w, Sample::diskToSnapshot), med(w, Sample::diskToSnapshot),
          (int) max(w, Sample::diskFiles), end.snapshotFiles(), (int) max(w, Sample::activeCommits), end.archived(),
          end.compactions() - (before == null ? 0 : before.compactions()),
          end.cleans() - (before == null ? 0 : before.cleans()),
          end.archiveFiles() - (before == null ? 0 : before.archiveFiles()),
          TableHealthSampler.median(commits), commits.stream().mapToDouble(d -> d).max().orElse(Double.NaN),
          med(w, Sample::planCpuMillis), med(w, Sample::planWallMillis), med(w, Sample::probeMillis)));
      before = end;
    }
    out.append(String.format("%nAt the end: %d delta commits, %d compactions, %d cleans, %d archive files; %d data files "
            + "(%d bytes) on disk for a snapshot of %d files (%d bytes) in %d file groups; %d completed commits active, "
            + "%d instants archived.%n", last.deltaCommits(), last.compactions(), last.cleans(), last.archiveFiles(),
        last.diskFiles(), last.diskBytes(), last.snapshotFiles(), last.snapshotBytes(), last.fileGroups(),
        last.activeCommits(), last.archived()));
    Function<Integer, Double> serviceMs = i -> TableHealthSampler.median(commitMetrics.values().stream()
        .map(v -> (double) v[i]).filter(d -> d > 0).toList());
    out.append(String.format("Table services (the job's gauges, sampled per commit): clean median %.0f ms, archive "
        + "median %.0f ms.%n", serviceMs.apply(1), serviceMs.apply(2)));
    return out.toString();
  }

  private static double max(List<Sample> w, ToDoubleFunction<Sample> f) {
    return w.stream().mapToDouble(f).max().orElse(Double.NaN);
  }

  private static double med(List<Sample> w, ToDoubleFunction<Sample> f) {
    return TableHealthSampler.median(w.stream().map(s -> f.applyAsDouble(s)).toList());
  }
}
