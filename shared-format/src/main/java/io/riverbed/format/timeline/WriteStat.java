package io.riverbed.format.timeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of {@code partitionToWriteStats}: Hudi's {@code HoodieWriteStat}, plus the fields of
 * {@code HoodieDeltaWriteStat} when {@link #delta()} is present (a log append of a MERGE_ON_READ
 * write). Base-file stats and delta stats can sit in the same commit.
 *
 * @param fileId file group id
 * @param path path relative to the base path: {@code partition/fileName}
 * @param prevCommit base instant of the previous slice, or {@link #NULL_COMMIT} for a new file group
 * @param fileSizeInBytes size of the file at {@code path} after this write (readers use it as the length)
 * @param delta the delta-stat fields, or null for a base-file stat
 */
public record WriteStat(
    String fileId,
    String path,
    Map<String, Long> cdcStats,
    String prevCommit,
    long numWrites,
    long numDeletes,
    long numUpdateWrites,
    long numInserts,
    long totalWriteBytes,
    long totalWriteErrors,
    String tempPath,
    String partitionPath,
    long totalLogRecords,
    long totalLogFilesCompacted,
    long totalLogSizeCompacted,
    long totalUpdatedRecordsCompacted,
    long totalLogBlocks,
    long totalCorruptLogBlock,
    long totalRollbackBlocks,
    long fileSizeInBytes,
    Long minEventTime,
    Long maxEventTime,
    RuntimeStats runtimeStats,
    DeltaStats delta) {

  /** {@code prevCommit} of a write that created its file group (Hudi's {@code NULL_COMMIT}). */
  public static final String NULL_COMMIT = "null";

  /** Timings Hudi records per file; serialized as {@code runtimeStats}. */
  public record RuntimeStats(long totalScanTime, long totalUpsertTime, long totalCreateTime) {}

  /**
   * The {@code HoodieDeltaWriteStat} fields.
   *
   * @param logVersion version of the log file written
   * @param logOffset byte offset in that file where this commit's blocks start
   * @param baseFile base file name of the slice, or {@code ""} for a log-only slice
   * @param logFiles log file names of the slice
   */
  public record DeltaStats(int logVersion, long logOffset, String baseFile, List<String> logFiles) {
    public DeltaStats {
      logFiles = logFiles == null ? List.of() : List.copyOf(logFiles);
    }
  }

  public WriteStat {
    cdcStats = cdcStats == null ? null : Map.copyOf(cdcStats);
  }

  public boolean isDelta() {
    return delta != null;
  }

  /** True if this write created the file group. */
  public boolean isNewFileGroup() {
    return prevCommit == null || NULL_COMMIT.equals(prevCommit);
  }

  /** The file name part of {@link #path()}. */
  public String fileName() {
    if (path == null) {
      return null;
    }
    int slash = path.lastIndexOf('/');
    return slash < 0 ? path : path.substring(slash + 1);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    var b = new Builder();
    b.fileId = fileId;
    b.path = path;
    b.cdcStats = cdcStats;
    b.prevCommit = prevCommit;
    b.numWrites = numWrites;
    b.numDeletes = numDeletes;
    b.numUpdateWrites = numUpdateWrites;
    b.numInserts = numInserts;
    b.totalWriteBytes = totalWriteBytes;
    b.totalWriteErrors = totalWriteErrors;
    b.tempPath = tempPath;
    b.partitionPath = partitionPath;
    b.totalLogRecords = totalLogRecords;
    b.totalLogFilesCompacted = totalLogFilesCompacted;
    b.totalLogSizeCompacted = totalLogSizeCompacted;
    b.totalUpdatedRecordsCompacted = totalUpdatedRecordsCompacted;
    b.totalLogBlocks = totalLogBlocks;
    b.totalCorruptLogBlock = totalCorruptLogBlock;
    b.totalRollbackBlocks = totalRollbackBlocks;
    b.fileSizeInBytes = fileSizeInBytes;
    b.minEventTime = minEventTime;
    b.maxEventTime = maxEventTime;
    b.runtimeStats = runtimeStats;
    b.delta = delta;
    return b;
  }

  /** Builder; {@code prevCommit} defaults to {@link #NULL_COMMIT}. */
  public static final class Builder {
    private String fileId;
    private String path;
    private Map<String, Long> cdcStats;
    private String prevCommit = NULL_COMMIT;
    private long numWrites;
    private long numDeletes;
    private long numUpdateWrites;
    private long numInserts;
    private long totalWriteBytes;
    private long totalWriteErrors;
    private String tempPath;
    private String partitionPath;
    private long totalLogRecords;
    private long totalLogFilesCompacted;
    private long totalLogSizeCompacted;
    private long totalUpdatedRecordsCompacted;
    private long totalLogBlocks;
    private long totalCorruptLogBlock;
    private long totalRollbackBlocks;
    private long fileSizeInBytes;
    private Long minEventTime;
    private Long maxEventTime;
    private RuntimeStats runtimeStats;
    private DeltaStats delta;

    private Builder() {}

    public Builder fileId(String v) { fileId = v; return this; }
    public Builder path(String v) { path = v; return this; }
    public Builder cdcStats(Map<String, Long> v) { cdcStats = v; return this; }
    public Builder prevCommit(String v) { prevCommit = v; return this; }
    public Builder numWrites(long v) { numWrites = v; return this; }
    public Builder numDeletes(long v) { numDeletes = v; return this; }
    public Builder numUpdateWrites(long v) { numUpdateWrites = v; return this; }
    public Builder numInserts(long v) { numInserts = v; return this; }
    public Builder totalWriteBytes(long v) { totalWriteBytes = v; return this; }
    public Builder totalWriteErrors(long v) { totalWriteErrors = v; return this; }
    public Builder tempPath(String v) { tempPath = v; return this; }
    public Builder partitionPath(String v) { partitionPath = v; return this; }
    public Builder totalLogRecords(long v) { totalLogRecords = v; return this; }
    public Builder totalLogFilesCompacted(long v) { totalLogFilesCompacted = v; return this; }
    public Builder totalLogSizeCompacted(long v) { totalLogSizeCompacted = v; return this; }
    public Builder totalUpdatedRecordsCompacted(long v) { totalUpdatedRecordsCompacted = v; return this; }
    public Builder totalLogBlocks(long v) { totalLogBlocks = v; return this; }
    public Builder totalCorruptLogBlock(long v) { totalCorruptLogBlock = v; return this; }
    public Builder totalRollbackBlocks(long v) { totalRollbackBlocks = v; return this; }
    public Builder fileSizeInBytes(long v) { fileSizeInBytes = v; return this; }
    public Builder minEventTime(Long v) { minEventTime = v; return this; }
    public Builder maxEventTime(Long v) { maxEventTime = v; return this; }
    public Builder runtimeStats(RuntimeStats v) { runtimeStats = v; return this; }
    public Builder delta(DeltaStats v) { delta = v; return this; }

    /** Makes this a delta (log append) stat. */
    public Builder delta(int logVersion, long logOffset, String baseFile, List<String> logFiles) {
      delta = new DeltaStats(logVersion, logOffset, baseFile, new ArrayList<>(logFiles));
      return this;
    }

    public WriteStat build() {
      Objects.requireNonNull(partitionPath, "partitionPath");
      return new WriteStat(fileId, path, cdcStats, prevCommit, numWrites, numDeletes, numUpdateWrites,
          numInserts, totalWriteBytes, totalWriteErrors, tempPath, partitionPath, totalLogRecords,
          totalLogFilesCompacted, totalLogSizeCompacted, totalUpdatedRecordsCompacted, totalLogBlocks,
          totalCorruptLogBlock, totalRollbackBlocks, fileSizeInBytes, minEventTime, maxEventTime,
          runtimeStats, delta);
    }
  }
}
