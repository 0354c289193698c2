package io.riverbed.format.clean;

import io.riverbed.format.TableOperation;
import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CleanFileInfo;
import io.riverbed.format.timeline.CleanMetadata;
import io.riverbed.format.timeline.CleanPartitionMetadata;
import io.riverbed.format.timeline.CleanerPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.write.InstantClock;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hudi's clean action on a table: deletes the file slices no query inside the retention window
 * can read, in two steps so that a crash between them loses nothing.
 *
 * <ol>
 *   <li>{@link #scheduleClean}: {@code T.clean.requested} holding the {@link CleanerPlan} (nothing
 *       is written when there is nothing to delete, as in Hudi 0.15);
 *   <li>{@link #executeClean}: {@code T.clean.inflight} (the plan's bytes again), the files
 *       deleted, then {@code T.clean} with the {@link CleanMetadata}.
 * </ol>
 *
 * {@link #execute} first finishes every pending clean from its plan (a plan once written is always
 * carried out, as Hudi re-executes it), then schedules and executes a new one. Typical use after
 * a commit: {@code Cleaner.of(table).options(CleanOptions.fromMap(conf)).execute()}.
 */
public final class Cleaner implements TableOperation<List<CleanResult>> {
  private static final Logger LOG = LoggerFactory.getLogger(Cleaner.class);

  private final Table table;
  private CleanOptions options = CleanOptions.defaults();
  private InstantTime generator;
  private Clock wallClock = Clock.systemUTC();
  private Runnable afterFileDeleted = () -> { };

  private Cleaner(Table table) {
    this.table = table;
  }

  public static Cleaner of(Table table) {
    return new Cleaner(Objects.requireNonNull(table, "table"));
  }

  public Cleaner options(CleanOptions cleanOptions) {
    this.options = Objects.requireNonNull(cleanOptions, "cleanOptions");
    return this;
  }

  /** Clean instant times come from {@code timeGenerator} (default: the table's, shared with its writers in this JVM). */
  public Cleaner instantTimes(InstantTime timeGenerator) {
    this.generator = timeGenerator;
    return this;
  }

  /**
   * Runs {@code hook} after each data file a clean deletes, before the clean completes; an
   * exception it throws ends the clean with its plan inflight, as a crash there would (the next
   * clean resumes the plan). For engines' failure tests.
   */
  public Cleaner afterFileDeleted(Runnable hook) {
    this.afterFileDeleted = Objects.requireNonNull(hook, "hook");
    return this;
  }

  /** The clock KEEP_LATEST_BY_HOURS measures its window from (default: the system clock). */
  public Cleaner wallClock(Clock clock) {
    this.wallClock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * Finishes the pending cleans, then plans and runs a new clean if the policy finds files to
   * delete.
   *
   * @return every clean completed by this call, oldest first; empty when there was nothing to do
   */
  @Override
  public List<CleanResult> execute() {
    List<CleanResult> done = new ArrayList<>(executePendingCleans());
    scheduleClean().ifPresent(t -> done.add(executeClean(t)));
    return done;
  }

  /**
   * Plans a clean and writes {@code T.clean.requested}. Writes nothing when fewer than
   * {@link CleanOptions#minCommitsBetweenCleans} commits completed since the last clean or when
   * the plan deletes no file. A clean already pending is returned instead of planning a second one
   * (Hudi 0.15's {@code hoodie.clean.allow.multiple=false}).
   *
   * @return the time of the clean to execute
   */
  public Optional<String> scheduleClean() {
    Table writable = table.prepareForWrite();
    TimelineStore store = store(writable);
    Timeline timeline = store.load();
    Optional<Instant> pending = timeline.ofAction(Action.CLEAN).pending().first();
    if (pending.isPresent()) {
      LOG.info("Clean {} of table {} is pending; no new clean planned", pending.get().time(), table.basePath());
      return Optional.of(pending.get().time());
    }
    int commits = commitsSinceLastClean(store, timeline);
    if (commits < options.minCommitsBetweenCleans()) {
      LOG.debug("Table {}: {} commits since the last clean, {} needed", table.basePath(), commits,
          options.minCommitsBetweenCleans());
      return Optional.empty();
    }
    CleanerPlan plan = CleanPlanner.plan(writable, timeline, options, wallClock.instant());
    if (plan.fileCount() == 0) {
      LOG.info("Nothing to clean in table {} (policy {}, earliest instant to retain {})", table.basePath(),
          plan.policy(), earliestOf(plan));
      return Optional.empty();
    }
    String time = InstantClock.next(generator != null ? generator : InstantClock.forTable(writable), timeline);
    store.createRequested(time, Action.CLEAN, plan.toBytes());
    LOG.info("Scheduled clean {} of table {}: {} files in {} partitions, policy {}, earliest instant to retain {}",
        time, table.basePath(), plan.fileCount(), plan.filePathsToBeDeletedPerPartition().size(), plan.policy(),
        earliestOf(plan));
    return Optional.of(time);
  }

  /**
   * Runs every requested or inflight clean from its plan, oldest first. Pending cleans with an
   * empty plan file (Hudi leaves such files behind) are deleted.
   */
  public List<CleanResult> executePendingCleans() {
    TimelineStore store = store(table);
    List<CleanResult> done = new ArrayList<>();
    for (Instant pending : store.load().ofAction(Action.CLEAN).pending().instants()) {
      if (store.read(Instant.requested(pending.time(), Action.CLEAN)).length == 0) {
        LOG.info("Deleting clean {} of table {}: its plan is empty", pending.time(), table.basePath());
        store.delete(Instant.inflight(pending.time(), Action.CLEAN));
        store.delete(Instant.requested(pending.time(), Action.CLEAN));
        continue;
      }
      done.add(executeClean(pending.time()));
    }
    return done;
  }

  /**
   * Executes the clean at {@code instantTime} from its plan; a completed clean is returned as it is.
   *
   * @throws TableException if the table has no clean at that time
   */
  public CleanResult executeClean(String instantTime) {
    long start = System.currentTimeMillis();
    Table writable = table.prepareForWrite();
    TimelineStore store = store(writable);
    Instant clean = store.currentWith(instantTime).ofAction(Action.CLEAN).find(instantTime).orElseThrow(() -> new TableException(
        "table " + table.basePath() + " has no clean at " + instantTime));
    if (clean.isCompleted()) {
      return new CleanResult(CleanMetadata.fromBytes(store.read(clean), store.pathOf(clean).toString()));
    }
    Instant requested = Instant.requested(instantTime, Action.CLEAN);
    byte[] planBytes = store.read(requested);
    CleanerPlan plan = CleanerPlan.fromBytes(planBytes, store.pathOf(requested).toString());
    Instant inflight = clean.isInflight() ? clean : store.transitionToInflight(requested, planBytes);
    if (clean.isInflight()) {
      LOG.info("Resuming clean {} of table {}", instantTime, table.basePath());
    }
    CleanMetadata metadata = deleteFiles(writable, instantTime, plan, start);
    store.complete(inflight, metadata.toBytes());
    LOG.info("Completed clean {} of table {}: {} files deleted, earliest instant retained {}", instantTime,
        table.basePath(), metadata.totalFilesDeleted(), earliestOf(plan));
    return new CleanResult(metadata);
  }

  private CleanMetadata deleteFiles(Table writable, String instantTime, CleanerPlan plan, long start) {
    Map<String, CleanPartitionMetadata> partitions = new LinkedHashMap<>();
    Map<String, CleanPartitionMetadata> bootstrap = new LinkedHashMap<>();
    int deleted = 0;
    for (Map.Entry<String, List<CleanFileInfo>> e : plan.filesToDelete(writable.basePath()).entrySet()) {
      String partition = e.getKey();
      Outcome files = new Outcome();
      Outcome bootstrapFiles = new Outcome();
      for (CleanFileInfo file : e.getValue()) {
        Path path = new Path(file.filePath());
        if (Boolean.TRUE.equals(file.isBootstrapBaseFile())) {
          bootstrapFiles.record(path.toString(), delete(writable, path, false, instantTime));
        } else {
          files.record(path.getName(), delete(writable, path, false, instantTime));
          afterFileDeleted.run();
        }
      }
      boolean partitionDeleted = plan.partitionsToBeDeleted().contains(partition);
      partitions.put(partition, files.metadata(partition, plan.policy(), partitionDeleted));
      if (!bootstrapFiles.planned.isEmpty()) {
        bootstrap.put(partition, bootstrapFiles.metadata(partition, plan.policy(), partitionDeleted));
      }
      deleted += files.deleted.size();
    }
    for (String partition : plan.partitionsToBeDeleted()) {
      delete(writable, writable.partitionPath(partition), true, instantTime);
    }
    String earliest = plan.earliestInstantToRetain() == null ? "" : plan.earliestInstantToRetain().timestamp();
    return new CleanMetadata(instantTime, System.currentTimeMillis() - start, deleted, earliest,
        plan.lastCompletedCommitTimestamp(), partitions, CleanMetadata.LATEST_VERSION, bootstrap, plan.extraMetadata());
  }

  /** True if this call deleted the file, false if it was gone already. */
  private boolean delete(Table writable, Path path, boolean recursive, String instantTime) {
    try {
      if (writable.fs().delete(path, recursive)) {
        LOG.debug("Clean {} deleted {}", instantTime, path);
        return true;
      }
      if (writable.fs().exists(path)) {
        throw new TableException("clean " + instantTime + " of table " + table.basePath() + " cannot delete " + path);
      }
      return false;
    } catch (FileNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw new TableException("clean " + instantTime + " of table " + table.basePath() + " cannot delete " + path, e);
    }
  }

  /** Completed commits, deltacommits and replacecommits after the last clean's newest completed commit. */
  private static int commitsSinceLastClean(TimelineStore store, Timeline timeline) {
    Timeline commits = timeline.commitsTimeline().completed();
    Optional<Instant> last = timeline.ofAction(Action.CLEAN).completed().last();
    if (last.isEmpty()) {
      return commits.size();
    }
    byte[] bytes = store.read(last.get());
    if (bytes.length == 0) {
      return commits.size();
    }
    String after = CleanMetadata.fromBytes(bytes, store.pathOf(last.get()).toString()).lastCompletedCommitTimestamp();
    return (int) commits.instants().stream().filter(i -> i.time().compareTo(after) > 0).count();
  }

  private static String earliestOf(CleanerPlan plan) {
    return plan.earliestInstantToRetain() == null ? "(none)" : plan.earliestInstantToRetain().timestamp();
  }

  private static TimelineStore store(Table table) {
    return table.timelineStore();
  }

  /** Files of one partition: planned, deleted now, gone already. */
  private static final class Outcome {
    final List<String> planned = new ArrayList<>();
    final List<String> deleted = new ArrayList<>();
    final List<String> gone = new ArrayList<>();

    void record(String name, boolean deletedNow) {
      planned.add(name);
      (deletedNow ? deleted : gone).add(name);
    }

    CleanPartitionMetadata metadata(String partition, String policy, boolean partitionDeleted) {
      return new CleanPartitionMetadata(partition, policy, planned, deleted, gone, partitionDeleted);
    }
  }
}
