package io.riverbed.spark;

import io.riverbed.format.TableException;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.query.Split;
import io.riverbed.format.timeline.InstantRange;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * One file slice to read, as plain strings so it travels to executors inside a
 * {@link SplitPartition}: the base file and log files with their lengths, the instant logs are
 * read up to, the incremental range, and the byte range of the base file this split covers (the
 * whole file, or for a large base-only file read by the vectorized reader, the row groups whose
 * midpoints fall in {@code [byteStart, byteStart + byteLength)}, as Spark splits Parquet files).
 */
public record SliceSplit(String partitionPath, String fileId, String baseInstant, String baseFile, long baseLength,
    ArrayList<String> logFiles, ArrayList<Long> logLengths, String latestInstant, String rangeStart,
    boolean rangeStartInclusive, String rangeEnd, long byteStart, long byteLength)
    implements Serializable {

  public static SliceSplit of(Split split) {
    FileSlice s = split.slice();
    ArrayList<String> logs = new ArrayList<>();
    ArrayList<Long> lengths = new ArrayList<>();
    for (LogFile log : s.logFiles()) {
      logs.add(log.path().toString());
      lengths.add(log.length());
    }
    long baseLength = s.baseFile().map(BaseFile::length).orElse(0L);
    return new SliceSplit(s.partitionPath(), s.fileId(), s.baseInstant(),
        s.baseFile().map(b -> b.path().toString()).orElse(null), baseLength,
        logs, lengths, split.latestInstant(),
        split.range().map(InstantRange::start).orElse(null), split.range().map(InstantRange::startInclusive).orElse(false),
        split.range().map(InstantRange::endInclusive).orElse(null), 0, baseLength);
  }

  public Split toSplit() {
    if (!wholeBaseFile()) {
      throw new TableException("split of base file " + baseFile + " covers bytes " + byteStart + "+" + byteLength
          + " only; only Spark's vectorized reader reads part of a base file");
    }
    Optional<BaseFile> base = Optional.ofNullable(baseFile).map(p -> BaseFile.of(new Path(p), baseLength)
        .orElseThrow(() -> new TableException("not a base file name: " + p)));
    List<LogFile> logs = new ArrayList<>();
    for (int i = 0; i < logFiles.size(); i++) {
      String p = logFiles.get(i);
      logs.add(LogFile.of(new Path(p), logLengths.get(i)).orElseThrow(() -> new TableException("not a log file name: " + p)));
    }
    Optional<InstantRange> range = rangeStart == null ? Optional.empty()
        : Optional.of(new InstantRange(rangeStart, rangeStartInclusive, rangeEnd));
    return new Split(new FileSlice(new FileGroupId(partitionPath, fileId), baseInstant, base, logs), latestInstant, range);
  }

  /** This split with only the bytes {@code [start, start + length)} of its base file. */
  SliceSplit withByteRange(long start, long length) {
    return new SliceSplit(partitionPath, fileId, baseInstant, baseFile, baseLength, logFiles, logLengths, latestInstant,
        rangeStart, rangeStartInclusive, rangeEnd, start, length);
  }

  public boolean baseOnly() {
    return logFiles.isEmpty() && baseFile != null;
  }

  public boolean incremental() {
    return rangeStart != null;
  }

  /** True when the split reads its base file (if any) from the first byte to the last. */
  public boolean wholeBaseFile() {
    return byteStart == 0 && byteLength == baseLength;
  }

  /** The bytes this split reads: its part of the base file and all its log files. */
  long bytes() {
    long sum = byteLength;
    for (long l : logLengths) {
      sum += l;
    }
    return sum;
  }

  /** How many files this split opens (for the open cost Spark charges per file). */
  int files() {
    return (baseFile == null ? 0 : 1) + logFiles.size();
  }
}
