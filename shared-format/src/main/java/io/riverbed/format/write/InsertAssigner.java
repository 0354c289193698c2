package io.riverbed.format.write;

import io.riverbed.format.file.FileGroup;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.table.TableType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Places records with new keys into file groups, a simple form of Hudi's small-file handling: per
 * partition, file groups whose latest slice is below {@link WriteOptions#smallFileLimitBytes()} are
 * topped up to {@link WriteOptions#maxFileSizeBytes()} (smallest first, sizes converted to record
 * counts with {@link WriteOptions#recordSizeEstimateBytes()}); the rest go to new file groups of at
 * most that many records each.
 *
 * <p>COPY_ON_WRITE: only slices with a base file and no logs are candidates (they are merged);
 * MERGE_ON_READ: every slice counts with its base file plus logs (inserts are appended as logs).
 * Records must carry new keys; updates go to the file group that holds the key (the engine's index).
 */
public final class InsertAssigner {

  /** Records for one file group; {@code newFileGroup} false means an existing small file group. */
  public record Assignment(FileGroupId fileGroupId, boolean newFileGroup, List<WriteRecord> records) {}

  private final FileSystemView view;
  private final TableType tableType;
  private final WriteOptions options;

  private InsertAssigner(FileSystemView view, TableType tableType, WriteOptions options) {
    this.view = view;
    this.tableType = tableType;
    this.options = options;
  }

  /** An assigner over the file groups of {@code view} (the committed state the write starts from). */
  public static InsertAssigner of(FileSystemView view, TableType tableType, WriteOptions options) {
    return new InsertAssigner(Objects.requireNonNull(view), Objects.requireNonNull(tableType), Objects.requireNonNull(options));
  }

  /** Assigns every record; records keep their order within a file group. */
  public List<Assignment> assign(List<WriteRecord> inserts) {
    Map<String, List<WriteRecord>> byPartition = new LinkedHashMap<>();
    for (WriteRecord r : inserts) {
      byPartition.computeIfAbsent(r.partitionPath(), p -> new ArrayList<>()).add(r);
    }
    List<Assignment> out = new ArrayList<>();
    byPartition.forEach((partition, records) -> assignPartition(partition, records, out));
    return out;
  }

  private void assignPartition(String partition, List<WriteRecord> records, List<Assignment> out) {
    long perFile = Math.max(1, options.maxFileSizeBytes() / options.recordSizeEstimateBytes());
    int next = 0;
    for (SmallFile small : smallFiles(partition)) {
      if (next >= records.size()) {
        return;
      }
      long room = (options.maxFileSizeBytes() - small.size) / options.recordSizeEstimateBytes();
      if (room <= 0) {
        continue;
      }
      int end = (int) Math.min(records.size(), next + room);
      out.add(new Assignment(small.id, false, List.copyOf(records.subList(next, end))));
      next = end;
    }
    while (next < records.size()) {
      int end = (int) Math.min(records.size(), next + perFile);
      out.add(new Assignment(new FileGroupId(partition, FileNames.newFileId()), true,
          List.copyOf(records.subList(next, end))));
      next = end;
    }
  }

  private List<SmallFile> smallFiles(String partition) {
    List<SmallFile> small = new ArrayList<>();
    if (options.smallFileLimitBytes() <= 0) {
      return small;
    }
    for (FileGroup group : view.fileGroups()) {
      if (!group.id().partitionPath().equals(partition)) {
        continue;
      }
      view.latestSliceForWrite(group.id()).ifPresent(slice -> {
        if (tableType == TableType.COPY_ON_WRITE && (slice.baseFile().isEmpty() || slice.hasLogs())) {
          return;
        }
        long size = sizeOf(slice);
        if (size < options.smallFileLimitBytes()) {
          small.add(new SmallFile(group.id(), size));
        }
      });
    }
    small.sort(Comparator.comparingLong((SmallFile s) -> s.size).thenComparing(s -> s.id));
    return small;
  }

  private static long sizeOf(FileSlice slice) {
    long size = slice.baseFile().map(b -> b.length()).orElse(0L);
    for (LogFile log : slice.logFiles()) {
      size += log.length();
    }
    return size;
  }

  private record SmallFile(FileGroupId id, long size) {}
}
