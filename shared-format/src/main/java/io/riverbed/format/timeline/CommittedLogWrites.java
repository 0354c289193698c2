package io.riverbed.format.timeline;

import io.riverbed.format.file.FileNames;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * Which bytes of which log files the completed instants of a timeline committed, from their
 * write stats: a delta write stat names the log file ({@code path}), where the instant's blocks
 * start ({@code logOffset}) and how many bytes it wrote there ({@code fileSizeInBytes}; Hudi's
 * append handle sums the appends of one handle to one file, Riverbed writes whole files from
 * offset 0, so both give {@code [logOffset, logOffset + fileSizeInBytes)}).
 *
 * <p>Instants archived out of the active timeline are not known here: their bytes are not
 * checked. Log files no completed instant names (uncommitted writes, rollback command blocks)
 * have no committed bytes.
 *
 * <p>Every instant that writes into a log file comes at or after the instant the file's slice is
 * based on (the one in its name): a write goes to the latest slice, and a compaction is planned
 * only before every pending write. So the writes into a set of log files are found in the
 * instants from their oldest base instant on ({@link #loadSince}), however long the timeline
 * before it. Serializable, so an engine can load it once per query and ship it to its tasks.
 */
public final class CommittedLogWrites implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Bytes {@code [offset, end)} of a log file committed by {@code instant}. */
  public record Write(String instant, long offset, long end) implements Serializable {
    public boolean overlaps(long from, long to) {
      return offset < to && from < end;
    }
  }

  private static final CommittedLogWrites NONE = new CommittedLogWrites(Map.of());

  private final Map<String, List<Write>> byFile;

  private CommittedLogWrites(Map<String, List<Write>> byFile) {
    this.byFile = byFile;
  }

  /** Nothing known to be committed: every corrupt block is skipped (the behaviour without a timeline). */
  public static CommittedLogWrites none() {
    return NONE;
  }

  /**
   * Reads the commit metadata of every completed commit, deltacommit and replacecommit of
   * {@code timeline} (those an archival removed meanwhile are left out, as archived ones are).
   *
   * @param basePath the table's base path, which write stat paths are relative to
   */
  public static CommittedLogWrites load(TimelineStore store, Timeline timeline, Path basePath) {
    return loadSince(store, timeline, basePath, "");
  }

  /**
   * The writes of the completed instants of {@code timeline} at or after {@code sinceInstant}:
   * all there are into log files whose base instant is {@code sinceInstant} or later.
   */
  public static CommittedLogWrites loadSince(TimelineStore store, Timeline timeline, Path basePath,
      String sinceInstant) {
    var byFile = new HashMap<String, List<Write>>();
    for (Instant instant : timeline.commitsTimeline().completed().instants()) {
      if (instant.time().compareTo(sinceInstant) < 0) {
        continue;
      }
      Optional<byte[]> bytes = store.readUnlessRemoved(instant);
      if (bytes.isEmpty()) {
        continue; // archived since the listing: like every archived instant, not checked
      }
      CommitMetadata metadata = CommitMetadata.parse(bytes.get(), store.pathOf(instant).toString());
      for (WriteStat stat : metadata.writeStats()) {
        if (stat.path() == null || stat.fileSizeInBytes() <= 0
            || FileNames.parseLogFileName(stat.fileName()).isEmpty()) {
          continue;
        }
        long offset = stat.delta() == null ? 0 : Math.max(0, stat.delta().logOffset());
        byFile.computeIfAbsent(key(new Path(basePath, stat.path())), k -> new ArrayList<>())
            .add(new Write(instant.time(), offset, offset + stat.fileSizeInBytes()));
      }
    }
    byFile.replaceAll((k, v) -> List.copyOf(v));
    return new CommittedLogWrites(Map.copyOf(byFile));
  }

  /** Only the writes into {@code logFiles}: what the readers of those files need. */
  public CommittedLogWrites restrictedTo(Collection<Path> logFiles) {
    var kept = new HashMap<String, List<Write>>();
    for (Path file : logFiles) {
      String key = key(file);
      List<Write> writes = byFile.get(key);
      if (writes != null) {
        kept.put(key, writes);
      }
    }
    return new CommittedLogWrites(Map.copyOf(kept));
  }

  /** The committed writes into {@code logFile}; empty if none is known. */
  public List<Write> of(Path logFile) {
    return byFile.getOrDefault(key(logFile), List.of());
  }

  private static String key(Path path) {
    return Path.getPathWithoutSchemeAndAuthority(path).toString();
  }

  @Override
  public String toString() {
    return "CommittedLogWrites" + byFile;
  }
}
