package io.riverbed.format.archive;

import io.riverbed.format.TableOperation;
import io.riverbed.format.TableException;
import io.riverbed.format.consumer.ConsumerPin;
import io.riverbed.format.log.AvroDataBlock;
import io.riverbed.format.log.LogFileWriter;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CleanMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineSchemas;
import io.riverbed.format.timeline.TimelineStore;
import java.io.IOException;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hudi's timeline archival on a table: keeps the active timeline in {@code .hoodie/} between
 * {@link ArchiveOptions#minCommitsToKeep()} and {@link ArchiveOptions#maxCommitsToKeep()} completed
 * commits by moving the oldest completed instants, with all their state files, into a new archive
 * file {@code .hoodie/archived/.commits_.archive.<N+1>_1-0-1} that Hudi 0.14/0.15's
 * {@code HoodieArchivedTimeline} reads (a log file of Avro data blocks of
 * {@code HoodieArchivedMetaEntry}, ten records a block, as Hudi's archiver writes them).
 *
 * <p>Which instants go is {@link ArchivePlanner}'s (Hudi's rules: never past a savepoint, a pending
 * write or compaction, or what the last clean retained; Riverbed's: never past the first commit a
 * live registered consumer's next read returns). The order is crash-safe: the archive file
 * is written under {@code .hoodie/.temp} and renamed into place complete, and only then are the
 * active files deleted, requested and inflight files first and completed files oldest first (as
 * Hudi, so a concurrent reader never sees a hole). A crash in between leaves the instants in both
 * timelines; the next run archives them again into a new file, as Hudi does, and both Hudi's
 * reader and {@link ArchivedTimeline} tolerate the duplicates.
 *
 * <p>On a table version 8 the instants go into Hudi 1.x's LSM history instead
 * ({@code .hoodie/timeline/history/}, {@link HistoryArchival}), with Hudi 1.x's choice of cleans and
 * rollbacks ({@link ArchivePlanner#planForHistory}).
 *
 * <p>Typical use after a commit: {@code Archiver.of(table).options(ArchiveOptions.fromMap(conf)).execute()}.
 */
public final class Archiver implements TableOperation<ArchiveResult> {
  private static final Logger LOG = LoggerFactory.getLogger(Archiver.class);
  /** Records per Avro data block: Hudi's {@code hoodie.commits.archival.batch} default. */
  static final int RECORDS_PER_BLOCK = 10;
  /** Hudi's log writer token when no task writes the file ({@code HoodieLogFormat.UNKNOWN_WRITE_TOKEN}). */
  static final String WRITE_TOKEN = "1-0-1";

  private final Table table;
  private ArchiveOptions options = ArchiveOptions.defaults();
  private Runnable afterArchiveFileWritten = () -> { };
  private Consumer<String> historyCheckpoints = step -> { };
  private Clock wallClock = Clock.systemUTC();

  private Archiver(Table table) {
    this.table = table;
  }

  public static Archiver of(Table table) {
    return new Archiver(Objects.requireNonNull(table, "table"));
  }

  public Archiver options(ArchiveOptions archiveOptions) {
    this.options = Objects.requireNonNull(archiveOptions, "archiveOptions");
    return this;
  }

  /** The clock consumer expiry is measured on (default: the system clock). */
  public Archiver wallClock(Clock clock) {
    this.wallClock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * For failure tests: runs after the archive file is in place and before any active file is
   * deleted; an exception thrown from it stands for a crash at that point.
   */
  public Archiver afterArchiveFileWritten(Runnable hook) {
    this.afterArchiveFileWritten = Objects.requireNonNull(hook, "hook");
    return this;
  }

  /**
   * For failure tests on a version 8 table: called with each step of the LSM history's writer as it
   * completes ({@link io.riverbed.format.history.LsmHistoryWriter}'s step names); an exception thrown
   * from it stands for a crash right after that step.
   */
  public Archiver historyCheckpoints(Consumer<String> hook) {
    this.historyCheckpoints = Objects.requireNonNull(hook, "hook");
    return this;
  }

  /**
   * Archives what is due, at most {@link ArchiveOptions#maxInstantsPerRun()} instants.
   *
   * @return the file written and the state files moved; nothing when the timeline is within bounds
   */
  @Override
  public ArchiveResult execute() {
    long start = System.currentTimeMillis();
    Table writable = table.prepareForWrite();
    TimelineStore store = writable.timelineStore();
    boolean history = !keepsLegacyArchive(writable);
    Map<Instant, Long> stateFiles = store.modificationTimes();
    Timeline active = history ? store.load() : Timeline.fromInstants(stateFiles.keySet());
    Optional<String> retainedByClean = earliestRetainedByClean(store, active);
    Optional<ConsumerPin> pin = ConsumerPin.find(writable, active, wallClock.instant(), options.consumers());
    List<Instant> due = plan(history, active, writable, retainedByClean, pin.map(p -> p.firstNeeded().time()));
    if (pin.isPresent()) {
      int withoutConsumer = plan(history, active, writable, retainedByClean, Optional.empty()).size();
      if (withoutConsumer > due.size()) {
        LOG.info("Archival of table {}: {} keeps {} and later instants active ({} instants that were due stay)",
            table.basePath(), pin.get().describe(), pin.get().firstNeeded().time(), withoutConsumer - due.size());
      }
    }
    if (due.isEmpty()) {
      LOG.debug("Nothing to archive in table {}", table.basePath());
      return ArchiveResult.nothing();
    }
    List<Instant> heads = due.size() > options.maxInstantsPerRun() ? due.subList(0, options.maxInstantsPerRun()) : due;
    Set<String> keys = new HashSet<>();
    heads.forEach(i -> keys.add(key(i)));
    List<Instant> files = stateFiles.keySet().stream().filter(i -> keys.contains(key(i))).sorted().toList();
    if (history) {
      String file = new HistoryArchival(writable, store, historyCheckpoints).archive(active, heads, files,
          afterArchiveFileWritten, options.timelineCompactionBatchSize());
      logArchived(heads, files, file, due.size(), start);
      return new ArchiveResult(Optional.of(file), files, due.size() > heads.size());
    }

    ZoneId zone = writable.config().timelineTimezone().zoneId();
    List<GenericRecord> entries = new ArrayList<>();
    for (Instant file : files) {
      Optional<byte[]> requested = file.action() == Action.COMPACTION || file.action() == Action.LOG_COMPACTION
          ? store.readIfExists(Instant.requested(file.time(), file.action())) : Optional.empty();
      String transition = InstantTime.format(LocalDateTime.ofInstant(
          java.time.Instant.ofEpochMilli(stateFiles.get(file)), zone));
      entries.add(ArchivedEntries.toEntry(file, store.read(file), requested, transition,
          store.pathOf(file).toString()));
    }
    String archiveFile = writeArchiveFile(writable, entries);
    afterArchiveFileWritten.run();
    deleteActiveFiles(writable, store, files);
    logArchived(heads, files, archiveFile, due.size(), start);
    return new ArchiveResult(Optional.of(archiveFile), files, due.size() > heads.size());
  }

  private List<Instant> plan(boolean history, Timeline active, Table writable, Optional<String> retainedByClean,
      Optional<String> neededByConsumer) {
    return history
        ? ArchivePlanner.planForHistory(active, writable.type(), options, retainedByClean, neededByConsumer)
        : ArchivePlanner.plan(active, writable.type(), options, retainedByClean, neededByConsumer);
  }

  private void logArchived(List<Instant> heads, List<Instant> files, String file, int due, long start) {
    LOG.info("Archived {} instants ({} state files, {} to {}) of table {} into {} in {} ms{}", heads.size(), files.size(),
        heads.get(0).time(), heads.get(heads.size() - 1).time(), table.basePath(), file,
        System.currentTimeMillis() - start, due > heads.size() ? "; " + (due - heads.size())
            + " more instants are due and go in the next runs" : "");
  }

  /**
   * True if this table's archive is Hudi 0.x's ({@code .hoodie/archived/}, version 6, layout 1);
   * false for version 8, archived into Hudi 1.x's LSM history.
   */
  public static boolean keepsLegacyArchive(Table table) {
    return table.config().timelineLayoutVersion() < TableConfig.TIMELINE_LAYOUT_VERSION_2;
  }

  /** Writes the entries to a temporary log file and renames it to the next archive version. */
  private String writeArchiveFile(Table writable, List<GenericRecord> entries) {
    return writeArchiveFile(writable, writable.archivePath(), entries);
  }

  /**
   * Writes {@code entries} to a temporary log file and renames it to the next archive version in
   * {@code folder} (Hudi 0.x's archive of {@code table}).
   */
  static String writeArchiveFile(Table writable, Path folder, List<GenericRecord> entries) {
    Table table = writable;
    int version = ArchivedTimeline.archiveFiles(writable.fs(), folder).stream()
        .mapToInt(st -> ArchivedTimeline.version(st.getPath()).orElseThrow()).max().orElse(0) + 1;
    String name = ".commits_.archive." + version + "_" + WRITE_TOKEN;
    Path target = new Path(folder, name);
    Path temp = new Path(writable.tempPath(), "archive-" + UUID.randomUUID() + name);
    LogFileWriter writer = LogFileWriter.create(writable.fs(), temp);
    try {
      for (int from = 0; from < entries.size(); from += RECORDS_PER_BLOCK) {
        writer.append(AvroDataBlock.withSchemaOnly(TimelineSchemas.ARCHIVED_META_ENTRY,
            entries.subList(from, Math.min(entries.size(), from + RECORDS_PER_BLOCK))));
      }
      writer.close();
    } finally {
      writer.abort();
    }
    try {
      writable.fs().mkdirs(folder);
      if (!writable.fs().rename(temp, target)) {
        writable.fs().delete(temp, false);
        throw new TableException("cannot move the archive file " + temp + " to " + target
            + " in table " + table.basePath() + " (does " + name + " exist already?)");
      }
    } catch (IOException e) {
      throw new TableException("cannot move the archive file " + temp + " to " + target + " in table "
          + table.basePath(), e);
    }
    return name;
  }

  /** Requested and inflight files first, then completed files oldest first; leftover markers too. */
  static void deleteActiveFiles(Table writable, TimelineStore store, List<Instant> files) {
    files.stream().filter(i -> !i.isCompleted()).forEach(store::delete);
    files.stream().filter(Instant::isCompleted).forEach(store::delete);
    for (Instant done : files) {
      if (done.isCompleted()) {
        Path markers = new Path(writable.tempPath(), done.time());
        try {
          writable.fs().delete(markers, true);
        } catch (IOException e) {
          throw new TableException("cannot delete the leftover markers " + markers + " of archived instant "
              + done.time() + " in table " + writable.basePath(), e);
        }
      }
    }
  }

  /** The last completed clean's earliest retained commit; empty without a clean or for a version-based one. */
  private static Optional<String> earliestRetainedByClean(TimelineStore store, Timeline active) {
    Optional<Instant> clean = active.ofAction(Action.CLEAN).completed().last();
    if (clean.isEmpty()) {
      return Optional.empty();
    }
    byte[] bytes = store.read(clean.get());
    if (bytes.length == 0) {
      return Optional.empty();
    }
    String earliest = CleanMetadata.fromBytes(bytes, store.pathOf(clean.get()).toString()).earliestCommitToRetain();
    return earliest == null || earliest.isEmpty() ? Optional.empty() : Optional.of(earliest);
  }

  private static String key(Instant i) {
    return i.time() + "|" + i.action().completedAs().name();
  }
}
