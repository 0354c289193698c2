package io.riverbed.format.write;

import io.riverbed.format.file.FileGroup;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Chooses the file group of each new key, per partition, for one routing task (Hudi's small-file
 * handling): first the committed small file groups the task owns ({@code hash(fileId) mod
 * parallelism}), each below {@link WriteOptions#smallFileLimitBytes()} and topped up to
 * {@link WriteOptions#maxFileSizeBytes()} (sizes turned into record counts with
 * {@link WriteOptions#recordSizeEstimateBytes()}), in file id order; then new file groups of that
 * many records. The committed view of a partition is read once, on its first new key.
 *
 * <p>Where new keys are merged into base files (COPY_ON_WRITE, or a bulk insert), only slices with
 * a base file and no logs are candidates; where they are appended as logs (MERGE_ON_READ), a
 * slice's size is its base file plus its logs. Updates go to the file group that holds the key
 * (the engine's index), not through here.
 */
public final class FileGroupPacker {
  private final Supplier<Table> table;
  private final WriteOptions options;
  private final int subtask;
  private final int parallelism;
  private final boolean baseFilesOnly;
  private final Map<String, Deque<Slot>> slots = new HashMap<>();
  private final Map<String, Slot> current = new HashMap<>();

  private static final class Slot {
    final String fileId;
    long room;

    Slot(String fileId, long room) {
      this.fileId = fileId;
      this.room = room;
    }
  }

  private FileGroupPacker(Supplier<Table> table, WriteOptions options, int subtask, int parallelism,
      boolean baseFilesOnly) {
    this.table = Objects.requireNonNull(table, "table");
    this.options = Objects.requireNonNull(options, "options");
    if (subtask < 0 || subtask >= parallelism) {
      throw new IllegalArgumentException("task " + subtask + " of " + parallelism + " does not exist");
    }
    this.subtask = subtask;
    this.parallelism = parallelism;
    this.baseFilesOnly = baseFilesOnly;
  }

  /**
   * A packer for task {@code subtask} of {@code parallelism}, new keys written as the table's type
   * writes them.
   *
   * @param table supplies the table, or null while it does not exist yet (then new keys open new groups)
   */
  public static FileGroupPacker of(Supplier<Table> table, WriteOptions options, int subtask, int parallelism) {
    return new FileGroupPacker(table, options, subtask, parallelism, false);
  }

  /** A packer for writes that put new keys in base files whatever the table type (bulk insert). */
  public static FileGroupPacker ofBaseFiles(Supplier<Table> table, WriteOptions options, int subtask,
      int parallelism) {
    return new FileGroupPacker(table, options, subtask, parallelism, true);
  }

  /** The file id of the group the next new key of {@code partition} goes to. */
  public String assign(String partition) {
    Slot slot = current.get(partition);
    if (slot == null || slot.room <= 0) {
      Deque<Slot> small = slots.computeIfAbsent(partition, this::smallFileGroups);
      slot = small.isEmpty() ? new Slot(FileNames.newFileId(), recordsPerFile()) : small.poll();
      current.put(partition, slot);
    }
    slot.room--;
    return slot.fileId;
  }

  private long recordsPerFile() {
    return Math.max(1, options.maxFileSizeBytes() / options.recordSizeEstimateBytes());
  }

  private Deque<Slot> smallFileGroups(String partition) {
    Deque<Slot> out = new ArrayDeque<>();
    if (options.smallFileLimitBytes() <= 0) {
      return out;
    }
    Table t = table.get();
    if (t == null) {
      return out;
    }
    boolean mergesIntoBase = baseFilesOnly || t.type() == TableType.COPY_ON_WRITE;
    var timeline = t.refreshTimeline();
    FileSystemView view = FileSystemViewLoader.load(t, timeline, List.of(partition));
    for (FileGroup group : view.fileGroups()) {
      if (Math.floorMod(group.id().fileId().hashCode(), parallelism) != subtask) {
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
            out.add(new Slot(group.id().fileId(), room));
          }
        }
      });
    }
    return out;
  }

  private static long sizeOf(FileSlice slice) {
    long size = slice.baseFile().map(b -> b.length()).orElse(0L);
    for (LogFile log : slice.logFiles()) {
      size += log.length();
    }
    return size;
  }
}
