package io.riverbed.format.savepoint;

import io.riverbed.format.TableException;
import io.riverbed.format.TableOperation;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.ActionInstant;
import io.riverbed.format.timeline.CleanMetadata;
import io.riverbed.format.timeline.CleanerPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.SavepointMetadata;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hudi's savepoint action: pins the table as of a completed commit T so that cleaning keeps the
 * files a read as of T needs, archival keeps T's instants, and the table can be restored to T
 * ({@link Restore}). Written as Hudi 0.15 writes it ({@code SavepointActionExecutor}):
 * {@code T.savepoint.inflight} (empty), then {@code T.savepoint} with the
 * {@link SavepointMetadata}: per partition the names of the base and log files of each file group's
 * latest slice as of T ({@link FileSystemView#latestSlicesBeforeOrOn}), who made it, when
 * (milliseconds) and why.
 *
 * <p>Refused, as Hudi refuses them: a T that is not a completed commit, deltacommit or
 * replacecommit (a compaction completes as a commit and counts), and a T older than the earliest
 * commit the last clean retained (its files may be gone). Also refused: a T savepointed already.
 * A savepoint whose inflight file was written but not its completed one (a crash) is completed by
 * running it again.
 *
 * <p>Typical use: {@code Savepoint.of(table, t).user("ops").comments("before backfill").execute()}.
 */
public final class Savepoint implements TableOperation<SavepointMetadata> {
  private static final Logger LOG = LoggerFactory.getLogger(Savepoint.class);

  private final Table table;
  private final String instantTime;
  private String user = "";
  private String comments = "";
  private Clock wallClock = Clock.systemUTC();

  private Savepoint(Table table, String instantTime) {
    this.table = table;
    this.instantTime = instantTime;
  }

  /** A savepoint of the completed write instant at {@code instantTime}. */
  public static Savepoint of(Table table, String instantTime) {
    return new Savepoint(Objects.requireNonNull(table, "table"), Objects.requireNonNull(instantTime, "instantTime"));
  }

  /** Who makes the savepoint ({@code savepointedBy}; default empty). */
  public Savepoint user(String savepointedBy) {
    this.user = Objects.requireNonNull(savepointedBy, "savepointedBy");
    return this;
  }

  /** Why ({@code comments}; default empty). */
  public Savepoint comments(String text) {
    this.comments = Objects.requireNonNull(text, "comments");
    return this;
  }

  /** The clock {@code savepointedAt} is read from (default: the system clock). */
  public Savepoint wallClock(Clock clock) {
    this.wallClock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * Creates the savepoint.
   *
   * @return the metadata written to {@code T.savepoint}
   * @throws TableException naming the table and T if T cannot be savepointed (see the class comment)
   */
  @Override
  public SavepointMetadata execute() {
    Table writable = table.prepareForWrite();
    TimelineStore store = writable.timelineStore();
    Timeline timeline = store.load();
    Optional<Instant> existing = timeline.ofAction(Action.SAVEPOINT).find(instantTime);
    if (existing.isPresent() && existing.get().isCompleted()) {
      throw refused("it is savepointed already");
    }
    Instant commit = timeline.commitsTimeline().find(instantTime)
        .orElseThrow(() -> refused("it is not a commit, deltacommit or replacecommit of the active timeline"));
    if (!commit.isCompleted()) {
      throw refused("it is not completed (" + commit + ")");
    }
    String retained = earliestCommitRetainedByClean(store, timeline);
    if (instantTime.compareTo(retained) < 0) {
      throw refused("it is older than the earliest commit the cleaner retains (" + retained
          + "), so its files may be cleaned already");
    }
    SavepointMetadata metadata = new SavepointMetadata(user, wallClock.millis(), comments,
        latestFiles(writable, timeline), SavepointMetadata.LATEST_VERSION);
    Instant inflight = Instant.inflight(instantTime, Action.SAVEPOINT);
    if (existing.isEmpty()) {
      store.create(inflight, new byte[0]);
    } else {
      LOG.info("Completing savepoint {} of table {}: its inflight file is there from an earlier run", instantTime,
          table.basePath());
    }
    store.complete(inflight, metadata.toBytes());
    LOG.info("Savepoint {} of table {} created: {} files in {} partitions", instantTime, table.basePath(),
        metadata.dataFilesByPartition().values().stream().mapToInt(List::size).sum(),
        metadata.dataFilesByPartition().size());
    return metadata;
  }

  /**
   * The commit before which the cleaner may have deleted files, as Hudi 0.15 finds it: the last
   * clean's earliest commit to retain (from its metadata, or from its plan while it is pending),
   * else the first completed commit.
   */
  private String earliestCommitRetainedByClean(TimelineStore store, Timeline timeline) {
    Optional<Instant> lastClean = timeline.ofAction(Action.CLEAN).last();
    if (lastClean.isEmpty()) {
      return timeline.commitsTimeline().completed().first().map(Instant::time).orElse("");
    }
    Instant clean = lastClean.get();
    if (clean.isCompleted()) {
      byte[] bytes = store.read(clean);
      return bytes.length == 0 ? ""
          : CleanMetadata.fromBytes(bytes, store.pathOf(clean).toString()).earliestCommitToRetain();
    }
    Instant requested = Instant.requested(clean.time(), Action.CLEAN);
    byte[] bytes = store.read(requested);
    ActionInstant earliest = bytes.length == 0 ? null
        : CleanerPlan.fromBytes(bytes, store.pathOf(requested).toString()).earliestInstantToRetain();
    return earliest == null ? "" : earliest.timestamp();
  }

  /** Per partition (every partition, some maybe empty), the files of the latest slices as of T. */
  private Map<String, List<String>> latestFiles(Table writable, Timeline timeline) {
    List<String> partitions = writable.listPartitions();
    FileSystemView view = FileSystemViewLoader.load(writable, timeline, partitions);
    Map<String, List<String>> files = new LinkedHashMap<>();
    partitions.forEach(p -> files.put(p, new ArrayList<>()));
    for (FileSlice slice : view.latestSlicesBeforeOrOn(instantTime)) {
      List<String> names = files.computeIfAbsent(slice.partitionPath(), p -> new ArrayList<>());
      slice.baseFile().ifPresent(b -> names.add(b.fileName()));
      slice.logFiles().stream().map(LogFile::fileName).forEach(names::add);
    }
    return files;
  }

  private TableException refused(String why) {
    return new TableException("cannot savepoint " + instantTime + " of table " + table.basePath() + ": " + why);
  }
}
