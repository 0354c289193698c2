package io.riverbed.spark;

import io.riverbed.format.TableException;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.query.Split;
import io.riverbed.format.timeline.InstantRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One file slice to read, as plain strings so it travels to executors: the base file and log
 * files with their lengths, the instant logs are read up to, and the incremental range.
 */
public record SplitPartition(String partitionPath, String fileId, String baseInstant, String baseFile, long baseLength,
    ArrayList<String> logFiles, ArrayList<Long> logLengths, String latestInstant, String rangeStart, String rangeEnd)
    implements InputPartition {

  public static SplitPartition of(Split split) {
    FileSlice s = split.slice();
    ArrayList<String> logs = new ArrayList<>();
    ArrayList<Long> lengths = new ArrayList<>();
    for (LogFile log : s.logFiles()) {
      logs.add(log.path().toString());
      lengths.add(log.length());
    }
    return new SplitPartition(s.partitionPath(), s.fileId(), s.baseInstant(),
        s.baseFile().map(b -> b.path().toString()).orElse(null), s.baseFile().map(BaseFile::length).orElse(0L),
        logs, lengths, split.latestInstant(),
        split.range().map(InstantRange::startExclusive).orElse(null), split.range().map(InstantRange::endInclusive).orElse(null));
  }

  public Split toSplit() {
    Optional<BaseFile> base = Optional.ofNullable(baseFile).map(p -> BaseFile.of(new Path(p), baseLength)
        .orElseThrow(() -> new TableException("not a base file name: " + p)));
    List<LogFile> logs = new ArrayList<>();
    for (int i = 0; i < logFiles.size(); i++) {
      String p = logFiles.get(i);
      logs.add(LogFile.of(new Path(p), logLengths.get(i)).orElseThrow(() -> new TableException("not a log file name: " + p)));
    }
    Optional<InstantRange> range = rangeStart == null ? Optional.empty() : Optional.of(InstantRange.between(rangeStart, rangeEnd));
    return new Split(new FileSlice(new FileGroupId(partitionPath, fileId), baseInstant, base, logs), latestInstant, range);
  }

  public boolean baseOnly() {
    return logFiles.isEmpty() && baseFile != null;
  }

  public boolean incremental() {
    return rangeStart != null;
  }
}
