package io.riverbed.format.upgrade;

import io.riverbed.format.TableException;
import io.riverbed.format.file.OnceWrittenFile;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.TimelineStore;
import java.io.IOException;
import java.io.InputStream;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Copies every instant file of a table's active timeline into the other layout, as Hudi's
 * upgrade and downgrade handlers rename them: layout 1 ({@code .hoodie/<t>.<action>}, JSON commit
 * metadata) to layout 2 ({@code .hoodie/timeline/<t>_<completion>.<action>}, the completion time
 * taken from the completed file's modification time, Avro commit metadata), and back (the completed
 * file's modification time set to its completion time). Commit and deltacommit files are re-encoded,
 * as Hudi does; every other file is copied as it is. The source files stay until {@link #deleteSources}.
 */
final class TimelineLayoutMove {
  private final FileSystem fs;
  private final Path from;
  private final int fromLayout;
  private final TimelineStore target;
  private final Path tempDir;
  private final ZoneId zone;
  private final List<Path> sources = new ArrayList<>();

  TimelineLayoutMove(FileSystem fs, Path from, int fromLayout, TimelineStore target, Path tempDir, ZoneId zone) {
    this.fs = fs;
    this.from = from;
    this.fromLayout = fromLayout;
    this.target = target;
    this.tempDir = tempDir;
    this.zone = zone;
  }

  /** Writes the target layout's file of every instant file in the source folder; returns how many. */
  int copy() {
    try {
      fs.mkdirs(target.metaPath());
      for (FileStatus status : fs.listStatus(from)) {
        if (status.isFile()) {
          Optional<Instant.Named> named = parse(status.getPath().getName());
          if (named.isPresent()) {
            copy(status, named.get());
            sources.add(status.getPath());
          }
        }
      }
    } catch (IOException e) {
      throw new TableException("cannot move the timeline " + from + " to " + target.metaPath(), e);
    }
    return sources.size();
  }

  private Optional<Instant.Named> parse(String name) {
    return fromLayout >= 2 ? Instant.parseFileNameV2(name) : Instant.parseFileName(name).map(i -> new Instant.Named(i, null));
  }

  private void copy(FileStatus status, Instant.Named named) throws IOException {
    Instant instant = named.instant();
    byte[] content;
    try (InputStream in = fs.open(status.getPath())) {
      content = in.readAllBytes();
    }
    boolean commit = instant.action() == Action.COMMIT || instant.action() == Action.DELTA_COMMIT;
    if (commit && content.length > 0) {
      CommitMetadata metadata = CommitMetadata.parse(content, status.getPath().toString());
      content = target.hasCompletionTimes() ? target.encode(metadata) : metadata.toJsonBytes();
    }
    Path to;
    long modificationTime = -1;
    if (!instant.isCompleted()) {
      to = new Path(target.metaPath(), instant.fileName());
    } else if (target.hasCompletionTimes()) {
      to = new Path(target.metaPath(), instant.fileNameV2(completionTimeOf(instant, status.getModificationTime())));
    } else {
      to = new Path(target.metaPath(), instant.fileName());
      modificationTime = InstantTime.parseToDateTime(named.completionTime()).atZone(zone).toInstant().toEpochMilli();
    }
    fs.delete(to, false); // a rerun after a crash writes it again
    if (!OnceWrittenFile.create(fs, to, content, tempDir)) {
      throw new TableException("cannot write " + to + " while moving timeline " + from + ": it was created meanwhile");
    }
    if (modificationTime > 0) {
      fs.setTimes(to, modificationTime, -1);
    }
  }

  /** The completed file's modification time as an instant time of the table's zone, never before the instant. */
  private String completionTimeOf(Instant instant, long modificationMillis) {
    String modified = InstantTime.format(LocalDateTime.ofInstant(java.time.Instant.ofEpochMilli(modificationMillis), zone));
    return modified.compareTo(instant.time()) >= 0 ? modified : instant.time();
  }

  /** Deletes the source files copied: after the table config names the target layout. */
  void deleteSources() {
    for (Path source : sources) {
      try {
        fs.delete(source, false);
      } catch (IOException e) {
        throw new TableException("cannot delete " + source + " after moving the timeline to " + target.metaPath(), e);
      }
    }
  }
}
