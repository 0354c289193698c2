package io.riverbed.flink.sink;

import static io.riverbed.flink.sink.WriterFixtures.ROW_TYPE;
import static io.riverbed.flink.sink.WriterFixtures.assertNoPendingWrites;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.expected;
import static io.riverbed.flink.sink.WriterFixtures.options;
import static io.riverbed.flink.sink.WriterFixtures.read;
import static io.riverbed.flink.sink.WriterFixtures.rows;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.riverbed.flink.commit.WriteCoordinator;
import io.riverbed.flink.job.KillAndRestoreTest;
import io.riverbed.flink.sink.WriterFixtures.Change;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.Await;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A soak, not a forced interleaving: a streaming job writes a generated change stream (updates
 * with shuffled ordering values, deletes, partition moves) while a seeded random schedule makes it
 * fail at the named {@link FaultInjection} points (mid-flush, after the flush before the barrier,
 * after a checkpoint before its commit, mid-commit, mid-compaction) and kills TaskManagers of the
 * MiniCluster (a fresh one is started in place of each), all while a second process ({@code sh}
 * spinning) loads the CPU. The job's restart strategy absorbs every failure. Which record a
 * failure lands on depends on timing; the seed fixes what is armed, and the run prints the seed,
 * the faults that fired, the TaskManagers killed and the recoveries.
 *
 * <p>Checked afterwards, with the core's reader:
 * <ul>
 *   <li>the table equals the event-time model of all changes ({@link WriterFixtures#expected})
 *       exactly, and no write instant is left pending;
 *   <li>every completed write instant (deltacommit, or commit of COPY_ON_WRITE) read as of itself
 *       equals the model of the chunks its checkpoint covered. The mapping: {@link ChunkedSource}
 *       emits under the checkpoint lock and records, per checkpoint id, how many chunks it had
 *       emitted before that checkpoint's barrier (aligned checkpoints, so these are exactly the
 *       rows the writers flushed and reported up to that checkpoint). A commit's
 *       {@code riverbed.flink.checkpoint.id} is the checkpoint whose completion (or restore)
 *       committed it; the coordinator commits, oldest first, all instants that checkpoint covers,
 *       so the <em>newest</em> instant committed under checkpoint c holds exactly the chunks
 *       recorded for c, and an older instant committed under the same c holds the chunks of some
 *       earlier completed checkpoint (the prefix is found among the recorded positions; prefixes
 *       never shrink). A checkpoint the source did not snapshot (taken after it finished) covers
 *       every chunk emitted before it;
 *   <li>every compaction commit read as of itself equals the newest deltacommit before it:
 *       compaction does not change the snapshot.
 * </ul>
 *
 * <p>A soak is not part of {@code mvn verify}: the deterministic fault tests ({@link ExactlyOnceJobTest},
 * {@link FaultyStorageJobTest}, {@code job.KillAndRestoreTest}) are. {@code -Driverbed.soak=short}
 * or {@code -Driverbed.soak=long} runs it.
 *
 * <p>Profiles. Short: 30,000 changes in 40 chunks,
 * MERGE_ON_READ with async compaction every 3 delta commits, two armed passes per point (10 armed,
 * at least 6 must fire), 2 TaskManager kills; and a COPY_ON_WRITE run of 20,000 changes. The long
 * profile: 1,000,000 changes in 100 chunks, six armed passes per point (at least 20 must fire),
 * 6 TaskManager kills; and a run of the job in a process of its own ({@link ChaosSoakProcess}, the
 * same stream) killed with SIGKILL after 5 random chunks, each time restarted from the latest
 * retained checkpoint (found as {@code WriteJob --restore latest} finds it), then the same checks.
 * {@code -Driverbed.soak.changes=N} scales either profile down or up (the kill -9 run, say, with
 * {@code -Driverbed.soak=long -Driverbed.soak.changes=30000}):
 *
 * <pre>
 * mvn -B -o -pl flink-writer -am test -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dtest=ChaosSoakTest -Driverbed.soak=long -Driverbed.test.heap=-Xmx6g [-Driverbed.soak.seed=N]
 * </pre>
 *
 * The short profile does not kill the whole process; {@code job.KillAndRestoreTest} does that in
 * {@code mvn verify} (a child JVM running {@code WriteJob} from Kafka, 4 kills).
 */
@EnabledIfSystemProperty(named = "riverbed.soak", matches = "short|long",
    disabledReason = "a soak, run by -Driverbed.soak=short or -Driverbed.soak=long (not part of mvn verify)")
class ChaosSoakTest {
  private static final String[] WRITER_POINTS = {
      FaultInjection.WRITER_DURING_FLUSH, FaultInjection.WRITER_AFTER_FLUSH_BEFORE_BARRIER,
      FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT, FaultInjection.COORDINATOR_DURING_COMMIT};

  static final double UPDATES = 0.30;
  static final double DELETES = 0.02;
  static final double MOVES = 0.01;

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(2).setNumberSlotsPerTaskManager(1).build());

  /** One slot per TaskManager and two writer subtasks: each of the two TaskManagers runs part of the job. */
  private static final int PARALLELISM = 2;
  private static int taskManagersStarted = 2;
  private static final List<Integer> liveTaskManagers = new ArrayList<>(List.of(0, 1));

  @TempDir
  Path dir;

  @AfterEach
  void disarm() {
    FaultInjection.reset();
  }

  /** What a run does; {@code -Driverbed.soak=long} selects the long one. */
  record Profile(String name, int changes, int chunks, int faultsPerPoint, int minFired, int taskManagerKills,
      int processKills, Duration timeout) {
    static boolean isLong() {
      return "long".equals(System.getProperty("riverbed.soak"));
    }

    /** The build property that sets the test JVM's heap. */
    static final String HEAP_PROPERTY = "riverbed.test.heap";

    /** The long profile's checks hold models of up to 1M changes: refuse at once a heap that would run out at the end. */
    static void requireLongProfileHeap() {
      long max = Runtime.getRuntime().maxMemory();
      if (max < 5L << 30) {
        throw new IllegalStateException("the long soak profile needs a test heap of about 6 GB (this one has "
            + (max >> 20) + " MB): add -D" + HEAP_PROPERTY + "=-Xmx6g");
      }
    }

    static Profile of(String type) {
      boolean mor = type.equals("MERGE_ON_READ");
      Profile p;
      if (isLong()) {
        requireLongProfileHeap();
        p = new Profile("long", 1_000_000, 100, 6, 20, 6, 5, Duration.ofMinutes(90));
      } else {
        p = mor ? new Profile("short", 30_000, 40, 2, 6, 2, 0, Duration.ofMinutes(8))
            : new Profile("short", 20_000, 30, 2, 5, 1, 0, Duration.ofMinutes(8));
      }
      int changes = Integer.getInteger("riverbed.soak.changes", p.changes());
      return new Profile(p.name(), changes, p.chunks(), p.faultsPerPoint(), p.minFired(), p.taskManagerKills(),
          p.processKills(), p.timeout());
    }
  }

  @Test
  void randomFailuresAndTaskManagerKillsUnderLoadKeepEverySnapshotEqualToTheModelMergeOnRead(
      @InjectMiniCluster MiniCluster cluster) throws Exception {
    soak(cluster, "MERGE_ON_READ", Long.getLong("riverbed.soak.seed", 20261201L));
  }

  @Test
  void randomFailuresAndTaskManagerKillsUnderLoadKeepEverySnapshotEqualToTheModelCopyOnWrite(
      @InjectMiniCluster MiniCluster cluster) throws Exception {
    soak(cluster, "COPY_ON_WRITE", Long.getLong("riverbed.soak.seed", 20261202L));
  }

  /**
   * Long profile only: the job in a process of its own ({@link ChaosSoakProcess}) is killed with
   * SIGKILL after random chunks and restarted from the latest retained checkpoint, under the same
   * CPU load; then the same model checks.
   */
  @Test
  void killNineOfTheJobProcessRestoredFromTheLatestCheckpointKeepsEverySnapshotEqualToTheModel() throws Exception {
    Profile profile = Profile.of("MERGE_ON_READ");
    assumeTrue(profile.processKills() > 0, "kill -9 of the job process runs in the long profile (-Driverbed.soak=long)");
    long seed = Long.getLong("riverbed.soak.seed", 20261203L);
    Random random = new Random(seed);
    var stream = changes(seed, profile.changes(), profile.chunks(), UPDATES, DELETES, MOVES);
    Path table = dir.resolve("table");
    Path checkpoints = dir.resolve("checkpoints");
    Path positionsLog = dir.resolve("positions.log");
    List<Integer> kills = random.ints(profile.processKills(), 2, profile.chunks() - 2).distinct().sorted().boxed()
        .toList();
    System.out.printf("SOAK %s kill -9 seed=%d: %d changes in %d chunks, kills after chunks %s%n", profile.name(), seed,
        profile.changes(), profile.chunks(), kills);
    long start = System.nanoTime();
    int killed = 0;
    Process load = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
    try {
      for (int run = 0; run <= kills.size(); run++) {
        Path log = dir.resolve("process-" + run + ".log");
        int linesBefore = lines(positionsLog).size();
        Process job = startProcess(seed, profile, table, checkpoints, positionsLog, run == 0 ? "new" : "latest", log);
        try {
          if (run < kills.size()) {
            int after = kills.get(run);
            Await.await("chunk " + after + " in a checkpoint of process run " + run, profile.timeout())
                .guardedBy(Await.alive(job, "soak process run " + run, () -> tail(log)))
                .until(() -> positionsFrom(positionsLog, linesBefore).values().stream().anyMatch(p -> p >= after));
            job.destroyForcibly();
            assertThat(job.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(job.exitValue()).as("exit value of a SIGKILLed process").isEqualTo(137);
            killed++;
          } else {
            assertThat(job.waitFor(profile.timeout().toMillis(), TimeUnit.MILLISECONDS))
                .as("the last process run finishes, seed %d:%n%s", seed, tail(log)).isTrue();
            assertThat(job.exitValue()).as("exit value of the last run, seed %d:%n%s", seed, tail(log)).isZero();
          }
        } finally {
          job.destroyForcibly();
        }
        lines(log).stream().filter(l -> l.startsWith("restoring from"))
            .forEach(l -> System.out.println("SOAK kill -9 run " + l));
      }
    } finally {
      load.destroyForcibly();
      load.waitFor();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("SOAK %s kill -9 seed=%d: %d changes in %.1f s, %d processes killed with SIGKILL%n",
        profile.name(), seed, profile.changes(), seconds, killed);
    var tableHandle = table(tableOptions(dir, "MERGE_ON_READ", profile.changes()));
    assertThat(read(tableHandle)).as("final table, seed %d", seed).isEqualTo(expected(stream));
    assertNoPendingWrites(tableHandle);
    int checked = checkTimeTravel(tableHandle, stream, positionsFrom(positionsLog, 0), seed);
    System.out.printf("SOAK %s kill -9 seed=%d: %d instants read as of themselves equal the model%n", profile.name(),
        seed, checked);
  }

  private static Process startProcess(long seed, Profile profile, Path table, Path checkpoints, Path positionsLog,
      String restore, Path log) throws Exception {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx2g", "-XX:+UseSerialGC", "-Duser.timezone=UTC"));
    cmd.addAll(KillAndRestoreTest.FLINK_JVM_FLAGS);
    cmd.addAll(List.of("-cp", classpath, ChaosSoakProcess.class.getName(), Long.toString(seed),
        Integer.toString(profile.changes()), Integer.toString(profile.chunks()), table.toString(), checkpoints.toString(),
        positionsLog.toString(), restore));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /**
   * The positions log of {@link ChunkedSource#recordingPositionsTo} after its first {@code skipLines}
   * lines; a later line for an id wins.
   */
  private static Map<Long, Integer> positionsFrom(Path log, int skipLines) throws java.io.IOException {
    Map<Long, Integer> out = new HashMap<>();
    List<String> lines = lines(log);
    for (String line : lines.subList(Math.min(skipLines, lines.size()), lines.size())) {
      String[] f = line.trim().split(" ");
      if (f.length == 2) {
        out.put(Long.parseLong(f[0]), Integer.parseInt(f[1]));
      }
    }
    return out;
  }

  /** The complete lines of {@code log} (a last line without its newline is being written, or torn by a kill). */
  private static List<String> lines(Path log) throws java.io.IOException {
    if (!Files.exists(log)) {
      return List.of();
    }
    String text = Files.readString(log, StandardCharsets.UTF_8);
    List<String> out = new ArrayList<>(List.of(text.split("\n", -1)));
    out.remove(out.size() - 1);
    return out;
  }

  private static String tail(Path log) throws java.io.IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }

  private void soak(MiniCluster cluster, String type, long seed) throws Exception {
    Profile profile = Profile.of(type);
    boolean mor = type.equals("MERGE_ON_READ");
    Random random = new Random(seed);
    var stream = changes(seed, profile.changes(), profile.chunks(), UPDATES, DELETES, MOVES);
    var options = tableOptions(dir, type, profile.changes());
    List<String> points = new ArrayList<>(List.of(WRITER_POINTS));
    if (mor) {
      points.add(FaultInjection.COMPACTOR_DURING_COMPACTION);
    }
    Map<String, int[]> schedule = new LinkedHashMap<>();
    for (String point : points) {
      int range = switch (point) {
        case FaultInjection.WRITER_DURING_FLUSH -> 15 * profile.chunks();
        case FaultInjection.COMPACTOR_DURING_COMPACTION -> 5 * profile.chunks();
        case FaultInjection.WRITER_AFTER_FLUSH_BEFORE_BARRIER -> 2 * profile.chunks();
        default -> profile.chunks();
      };
      int[] passes = random.ints(profile.faultsPerPoint(), 2, range).distinct().sorted().toArray();
      schedule.put(point, passes);
      FaultInjection.arm(point, passes);
    }
    List<Integer> kills = random.ints(profile.taskManagerKills(), 2, profile.chunks() - 1).sorted().boxed().toList();
    System.out.printf("SOAK %s %s seed=%d: %d changes in %d chunks, armed %s, TaskManager kills after chunks %s%n",
        profile.name(), type, seed, profile.changes(), profile.chunks(), describe(schedule), kills);

    String name = "soak-" + type;
    long start = System.nanoTime();
    int killed = 0;
    Process load = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
    try {
      JobClient job = submit(name, stream, options);
      Map<Long, Integer> positions = ChunkedSource.positionsAtCheckpoints(name);
      for (int after : kills) {
        Await.await("chunk " + after + " in a checkpoint of " + name, profile.timeout())
            .until(() -> job.getJobExecutionResult().isDone() || positions.values().stream().anyMatch(p -> p >= after));
        if (job.getJobExecutionResult().isDone()) {
          break;
        }
        killTaskManager(cluster, random);
        killed++;
      }
      try {
        job.getJobExecutionResult().get(profile.timeout().toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        job.cancel();
        throw new AssertionError("soak " + name + " seed " + seed + " did not finish in " + profile.timeout()
            + ": chunk positions at checkpoints " + new TreeMap<>(positions) + ", fired " + fired(points), e);
      }
    } finally {
      load.destroyForcibly();
      load.waitFor();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    int fired = points.stream().mapToInt(FaultInjection::fired).sum();
    int recoveries = ChunkedSource.attempts(name) - 1;
    System.out.printf("SOAK %s %s seed=%d: %d changes in %.1f s, faults fired %d %s, TaskManagers killed %d, "
        + "recoveries %d, passes %s%n", profile.name(), type, seed, profile.changes(), seconds, fired, fired(points),
        killed, recoveries, passes(points));

    var table = table(options);
    assertThat(read(table)).as("final table, seed %d", seed).isEqualTo(expected(stream));
    assertNoPendingWrites(table);
    int checked = checkTimeTravel(table, stream, ChunkedSource.positionsAtCheckpoints(name), seed);
    System.out.printf("SOAK %s %s seed=%d: %d instants read as of themselves equal the model%n", profile.name(), type,
        seed, checked);
    assertThat(fired).as("faults fired, seed %d", seed).isGreaterThanOrEqualTo(profile.minFired());
    assertThat(recoveries).as("recoveries, seed %d", seed).isPositive();
  }

  /** The table of a soak: MERGE_ON_READ compacts asynchronously every 3 delta commits; small write batches. */
  static Map<String, String> tableOptions(Path dir, String type, int changes) {
    var options = options(dir, type);
    options.put("write.batch.size", changes > 100_000 ? "1" : "0.2");
    // time travel to every write of the run is checked: the job must not clean or archive
    // (CleaningJobTest and ArchivingJobTest cover those)
    options.put(FlinkWriteOptions.CLEAN_ASYNC, "false");
    options.put(FlinkWriteOptions.ARCHIVE_AUTOMATIC, "false");
    if (type.equals("MERGE_ON_READ")) {
      options.put("compaction.async.enabled", "true");
      options.put("compaction.delta_commits", "3");
    }
    return options;
  }

  private static JobClient submit(String name, List<List<Change>> chunks, Map<String, String> options)
      throws Exception {
    StreamExecutionEnvironment env = WriterFixtures.env(PARALLELISM, 1_000);
    ChunkedSource.register(name, rows(chunks));
    var source = env.addSource(new ChunkedSource(name, 0), "chunks", InternalTypeInfo.of(ROW_TYPE)).setParallelism(1);
    RiverbedSink.forRowData(ROW_TYPE, options).sinkTo(source);
    return env.executeAsync(name);
  }

  /** Terminates a random live TaskManager and starts a fresh one in its place. */
  private static void killTaskManager(MiniCluster cluster, Random random) throws Exception {
    int victim = liveTaskManagers.remove(random.nextInt(liveTaskManagers.size()));
    cluster.terminateTaskManager(victim).get(60, TimeUnit.SECONDS);
    cluster.startTaskManager();
    liveTaskManagers.add(taskManagersStarted++);
  }

  /**
   * Reads every completed instant as of itself against the model (see the class comment); returns
   * how many were checked.
   */
  private static int checkTimeTravel(Table table, List<List<Change>> chunks, Map<Long, Integer> recorded, long seed) {
    TreeMap<Long, Integer> positions = new TreeMap<>(recorded);
    TreeSet<Integer> reachable = new TreeSet<>(positions.values());
    reachable.add(chunks.size());
    Map<Integer, Map<String, String>> models = recentModels();
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    List<Instant> completed = store.load().commitsTimeline().completed().instants();
    List<Instant> writes = new ArrayList<>();
    List<Instant> compactions = new ArrayList<>();
    Map<Instant, Long> checkpointOf = new HashMap<>();
    for (Instant instant : completed) {
      CommitMetadata metadata = CommitMetadata.fromJson(store.read(instant), store.pathOf(instant).toString());
      if (metadata.compacted()) {
        compactions.add(instant);
      } else {
        writes.add(instant);
        checkpointOf.put(instant, Long.parseLong(metadata.extraMetadata().get(WriteCoordinator.CHECKPOINT_ID_KEY)));
      }
    }
    Map<Instant, Integer> prefixOf = new HashMap<>();
    int previous = 0;
    long previousCheckpoint = Long.MIN_VALUE;
    for (int i = 0; i < writes.size(); i++) {
      Instant instant = writes.get(i);
      long checkpoint = checkpointOf.get(instant);
      assertThat(checkpoint).as("checkpoint of %s after one of %d, seed %d", instant, previousCheckpoint, seed)
          .isGreaterThanOrEqualTo(previousCheckpoint);
      int target = coveredBy(positions, checkpoint, chunks.size());
      boolean newestOfCheckpoint = i + 1 == writes.size() || checkpointOf.get(writes.get(i + 1)) != checkpoint;
      Map<String, String> snapshot = read(table, QuerySpec.asOf(instant.time()));
      int prefix;
      if (newestOfCheckpoint) {
        prefix = target;
        assertThat(snapshot).as("%s (checkpoint %d: chunks 0..%d), seed %d", instant, checkpoint, target, seed)
            .isEqualTo(model(models, chunks, target));
      } else {
        int from = previous;
        prefix = reachable.subSet(from, true, target, true).stream()
            .filter(p -> model(models, chunks, p).equals(snapshot)).findFirst().orElse(-1);
        assertThat(prefix).as("%s (checkpoint %d) equals the model of some chunk prefix in %d..%d, seed %d",
            instant, checkpoint, from, target, seed).isNotNegative();
      }
      assertThat(prefix).as("prefix of %s, seed %d", instant, seed).isGreaterThanOrEqualTo(previous);
      prefixOf.put(instant, prefix);
      previous = prefix;
      previousCheckpoint = checkpoint;
    }
    for (Instant compaction : compactions) {
      int prefix = writes.stream().filter(w -> w.time().compareTo(compaction.time()) < 0)
          .reduce((a, b) -> b).map(prefixOf::get).orElse(0);
      assertThat(read(table, QuerySpec.asOf(compaction.time())))
          .as("compaction %s equals the deltacommit before it (chunks 0..%d), seed %d", compaction, prefix, seed)
          .isEqualTo(model(models, chunks, prefix));
    }
    if (table.type().name().equals("MERGE_ON_READ")) {
      assertThat(compactions).as("completed compactions").isNotEmpty();
      assertThat(writes).allMatch(w -> w.action() == Action.DELTA_COMMIT);
    }
    return writes.size() + compactions.size();
  }

  /** The chunks checkpoint {@code id} covers: recorded by the source, or all it emitted before if it had finished. */
  private static int coveredBy(TreeMap<Long, Integer> positions, long id, int all) {
    Integer recorded = positions.get(id);
    if (recorded != null) {
      return recorded;
    }
    var before = positions.floorEntry(id);
    assertThat(before).as("a checkpoint before %d the source snapshotted", id).isNotNull();
    assertThat(before.getValue()).as("checkpoint %d was not snapshotted by the source, which had emitted", id)
        .isEqualTo(all);
    return all;
  }

  /**
   * The last few models computed: one per chunk prefix for a whole run is what the long profile
   * cannot hold (1M changes: the test JVM ran out of heap checking its instants).
   */
  private static Map<Integer, Map<String, String>> recentModels() {
    return new LinkedHashMap<>(8, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Integer, Map<String, String>> eldest) {
        return size() > 4;
      }
    };
  }

  private static Map<String, String> model(Map<Integer, Map<String, String>> cache, List<List<Change>> chunks,
      int prefix) {
    return cache.computeIfAbsent(prefix, p -> expected(chunks.subList(0, p)));
  }

  private static String describe(Map<String, int[]> schedule) {
    Map<String, String> out = new LinkedHashMap<>();
    schedule.forEach((point, passes) -> out.put(point, Arrays.toString(passes)));
    return out.toString();
  }

  private static Map<String, Integer> fired(List<String> points) {
    Map<String, Integer> out = new LinkedHashMap<>();
    points.forEach(p -> out.put(p, FaultInjection.fired(p)));
    return out;
  }

  private static Map<String, Integer> passes(List<String> points) {
    Map<String, Integer> out = new LinkedHashMap<>();
    points.forEach(p -> out.put(p, FaultInjection.passes(p)));
    return out;
  }
}
