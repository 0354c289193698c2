package io.riverbed.format.timeline;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.CorruptFileException;
import io.riverbed.format.TableException;
import io.riverbed.format.file.OnceWrittenFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the active timeline from a table's {@code .hoodie} folder and makes state transitions
 * on it. Every state file is created once and never visible half-written ({@link OnceWrittenFile}).
 * In a layout-2 timeline ({@code .hoodie/timeline/}, table version 8) a completed instant's name
 * carries its completion time ({@code <requested>_<completion>.<action>}), taken when it completes,
 * and commit metadata is written as Hudi 1.x writes it ({@link #encode}).
 *
 * <p>The store remembers the timeline it listed last ({@link #current}), so the steps of one
 * operation share one listing; {@link #load} lists again. Its own transitions invalidate what it
 * remembers, while other writers' (another store, another process) are seen only after
 * {@link #load}: an operation refreshes once at its start. Safe for concurrent use.
 */
public final class TimelineStore {
  private static final Logger LOG = LoggerFactory.getLogger(TimelineStore.class);

  private final FileSystem fs;
  private final Path metaPath;
  private final int layoutVersion;
  /** Completion times of a layout-2 timeline, on the table's timeline clock. */
  private final InstantTime completionClock;
  /** The last listing, or null when none was made since this store changed the timeline. */
  private Timeline remembered;
  /** Counts this store's changes, so a listing that raced one is not remembered. */
  private long changes;

  private TimelineStore(FileSystem fs, Path metaPath, int layoutVersion, ZoneId zone) {
    this.fs = fs;
    this.metaPath = metaPath;
    this.layoutVersion = layoutVersion;
    this.completionClock = InstantTime.generator(zone);
  }

  /** A store over the layout-1 timeline in {@code metaPath} (the table's {@code .hoodie} folder). */
  public static TimelineStore at(FileSystem fs, Path metaPath) {
    return at(fs, metaPath, 1);
  }

  /**
   * A store over the timeline of layout {@code layoutVersion} in {@code timelinePath}: {@code .hoodie}
   * for layout 1, {@code .hoodie/timeline} for layout 2; completion times on the local clock (Hudi's
   * default timeline zone).
   */
  public static TimelineStore at(FileSystem fs, Path timelinePath, int layoutVersion) {
    return at(fs, timelinePath, layoutVersion, ZoneId.systemDefault());
  }

  /** A store as {@link #at(FileSystem, Path, int)} with completion times on the clock of {@code zone}. */
  public static TimelineStore at(FileSystem fs, Path timelinePath, int layoutVersion, ZoneId zone) {
    if (layoutVersion != 1 && layoutVersion != 2) {
      throw new TableException("timeline " + timelinePath + " has layout version " + layoutVersion
          + "; Riverbed reads layouts 1 and 2");
    }
    return new TimelineStore(fs, timelinePath, layoutVersion, zone);
  }

  /** True for a layout-2 timeline (table version 8): completion times in names, Avro commit metadata. */
  public boolean hasCompletionTimes() {
    return layoutVersion >= 2;
  }

  /**
   * Commit metadata as this timeline stores it: Hudi 0.x's JSON in layout 1, Hudi 1.x's Avro
   * container of {@code HoodieCommitMetadata} (or {@code HoodieReplaceCommitMetadata}) in layout 2.
   */
  public byte[] encode(CommitMetadata metadata) {
    return hasCompletionTimes() ? CommitMetadataAvro.write(metadata) : metadata.toJsonBytes();
  }

  public Path metaPath() {
    return metaPath;
  }

  /**
   * The timeline as this store last listed it, listing now if it never did or has changed the
   * timeline since. Does not see other stores' changes made after that listing.
   */
  public Timeline current() {
    synchronized (this) {
      if (remembered != null) {
        return remembered;
      }
    }
    return load();
  }

  /**
   * {@link #current}, or a new listing if that has no instant at {@code time}: for a step that
   * goes on with an instant an earlier step made, possibly through another store.
   */
  public Timeline currentWith(String time) {
    Timeline timeline = current();
    return timeline.containsTime(time) ? timeline : load();
  }

  /** Lists {@code .hoodie} and returns the active timeline, highest state per instant; remembered. */
  public Timeline load() {
    long before = changesSoFar();
    try {
      List<Instant> found = new ArrayList<>();
      Map<String, String> completionTimes = new HashMap<>();
      for (FileStatus status : fs.listStatus(metaPath)) {
        if (status.isFile()) {
          parse(status.getPath().getName()).ifPresent(n -> {
            found.add(n.instant());
            if (n.completionTime() != null) {
              completionTimes.put(Timeline.completionKey(n.instant().time(), n.instant().action()), n.completionTime());
            }
          });
        }
      }
      return remember(Timeline.fromInstants(found, completionTimes), before);
    } catch (FileNotFoundException e) {
      throw new TableException("timeline folder " + metaPath + " does not exist", e);
    } catch (IOException e) {
      throw new TableException("cannot list timeline folder " + metaPath, e);
    }
  }

  /**
   * The modification time of every state file of the active timeline (milliseconds, as the file
   * system reports it): Hudi's state transition time of a layout-1 timeline, which has no
   * completion times in its file names.
   */
  public Map<Instant, Long> modificationTimes() {
    long before = changesSoFar();
    try {
      Map<Instant, Long> times = new HashMap<>();
      for (FileStatus status : fs.listStatus(metaPath)) {
        if (status.isFile()) {
          parse(status.getPath().getName()).ifPresent(n -> times.put(n.instant(), status.getModificationTime()));
        }
      }
      remember(Timeline.fromInstants(times.keySet()), before);
      return times;
    } catch (IOException e) {
      throw new TableException("cannot list timeline folder " + metaPath, e);
    }
  }

  /** Every state file present for {@code time}, e.g. requested, inflight and completed. */
  public List<Instant> statesOf(String time) {
    try {
      List<Instant> found = new ArrayList<>();
      for (FileStatus status : fs.listStatus(metaPath)) {
        parse(status.getPath().getName())
            .map(Instant.Named::instant)
            .filter(i -> i.time().equals(time))
            .ifPresent(found::add);
      }
      return found;
    } catch (IOException e) {
      throw new TableException("cannot list timeline folder " + metaPath, e);
    }
  }

  /**
   * The file of an instant. In layout 2 a completed instant's name holds its completion time, taken
   * from the remembered listing (listing again if that does not hold the instant).
   *
   * @throws CorruptFileException if a layout-2 timeline has no completed file for the instant
   */
  public Path pathOf(Instant instant) {
    if (layoutVersion < 2 || !instant.isCompleted()) {
      return new Path(metaPath, instant.fileName());
    }
    Optional<String> completion = current().completionTime(instant);
    if (completion.isEmpty()) {
      completion = load().completionTime(instant);
    }
    String completionTime = completion.orElseThrow(() -> new CorruptFileException("timeline " + metaPath
        + " has no completed file <requested>_<completion>." + instant.action().word() + " for instant " + instant.time()));
    return new Path(metaPath, instant.fileNameV2(completionTime));
  }

  private Optional<Instant.Named> parse(String fileName) {
    return layoutVersion >= 2 ? Instant.parseFileNameV2(fileName)
        : Instant.parseFileName(fileName).map(i -> new Instant.Named(i, null));
  }

  public boolean exists(Instant instant) {
    if (hasCompletionTimes() && instant.isCompleted()) {
      return load().completionTime(instant).isPresent();
    }
    try {
      return fs.exists(pathOf(instant));
    } catch (IOException e) {
      throw new TableException("cannot check " + pathOf(instant), e);
    }
  }

  /** The bytes of an instant's file; empty array for an empty file. */
  public byte[] read(Instant instant) {
    Path path = pathOf(instant);
    try (InputStream in = fs.open(path)) {
      return in.readAllBytes();
    } catch (FileNotFoundException e) {
      throw new CorruptFileException("timeline file " + path + " is missing", e);
    } catch (IOException e) {
      throw new TableException("cannot read timeline file " + path, e);
    }
  }

  /**
   * The bytes of a listed instant's file, or empty if the file was removed after the listing: by an
   * archival (the instant moved to the archived timeline, its writes stay committed) or a rollback or
   * restore (its writes are undone). For readers of old completed instants, which must not fail
   * because the timeline moved on beneath them.
   */
  public Optional<byte[]> readUnlessRemoved(Instant instant) {
    Path path = pathOf(instant);
    try (InputStream in = fs.open(path)) {
      return Optional.of(in.readAllBytes());
    } catch (FileNotFoundException e) {
      LOG.debug("{} was removed after the timeline was listed (archived or rolled back)", path);
      return Optional.empty();
    } catch (IOException e) {
      throw new TableException("cannot read timeline file " + path, e);
    }
  }

  /** Reads the file of {@code instant} if it exists. */
  public Optional<byte[]> readIfExists(Instant instant) {
    return exists(instant) ? Optional.of(read(instant)) : Optional.empty();
  }

  /**
   * Creates the file of {@code instant} with {@code content}; fails with
   * {@link CommitConflictException} if it exists already.
   */
  public void create(Instant instant, byte[] content) {
    if (hasCompletionTimes() && instant.isCompleted()) {
      throw new TableException("cannot create " + instant + " in timeline " + metaPath
          + " directly: a completed instant of a layout-2 timeline is named by its completion time; complete it");
    }
    createFile(new Path(metaPath, instant.fileName()), content);
  }

  private void createFile(Path target, byte[] content) {
    try {
      boolean created;
      try {
        created = OnceWrittenFile.create(fs, target, content, new Path(metaPath, ".temp"));
      } finally {
        changed();
      }
      if (!created) {
        throw new CommitConflictException("timeline file " + target + " exists already");
      }
      LOG.debug("created {}", target);
    } catch (IOException e) {
      throw new TableException("cannot create timeline file " + target, e);
    }
  }

  /** Writes {@code time.<action>.requested}. */
  public Instant createRequested(String time, Action action, byte[] content) {
    Instant requested = Instant.requested(time, action);
    create(requested, content);
    return requested;
  }

  /** Moves a requested instant to inflight (a new file; the requested file stays). */
  public Instant transitionToInflight(Instant requested, byte[] content) {
    requireState(requested, State.REQUESTED);
    Instant inflight = requested.withState(State.INFLIGHT);
    create(inflight, content);
    return inflight;
  }

  /**
   * Completes an inflight instant: writing the completed file is the atomic commit point. In a
   * layout-2 timeline the file is named with a completion time later than every requested and
   * completion time listed now, as Hudi 1.x takes it when it completes an instant.
   *
   * @throws CommitConflictException if the instant is completed already
   */
  public Instant complete(Instant inflight, byte[] content) {
    requireState(inflight, State.INFLIGHT);
    Instant done = inflight.withState(State.COMPLETED);
    if (hasCompletionTimes()) {
      Timeline listed = load();
      if (listed.completionTime(done).isPresent()) {
        throw new CommitConflictException("instant " + done.time() + " of timeline " + metaPath
            + " is completed already (" + done.fileNameV2(listed.completionTime(done).get()) + ")");
      }
      String completionTime = completionClock.nextAfter(listed.latestTime());
      createFile(new Path(metaPath, done.fileNameV2(completionTime)), content);
    } else {
      create(done, content);
    }
    LOG.info("completed {} in {}", done, metaPath);
    return done;
  }


  /** Deletes every state file of the instant at {@code time} filed under {@code action}. */
  public void deleteAllStates(String time, Action action) {
    for (Instant i : statesOf(time)) {
      if (i.action().completedAs() == action.completedAs()) {
        delete(i);
      }
    }
  }

  /** Deletes one state file, completed ones last by the caller's order; missing files are fine. */
  public void delete(Instant instant) {
    if (hasCompletionTimes() && instant.isCompleted() && current().completionTime(instant).isEmpty()
        && load().completionTime(instant).isEmpty()) {
      return; // no completed file of it in this layout-2 timeline
    }
    Path path = pathOf(instant);
    try {
      fs.delete(path, false);
    } catch (IOException e) {
      throw new TableException("cannot delete timeline file " + path, e);
    } finally {
      changed();
    }
  }

  private synchronized long changesSoFar() {
    return changes;
  }

  private synchronized Timeline remember(Timeline listed, long changesBefore) {
    if (changes == changesBefore) {
      remembered = listed;
    }
    return listed;
  }

  private synchronized void changed() {
    changes++;
    remembered = null;
  }

  private static void requireState(Instant instant, State expected) {
    if (instant.state() != expected) {
      throw new TableException("instant " + instant + " is " + instant.state() + ", expected " + expected);
    }
  }
}
