package io.riverbed.flink;

import io.riverbed.format.file.FileGroup;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.write.WriteOptions;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Chooses the file group of each new key, per partition, for one bucket-assigner subtask: first
 * the committed small file groups this subtask owns ({@code hash(fileId) mod parallelism}), topped
 * up to {@code hoodie.parquet.max.file.size} (sizes turned into record counts with
 * {@code hoodie.copyonwrite.record.size.estimate}), then new file groups of that many records.
 * The committed view of a partition is read once, on its first new key. COPY_ON_WRITE only tops up
 * slices with a base file and no logs.
 */
final class FileGroupPacker {
  private final Supplier<Table> table;
  private final WriteOptions options;
  private final int subtask;
  private final int parallelism;
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

  FileGroupPacker(Supplier<Table> table, WriteOptions options, int subtask, int parallelism) {
    this.table = table;
    this.options = options;
    this.subtask = subtask;
    this.parallelism = parallelism;
  }

  /** The file id of the group the next new key of {@code partition} goes to. */
  String assign(String partition) {
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
    var timeline = TimelineStore.at(t.fs(), t.metaPath()).load();
    FileSystemView view = FileSystemViewLoader.load(t, timeline, List.of(partition));
    for (FileGroup group : view.fileGroups()) {
      if (Math.floorMod(group.id().fileId().hashCode(), parallelism) != subtask) {
        continue;
      }
      view.latestSliceForWrite(group.id()).ifPresent(slice -> {
        if (t.type() == TableType.COPY_ON_WRITE && (slice.baseFile().isEmpty() || slice.hasLogs())) {
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
