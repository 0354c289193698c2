package io.riverbed.format.write;

import io.riverbed.format.TableOperation;
import io.riverbed.format.TableException;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CompactionOperation;
import io.riverbed.format.timeline.CompactionPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans a compaction of a MERGE_ON_READ table and writes {@code C.compaction.requested}, as Hudi
 * 0.15's {@code ScheduleCompactionActionExecutor} + {@code HoodieCompactionPlanGenerator} do:
 *
 * <ul>
 *   <li>The instant time C is greater than every instant of the write timeline that is completed
 *       or a compaction in any state, and smaller than every pending commit/deltacommit/
 *       replacecommit. If a pending write makes that impossible nothing is scheduled and
 *       {@link Result#reason()} says which instant is in the way (roll it back or let it finish).
 *   <li>Candidates are the latest slices (as of C) of file groups that have log files, are not
 *       in a pending compaction and are not replaced; {@link CompactionOptions} thresholds filter
 *       them further.
 *   <li>The plan is version 2: log file names and base file name (null for log-only slices), plus
 *       the metrics Hudi's compaction strategies record ({@code TOTAL_LOG_FILES_SIZE} is read by
 *       Hudi's compactor, so a plan without it could not be run by Hudi).
 * </ul>
 *
 * Scheduling must not race with a writer of the same table (single writer, as Hudi assumes
 * without a lock provider): a writer that starts before the plan is written would append to the
 * old slice and its data would not be compacted.
 */
public final class CompactionScheduler implements TableOperation<CompactionScheduler.Result> {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionScheduler.class);

  /** Plan metric keys of Hudi's {@code CompactionStrategy}. */
  public static final String TOTAL_IO_READ_MB = "TOTAL_IO_READ_MB";
  public static final String TOTAL_IO_WRITE_MB = "TOTAL_IO_WRITE_MB";
  public static final String TOTAL_IO_MB = "TOTAL_IO_MB";
  public static final String TOTAL_LOG_FILES_SIZE = "TOTAL_LOG_FILES_SIZE";
  public static final String TOTAL_LOG_FILES = "TOTAL_LOG_FILES";

  /** Hudi's {@code hoodie.parquet.max.file.size} default, the write estimate of a log-only slice. */
  private static final long DEFAULT_MAX_BASE_FILE_SIZE = 120L * 1024 * 1024;

  /**
   * What {@link #schedule()} did.
   *
   * @param instantTime the compaction instant, if one was scheduled
   * @param plan the plan written to {@code C.compaction.requested}, if one was scheduled
   * @param reason why nothing was scheduled, or a short summary of the plan
   */
  public record Result(Optional<String> instantTime, Optional<CompactionPlan> plan, String reason) {
    public boolean isScheduled() {
      return plan.isPresent();
    }

    static Result skipped(String reason) {
      return new Result(Optional.empty(), Optional.empty(), reason);
    }
  }

  private final Table table;
  private CompactionOptions options = CompactionOptions.defaults();
  private String requestedInstantTime;
  private InstantTime clock;
  private Map<String, String> extraMetadata;

  private CompactionScheduler(Table table) {
    this.table = Objects.requireNonNull(table, "table");
  }

  /** A scheduler for {@code table}; configure, then {@link #schedule()}. */
  public static CompactionScheduler of(Table table) {
    return new CompactionScheduler(table);
  }

  public CompactionScheduler options(CompactionOptions compactionOptions) {
    this.options = Objects.requireNonNull(compactionOptions);
    return this;
  }

  /** Uses this instant time instead of a new one; it must satisfy the ordering rules. */
  public CompactionScheduler instantTime(String instantTime) {
    this.requestedInstantTime = Objects.requireNonNull(instantTime);
    return this;
  }

  /** The generator of the compaction instant time; default: the table's timeline zone. */
  public CompactionScheduler clock(InstantTime generator) {
    this.clock = Objects.requireNonNull(generator);
    return this;
  }

  /** Stored in the plan and copied into the completed commit's extra metadata. */
  public CompactionScheduler extraMetadata(Map<String, String> metadata) {
    this.extraMetadata = Map.copyOf(metadata);
    return this;
  }

  /**
   * Plans and writes {@code C.compaction.requested}.
   *
   * @throws TableException if the table is not MERGE_ON_READ, or an explicit instant time is not
   *     greater than every completed or pending-compaction instant
   */
  @Override
  public Result execute() {
    if (table.type() != TableType.MERGE_ON_READ) {
      throw new TableException("cannot compact table " + table.basePath() + ": it is " + table.type()
          + ", compaction needs MERGE_ON_READ");
    }
    TimelineStore store = table.timelineStore();
    Timeline timeline = store.load();
    Optional<String> floor = timeline.writeTimeline().completedAndCompactionInstants().last().map(Instant::time);
    Optional<Instant> earliestPendingWrite = timeline.commitsTimeline().pending().first();

    String c;
    if (requestedInstantTime != null) {
      c = requestedInstantTime;
      if (floor.isPresent() && c.compareTo(floor.get()) <= 0) {
        throw new TableException("cannot schedule compaction " + c + " on table " + table.basePath()
            + ": instant " + floor.get() + " (completed or compaction) is not older");
      }
    } else {
      InstantTime generator = clock != null ? clock : InstantTime.generator(table.config().timelineTimezone().zoneId());
      // after every instant and completion time (layout 2): logs completed before the plan belong to its slices
      c = generator.nextAfter(timeline.latestTime());
    }
    if (earliestPendingWrite.isPresent() && earliestPendingWrite.get().time().compareTo(c) <= 0) {
      String reason = "pending write " + earliestPendingWrite.get() + " is not later than compaction instant " + c
          + "; roll it back or let it complete before scheduling a compaction";
      LOG.info("Not scheduling a compaction of {}: {}", table.basePath(), reason);
      return Result.skipped(reason);
    }

    Map<FileGroupId, String> pending = FileSystemViewLoader.pendingCompactions(store, timeline);
    FileSystemView view = FileSystemViewLoader.load(table, timeline);
    List<CompactionOperation> operations = new ArrayList<>();
    for (FileSlice slice : view.latestMergedSlices(c)) {
      if (pending.containsKey(slice.fileGroupId()) || !selected(slice)) {
        continue;
      }
      operations.add(operationFor(slice));
    }
    if (operations.isEmpty()) {
      String reason = "no file group with log files qualifies (thresholds: " + options.minLogFiles() + " log files, "
          + options.minLogBytes() + " log bytes; " + pending.size() + " file groups in pending compactions)";
      LOG.info("Not scheduling a compaction of {}: {}", table.basePath(), reason);
      return Result.skipped(reason);
    }
    var plan = new CompactionPlan(operations, extraMetadata, CompactionPlan.LATEST_VERSION, false);
    store.createRequested(c, Action.COMPACTION, plan.toBytes());
    LOG.info("Scheduled compaction {} of {} with {} file groups", c, table.basePath(), operations.size());
    return new Result(Optional.of(c), Optional.of(plan), operations.size() + " file groups planned");
  }

  private boolean selected(FileSlice slice) {
    return slice.hasLogs()
        && slice.logFiles().size() >= options.minLogFiles()
        && logBytes(slice) >= options.minLogBytes();
  }

  private static long logBytes(FileSlice slice) {
    return slice.logFiles().stream().mapToLong(LogFile::length).filter(l -> l >= 0).sum();
  }

  private static CompactionOperation operationFor(FileSlice slice) {
    long logBytes = logBytes(slice);
    long baseBytes = slice.baseFile().map(b -> b.length()).orElse(0L);
    long readMb = (baseBytes + logBytes) / (1024 * 1024);
    long writeMb = (slice.baseFile().isPresent() ? baseBytes : DEFAULT_MAX_BASE_FILE_SIZE) / (1024 * 1024);
    Map<String, Double> metrics = new LinkedHashMap<>();
    metrics.put(TOTAL_IO_READ_MB, (double) readMb);
    metrics.put(TOTAL_IO_WRITE_MB, (double) writeMb);
    metrics.put(TOTAL_IO_MB, (double) (readMb + writeMb));
    metrics.put(TOTAL_LOG_FILES_SIZE, (double) logBytes);
    metrics.put(TOTAL_LOG_FILES, (double) slice.logFiles().size());
    return new CompactionOperation(
        slice.baseInstant(),
        slice.logFiles().stream().map(LogFile::fileName).toList(),
        slice.baseFile().map(b -> b.fileName()).orElse(null),
        slice.fileId(),
        slice.partitionPath(),
        metrics,
        null);
  }
}
