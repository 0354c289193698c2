package io.riverbed.format.file;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * One version of a file group: at most one base file written at {@code baseInstant} plus the
 * log files appended on top of it, in reading order.
 */
public record FileSlice(FileGroupId fileGroupId, String baseInstant, Optional<BaseFile> baseFile, List<LogFile> logFiles) {
  public FileSlice {
    List<LogFile> sorted = new ArrayList<>(logFiles);
    Collections.sort(sorted);
    logFiles = List.copyOf(sorted);
  }

  public String partitionPath() {
    return fileGroupId.partitionPath();
  }

  public String fileId() {
    return fileGroupId.fileId();
  }

  public boolean isEmpty() {
    return baseFile.isEmpty() && logFiles.isEmpty();
  }

  public boolean hasLogs() {
    return !logFiles.isEmpty();
  }

  /** This slice without its base file and with {@code moreLogs} appended (merging across a pending compaction). */
  public FileSlice withLogsOf(FileSlice later) {
    List<LogFile> all = new ArrayList<>(logFiles);
    all.addAll(later.logFiles);
    return new FileSlice(fileGroupId, baseInstant, baseFile, all);
  }

  /** The newest log file, the one a writer would roll over from. */
  public Optional<LogFile> latestLogFile() {
    return logFiles.isEmpty() ? Optional.empty() : Optional.of(logFiles.get(logFiles.size() - 1));
  }
}
