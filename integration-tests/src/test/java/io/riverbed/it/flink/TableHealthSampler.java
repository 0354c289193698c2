package io.riverbed.it.flink;

import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.Split;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.Await;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * Watches a table a job is writing, from a thread of the test JVM (the job runs in another
 * process): every {@code every} delta commits it records a {@link Sample} of the table's health —
 * bytes and files of data on disk against those of the latest snapshot, the active and archived
 * timeline, the compactions, cleans and archivals seen so far, and how long the core's planner
 * takes to plan a snapshot (thread CPU time and wall time, the least of three plans), beside a
 * fixed CPU-bound probe whose wall time says how busy the machine was.
 */
final class TableHealthSampler implements AutoCloseable {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /**
   * One look at the table.
   *
   * @param deltaCommits delta commits completed so far (active and archived)
   * @param compactions compactions completed so far
   * @param cleans cleans completed so far
   * @param archiveFiles files in the archive folder (one per archival that archived something)
   * @param activeCommits completed commits, delta commits and replacecommits in the active timeline
   * @param activeInstants every file of the active timeline's folder that is an instant state
   * @param archived completed instants in the archived timeline
   * @param diskBytes bytes of every base and log file under the table
   * @param diskFiles how many
   * @param snapshotBytes bytes of the base and log files the latest snapshot reads
   * @param snapshotFiles how many
   * @param fileGroups file groups of the latest snapshot
   * @param planCpuMillis thread CPU time of planning a snapshot with the core's planner
   * @param planWallMillis its wall time
   * @param probeMillis wall time of the fixed probe (about 5 ms of CPU on an idle core)
   */
  record Sample(int deltaCommits, int compactions, int cleans, int archiveFiles, int activeCommits,
      int activeInstants, int archived, long diskBytes, int diskFiles, long snapshotBytes, int snapshotFiles,
      int fileGroups, double planCpuMillis, double planWallMillis, double probeMillis) {
    double diskToSnapshot() {
      return snapshotBytes == 0 ? 0 : (double) diskBytes / snapshotBytes;
    }
  }

  private final Path path;
  private final int every;
  private final Table table;
  private final Set<String> deltaCommits = new TreeSet<>();
  private final Set<String> compactions = new TreeSet<>();
  private final Set<String> cleans = new TreeSet<>();
  private final List<Sample> samples = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService poller;
  private int sampledAt;
  private volatile Throwable failure;

  private TableHealthSampler(Path path, int every) throws IOException {
    this.path = path;
    this.every = every;
    this.table = Table.open(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(path.toUri()));
    this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "table-health-sampler");
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts sampling the table at {@code path} once it exists (while {@code jobAlive} passes), every {@code every} delta commits. */
  static TableHealthSampler start(Path path, int every, Await.Guard jobAlive) throws InterruptedException {
    try {
      Await.await("table " + path + " created", WriteJobProcess.HANG_LIMIT).guardedBy(jobAlive)
          .until(() -> Files.exists(path.resolve(Table.META_FOLDER).resolve("hoodie.properties")));
      TableHealthSampler sampler = new TableHealthSampler(path, every);
      sampler.poller.scheduleWithFixedDelay(sampler::poll, 0, 20, TimeUnit.MILLISECONDS);
      return sampler;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The samples so far, oldest first. */
  List<Sample> samples() {
    return List.copyOf(samples);
  }

  /** Takes one more sample (of the table as the job left it), stops, and rethrows what failed the thread. */
  @Override
  public void close() throws InterruptedException {
    poller.shutdown();
    if (!poller.awaitTermination(WriteJobProcess.HANG_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("the table health sampler of " + path + " did not stop");
    }
    if (failure != null) {
      throw new AssertionError("the table health sampler of " + path + " failed", failure);
    }
    samples.add(sample());
  }

  /** One poll: the timeline observed, and a sample once {@code every} more delta commits completed. */
  private void poll() {
    try {
      observe(table.refreshTimeline());
      if (deltaCommits.size() >= sampledAt + every) {
        sampledAt = deltaCommits.size();
        samples.add(sample());
      }
    } catch (Throwable t) {
      failure = t;
      throw t;
    }
  }

  /** Remembers the completed delta commits, compactions and cleans of {@code timeline}: archival removes them later. */
  private void observe(Timeline timeline) {
    for (Instant i : timeline.completed().instants()) {
      switch (i.action()) {
        case DELTA_COMMIT -> deltaCommits.add(i.time());
        case COMMIT -> compactions.add(i.time());
        case CLEAN -> cleans.add(i.time());
        default -> { }
      }
    }
  }

  private Sample sample() {
    double probe = probeMillis();
    double planCpu = Double.MAX_VALUE;
    double planWall = Double.MAX_VALUE;
    QueryPlan plan = null;
    for (int i = 0; i < 3; i++) {
      long cpu = THREADS.getCurrentThreadCpuTime();
      long wall = System.nanoTime();
      plan = QueryPlanner.plan(table, QuerySpec.snapshot());
      planWall = Math.min(planWall, (System.nanoTime() - wall) / 1e6);
      planCpu = Math.min(planCpu, (THREADS.getCurrentThreadCpuTime() - cpu) / 1e6);
    }
    long snapshotBytes = 0;
    int snapshotFiles = 0;
    for (Split split : plan.splits()) {
      if (split.slice().baseFile().isPresent()) {
        snapshotBytes += split.slice().baseFile().get().length();
        snapshotFiles++;
      }
      for (LogFile log : split.slice().logFiles()) {
        snapshotBytes += log.length();
        snapshotFiles++;
      }
    }
    Timeline active = plan.activeTimeline();
    observe(active);
    long[] disk = dataFilesOnDisk();
    int archived = ArchivedTimeline.load(table).timeline().completed().size();
    return new Sample(deltaCommits.size(), compactions.size(), cleans.size(), archiveFiles(),
        active.commitsTimeline().completed().size(), active.size(), archived, disk[0], (int) disk[1], snapshotBytes,
        snapshotFiles, plan.splits().size(), planCpu, planWall, probe);
  }

  /** {bytes, files} of the base and log files under the table (files deleted while it walks are skipped). */
  private long[] dataFilesOnDisk() {
    long[] out = new long[2];
    try {
      Files.walkFileTree(path, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
          return dir.getFileName().toString().equals(Table.META_FOLDER) ? FileVisitResult.SKIP_SUBTREE
              : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          var name = new org.apache.hadoop.fs.Path(file.toUri());
          if (BaseFile.of(name, 0).isPresent() || LogFile.of(name, 0).isPresent()) {
            out[0] += attrs.size();
            out[1]++;
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
          if (e instanceof NoSuchFileException) {
            return FileVisitResult.CONTINUE;
          }
          throw e;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private int archiveFiles() {
    Path archive = path.resolve(Table.META_FOLDER).resolve("archived");
    if (!Files.isDirectory(archive)) {
      return 0;
    }
    try (var files = Files.list(archive)) {
      return (int) files.filter(f -> f.getFileName().toString().startsWith(".commits_.archive.")).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Wall time of hashing 1 MB with SHA-256: about 5 ms of one core here, longer when the machine is busy. */
  private static double probeMillis() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] block = new byte[64 * 1024];
      long start = System.nanoTime();
      for (int i = 0; i < 16; i++) {
        sha.update(block);
      }
      sha.digest();
      return (System.nanoTime() - start) / 1e6;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The median of {@code values}; NaN when there are none. */
  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
