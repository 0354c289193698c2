package io.riverbed.format.write;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * slice's size is its base file plus its logs. {@link #ofSmallestBaseFiles} keeps, per partition,
 * only the few smallest of the base-only candidates, as Hudi 0.15's Spark upsert into MERGE_ON_READ
 * does. Updates go to the file group that holds the key (the engine's index), not through here;
 * {@link #tookNewKeys} says which groups this packer gave new keys to.
 */
public final class FileGroupPacker {
  private final Supplier<Table> table;
  private final WriteOptions options;
  private final int subtask;
  private final int parallelism;
  private final boolean baseFilesOnly;
  private final int candidatesPerPartition;
  private final Map<String, Deque<Slot>> slots = new HashMap<>();
  private final Map<String, Slot> current = new HashMap<>();
  private final Set<FileGroupId> filled = new HashSet<>();

  private static final class Slot {
    final String fileId;
    final long size;
    long room;

    Slot(String fileId, long size, long room) {
      this.fileId = fileId;
      this.size = size;
      this.room = room;
    }
  }

  private FileGroupPacker(Supplier<Table> table, WriteOptions options, int subtask, int parallelism,
      boolean baseFilesOnly, int candidatesPerPartition) {
    this.table = Objects.requireNonNull(table, "table");
    this.options = Objects.requireNonNull(options, "options");
    if (subtask < 0 || subtask >= parallelism) {
      throw new IllegalArgumentException("task " + subtask + " of " + parallelism + " does not exist");
    }
    this.subtask = subtask;
    this.parallelism = parallelism;
    this.baseFilesOnly = baseFilesOnly;
    if (candidatesPerPartition < 0) {
      throw new IllegalArgumentException("a partition cannot have " + candidatesPerPartition + " small file group candidates");
    }
    this.candidatesPerPartition = candidatesPerPartition;
  }

  /**
   * A packer for task {@code subtask} of {@code parallelism}, new keys written as the table's type
   * writes them.
   *
   * @param table supplies the table, or null while it does not exist yet (then new keys open new groups)
   */
  public static FileGroupPacker of(Supplier<Table> table, WriteOptions options, int subtask, int parallelism) {
    return new FileGroupPacker(table, options, subtask, parallelism, false, Integer.MAX_VALUE);
  }

  /** A packer for writes that put new keys in base files whatever the table type (bulk insert). */
  public static FileGroupPacker ofBaseFiles(Supplier<Table> table, WriteOptions options, int subtask,
      int parallelism) {
    return new FileGroupPacker(table, options, subtask, parallelism, true, Integer.MAX_VALUE);
  }

  /**
   * A packer that puts new keys in base files, topping up only the {@code candidatesPerPartition}
   * smallest small base-only file groups of each partition (whichever task owns them), then new
   * groups: Hudi 0.15's Spark insert and upsert into a MERGE_ON_READ table with an index that cannot
   * index log files.
   */
  public static FileGroupPacker ofSmallestBaseFiles(Supplier<Table> table, WriteOptions options, int subtask,
      int parallelism, int candidatesPerPartition) {
    return new FileGroupPacker(table, options, subtask, parallelism, true, candidatesPerPartition);
  }

  /** The file id of the group the next new key of {@code partition} goes to. */
  public String assign(String partition) {
    Slot slot = current.get(partition);
    if (slot == null || slot.room <= 0) {
      Deque<Slot> small = slots.computeIfAbsent(partition, this::smallFileGroups);
      slot = small.isEmpty() ? new Slot(FileNames.newFileId(), 0, recordsPerFile()) : small.poll();
      current.put(partition, slot);
    }
    slot.room--;
    filled.add(new FileGroupId(partition, slot.fileId));
    return slot.fileId;
  }

  /** Whether {@link #assign} gave {@code group} a new key, so far. */
  public boolean tookNewKeys(FileGroupId group) {
    return filled.contains(group);
  }

  private long recordsPerFile() {
    return SmallFileGroups.recordsPerNewFile(options);
  }

  private Deque<Slot> smallFileGroups(String partition) {
    Deque<Slot> out = new ArrayDeque<>();
    Table t = table.get();
    if (t == null || options.smallFileLimitBytes() <= 0 || candidatesPerPartition == 0) {
      return out;
    }
    boolean mergesIntoBase = baseFilesOnly || t.type() == TableType.COPY_ON_WRITE;
    FileSystemView view = FileSystemViewLoader.load(t, t.refreshTimeline(), List.of(partition));
    for (SmallFileGroups.Candidate c : SmallFileGroups.of(view, partition, options, mergesIntoBase, candidatesPerPartition)) {
      if (Math.floorMod(c.fileId().hashCode(), parallelism) == subtask) {
        out.add(new Slot(c.fileId(), c.sizeBytes(), c.roomRecords()));
      }
    }
    return out;
  }
}
