package io.riverbed.format.file;

import java.util.Comparator;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * A log file of a file slice. {@code baseInstant} names the slice, not the writer: each block
 * carries its own instant. Ordered as Hudi orders logs: base instant, version, write token.
 */
public record LogFile(Path path, String fileId, String baseInstant, int version, String writeToken, long length)
    implements Comparable<LogFile> {

  public static final Comparator<LogFile> ORDER =
      Comparator.comparing(LogFile::baseInstant)
          .thenComparingInt(LogFile::version)
          .thenComparing(LogFile::writeToken, Comparator.nullsFirst(Comparator.naturalOrder()));

  public String fileName() {
    return path.getName();
  }

  /** Reads the parts of the name; empty if {@code path} is not a (non-CDC) log file. */
  public static Optional<LogFile> of(Path path, long length) {
    return FileNames.parseLogFileName(path.getName())
        .filter(n -> n.extension().equals(FileNames.LOG_EXTENSION) && !n.cdc())
        .map(n -> new LogFile(path, n.fileId(), n.baseInstant(), n.version(), n.writeToken(), length));
  }

  @Override
  public int compareTo(LogFile o) {
    return ORDER.compare(this, o);
  }
}
