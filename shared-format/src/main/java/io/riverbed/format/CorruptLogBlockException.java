package io.riverbed.format;

import java.util.List;

/**
 * Bytes of a log file that completed instants committed cannot be read: a corrupt or missing
 * block inside the committed length of the file. Reading on would silently drop or change
 * committed rows (and a compaction would make that permanent), so reads and compactions of the
 * file group stop with this exception. A corrupt tail after the committed length is a torn write
 * of an uncommitted instant and is skipped instead.
 */
public class CorruptLogBlockException extends CorruptFileException {
  private final String table;
  private final String fileGroup;
  private final String logFile;
  private final long offset;
  private final List<String> instants;

  public CorruptLogBlockException(String table, String fileGroup, String logFile, long offset, List<String> instants,
      String problem) {
    super("Lost committed data in table " + table + ", file group " + fileGroup + ": log file " + logFile + " "
        + problem + " at byte offset " + offset + ", inside what instant(s) " + instants
        + " committed; refusing to read the file group (restore the file, or roll those instants back)");
    this.table = table;
    this.fileGroup = fileGroup;
    this.logFile = logFile;
    this.offset = offset;
    this.instants = List.copyOf(instants);
  }

  public String table() {
    return table;
  }

  public String fileGroup() {
    return fileGroup;
  }

  public String logFile() {
    return logFile;
  }

  /** Byte offset in the log file where the unreadable committed bytes start. */
  public long offset() {
    return offset;
  }

  /** The completed instants whose committed bytes are affected. */
  public List<String> instants() {
    return instants;
  }
}
