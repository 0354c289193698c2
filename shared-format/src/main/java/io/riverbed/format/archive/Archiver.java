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
   * Archives what is due, at most {@link ArchiveOptions#maxInstantsPerRun()} instants.
   *
   * @return the file written and the state files moved; nothing when the timeline is within bounds
   */
  @Override
  public ArchiveResult execute() {
    long start = System.currentTimeMillis();
    requireArchivable(table);
    Table writable = table.prepareForWrite();
    TimelineStore store = writable.timelineStore();
    Map<Instant, Long> stateFiles = store.modificationTimes();
    Timeline active = Timeline.fromInstants(stateFiles.keySet());
    Optional<String> retainedByClean = earliestRetainedByClean(store, active);
    Optional<ConsumerPin> pin = ConsumerPin.find(writable, active, wallClock.instant(), options.consumers());
    List<Instant> due = ArchivePlanner.plan(active, writable.type(), options, retainedByClean,
        pin.map(p -> p.firstNeeded().time()));
    if (pin.isPresent()) {
      int withoutConsumer = ArchivePlanner.plan(active, writable.type(), options, retainedByClean, Optional.empty())
          .size();
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
    LOG.info("Archived {} instants ({} state files, {} to {}) of table {} into {} in {} ms{}", heads.size(), files.size(),
        heads.get(0).time(), heads.get(heads.size() - 1).time(), table.basePath(), archiveFile,
        System.currentTimeMillis() - start, due.size() > heads.size() ? "; " + (due.size() - heads.size())
            + " more instants are due and go in the next runs" : "");
    return new ArchiveResult(Optional.of(archiveFile), files, due.size() > heads.size());
  }

  /** True if Riverbed archives this table: version 6 (layout 1); version 8 keeps Hudi 1.x's LSM history, not written here. */
  public static boolean archives(Table table) {
    return table.config().timelineLayoutVersion() < TableConfig.TIMELINE_LAYOUT_VERSION_2;
  }

  /**
   * @throws TableException naming the table for a version 8 table: its archived timeline is Hudi
   *     1.x's LSM history, which Riverbed does not write; an archive of version 6's form there
   *     would be a mixed layout
   */
  private static void requireArchivable(Table table) {
    if (!archives(table)) {
      throw new TableException("cannot archive table " + table.basePath() + ": it has table version "
          + table.config().version() + ", whose archived timeline is Hudi 1.x's LSM history in " + table.archivePath()
          + ", which Riverbed does not write yet; archive it with Hudi 1.x, or downgrade it to version 6");
    }
  }

  /** Writes the entries to a temporary log file and renames it to the next archive version. */
  private String writeArchiveFile(Table writable, List<GenericRecord> entries) {
    Path folder = writable.archivePath();
    int version = ArchivedTimeline.archiveFiles(writable).stream()
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
  private void deleteActiveFiles(Table writable, TimelineStore store, List<Instant> files) {
    files.stream().filter(i -> !i.isCompleted()).forEach(store::delete);
    files.stream().filter(Instant::isCompleted).forEach(store::delete);
    for (Instant done : files) {
      if (done.isCompleted()) {
        Path markers = new Path(writable.tempPath(), done.time());
        try {
          writable.fs().delete(markers, true);
        } catch (IOException e) {
          throw new TableException("cannot delete the leftover markers " + markers + " of archived instant "
              + done.time() + " in table " + table.basePath(), e);
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
