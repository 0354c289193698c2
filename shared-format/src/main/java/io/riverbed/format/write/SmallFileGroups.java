package io.riverbed.format.write;

import io.riverbed.format.file.FileGroup;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.LogFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The committed file groups of a partition that new keys may top up (Hudi's small-file handling):
 * those whose latest slice is below {@link WriteOptions#smallFileLimitBytes()}, each with its room
 * up to {@link WriteOptions#maxFileSizeBytes()} in records ({@link WriteOptions#recordSizeEstimateBytes()}).
 * Shared by the streaming packer, which splits them among its tasks, and the batch plan, which
 * fills them in order.
 */
public final class SmallFileGroups {
  /** A small file group: its id, its size in bytes, and how many more records it takes. */
  public record Candidate(String fileId, long sizeBytes, long roomRecords) {}

  private SmallFileGroups() {}

  /**
   * The small file groups of {@code partition} in {@code view}, in the view's order; where new keys
   * are merged into base files ({@code mergesIntoBase}) only slices with a base file and no logs,
   * else a slice's size is its base file plus its logs. More than {@code limit} candidates are cut
   * to the {@code limit} smallest, smallest first (ties by file id).
   */
  public static List<Candidate> of(FileSystemView view, String partition, WriteOptions options, boolean mergesIntoBase,
      int limit) {
    List<Candidate> candidates = new ArrayList<>();
    if (options.smallFileLimitBytes() <= 0 || limit == 0) {
      return candidates;
    }
    for (FileGroup group : view.fileGroups()) {
      if (!group.id().partitionPath().equals(partition)) {
        continue;
      }
      view.latestSliceForWrite(group.id()).ifPresent(slice -> {
        if (mergesIntoBase && (slice.baseFile().isEmpty() || slice.hasLogs())) {
          return;
        }
        long size = sizeOf(slice);
        if (size < options.smallFileLimitBytes()) {
          long room = (options.maxFileSizeBytes() - size) / options.recordSizeEstimateBytes();
          if (room > 0) {
            candidates.add(new Candidate(group.id().fileId(), size, room));
          }
        }
      });
    }
    if (candidates.size() > limit) {
      candidates.sort(Comparator.comparingLong(Candidate::sizeBytes).thenComparing(Candidate::fileId));
      candidates.subList(limit, candidates.size()).clear();
    }
    return candidates;
  }

  /** How many records a new file group takes: the target file size over the record size estimate. */
  public static long recordsPerNewFile(WriteOptions options) {
    return Math.max(1, options.maxFileSizeBytes() / options.recordSizeEstimateBytes());
  }

  private static long sizeOf(FileSlice slice) {
    long size = slice.baseFile().map(b -> b.length()).orElse(0L);
    for (LogFile log : slice.logFiles()) {
      size += log.length();
    }
    return size;
  }
}
