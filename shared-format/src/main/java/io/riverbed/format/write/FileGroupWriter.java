package io.riverbed.format.write;

import io.riverbed.format.TableException;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.file.FileGroup;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineChangedException;
import io.riverbed.format.timeline.WriteStat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Writes batches of file groups for one writer task and instant with the core's handles, and keeps
 * the instant's write stats. Which slice a batch goes to: the newer of the committed view's latest
 * slice (read once per instant and partition) and the slice this task itself wrote last (a file
 * group it created or rewrote in an instant that may not be committed yet — only this task writes
 * the group, so its own last write is the group's newest state).
 *
 * <ul>
 *   <li>MERGE_ON_READ: every batch is a new log file of the slice ({@link AppendHandle}), except in
 *       the groups the writer's base-file choice names (bulk inserts, new keys of a Spark upsert):
 *       those are written as COPY_ON_WRITE's are, if their slice has no logs. The choice is made on
 *       a group's first batch of the instant and kept for the instant, so a group never has both a
 *       log and a new base file version from one instant.
 *   <li>COPY_ON_WRITE, and the base-file groups of MERGE_ON_READ: a batch merges into the slice's base file
 *       ({@link MergeHandle}) or creates the group ({@link CreateHandle}). A second batch of the
 *       same group in the same instant merges into the first one's file and replaces it: the new
 *       file gets the next roll number in its write token, the previous file is deleted and its
 *       stat replaced.
 * </ul>
 *
 * With the bucket index and event-time ordering, changes older than their key's stored write or
 * delete are dropped first ({@link StoredKeyVersions}). With the bucket index, a batch's file group
 * is a bucket number; its file id is the one the committed view holds for that bucket, else a new
 * bucket-prefixed id.
 */
final class FileGroupWriter {
  private final Table table;
  private Schema schema;
  private final WriteOptions writeOptions;
  private final int subtask;
  private final int parallelism;
  private final int attempt;
  private final boolean bucketRouting;
  private final Predicate<FileGroupId> baseFileGroups;
  private final Runnable afterFileWritten;
  private final Map<FileGroupId, FileSlice> written = new HashMap<>();
  private final Map<String, String> bucketFileIds = new HashMap<>();

  private String instant;
  private WriteTaskContext context;
  private Timeline timeline;
  private final Map<String, FileSystemView> views = new HashMap<>();
  /** Per partition listed in this instant: (file id, base instant) to the highest log version on storage. */
  private final Map<String, Map<String, Integer>> logVersions = new HashMap<>();
  private Map<FileGroupId, String> pendingCompactions;
  private Map<FileGroupId, String> replacedFileGroups;
  private final Map<FileGroupId, List<WriteStat>> stats = new LinkedHashMap<>();
  private final Map<FileGroupId, Integer> rolls = new HashMap<>();
  private final Map<FileGroupId, Boolean> intoBase = new HashMap<>();
  /** Event-time ordering across commits with the bucket index (no index state); null otherwise. */
  private final StoredKeyVersions keyVersions;
  private long staleReported;

  /**
   * @param bucketRouting file groups are named by bucket number (bucket index), not by file id
   * @param baseFileGroups the MERGE_ON_READ groups whose batches are written into base files
   * @param keyVersions drops stale changes (bucket index with event-time ordering); null for none
   * @param afterFileWritten runs after each data file is written, before its stat is kept
   */
  FileGroupWriter(Table table, Schema schema, WriteOptions writeOptions, int subtask, int parallelism, int attempt,
      boolean bucketRouting, Predicate<FileGroupId> baseFileGroups, StoredKeyVersions keyVersions,
      Runnable afterFileWritten) {
    this.table = table;
    this.schema = schema;
    this.writeOptions = writeOptions;
    this.subtask = subtask;
    this.parallelism = parallelism;
    this.attempt = attempt;
    this.bucketRouting = bucketRouting;
    this.baseFileGroups = baseFileGroups;
    this.keyVersions = keyVersions;
    this.afterFileWritten = afterFileWritten;
  }

  /** Changes dropped as older than their key's stored version since the last call (bucket index). */
  long takeStaleCount() {
    if (keyVersions == null) {
      return 0;
    }
    long n = keyVersions.staleCount() - staleReported;
    staleReported = keyVersions.staleCount();
    return n;
  }

  void startInstant(String instantTime) {
    instant = instantTime;
    context = WriteTaskContext.of(table, instantTime, subtask, parallelism, attempt, schema, writeOptions);
    timeline = null;
    pendingCompactions = null;
    replacedFileGroups = null;
    views.clear();
    logVersions.clear();
    stats.clear();
    rolls.clear();
    intoBase.clear();
  }

  /** Writes the files that follow in {@code newSchema} (those written keep theirs). */
  void schema(Schema newSchema) {
    schema = newSchema;
    if (context != null) {
      context = context.withSchema(newSchema);
    }
  }

  /** The stats of the instant's files; the instant is over for this task. */
  List<WriteStat> finishInstant() {
    List<WriteStat> out = new ArrayList<>();
    stats.values().forEach(out::addAll);
    instant = null;
    context = null;
    stats.clear();
    return out;
  }

  void write(String instantTime, String partition, String fileGroup, List<WriteRecord> records) {
    if (!instantTime.equals(instant)) {
      throw new IllegalStateException("instant " + instantTime + " was not started (current " + instant + ")");
    }
    String fileId = bucketRouting ? bucketFileId(partition, Integer.parseInt(fileGroup)) : fileGroup;
    FileGroupId id = new FileGroupId(partition, fileId);
    if (keyVersions != null) {
      records = keyVersions.admit(id, records);
      if (records.isEmpty()) {
        return;
      }
    }
    FileSlice slice = latestSlice(id);
    if (table.type() == TableType.MERGE_ON_READ && !writesBase(id, slice)) {
      AppendHandle handle = AppendHandle.of(context, id, Optional.ofNullable(slice));
      String logKey = logVersionKey(fileId, handle.logFileInstant());
      Map<String, Integer> partitionLogVersions = logVersions.get(partition);
      Optional<WriteStat> stat = handle.append(records, partitionLogVersions.getOrDefault(logKey, 0));
      if (stat.isEmpty()) {
        return;
      }
      partitionLogVersions.merge(logKey, stat.get().delta().logVersion(), Math::max);
      afterFileWritten.run();
      stats.computeIfAbsent(id, k -> new ArrayList<>()).add(stat.get());
      written.put(id, new FileSlice(id, handle.baseInstant(), slice == null ? Optional.empty() : slice.baseFile(),
          List.of()));
    } else {
      writeCopyOnWrite(id, slice, records);
    }
  }

  private boolean writesBase(FileGroupId id, FileSlice slice) {
    return intoBase.computeIfAbsent(id, k -> baseFileGroups.test(k) && (slice == null || !slice.hasLogs()));
  }

  private void writeCopyOnWrite(FileGroupId id, FileSlice slice, List<WriteRecord> records) {
    int roll = rolls.getOrDefault(id, 0);
    WriteTaskContext rollContext = roll == 0 ? context
        : WriteTaskContext.of(table, instant, subtask, parallelism, attempt + roll, schema, writeOptions);
    Optional<WriteStat> stat = slice != null && slice.baseFile().isPresent()
        ? Optional.of(MergeHandle.of(rollContext, slice).merge(records))
        : CreateHandle.of(rollContext, id).write(records);
    if (stat.isEmpty()) {
      return;
    }
    afterFileWritten.run();
    rolls.put(id, roll + 1);
    WriteStat newStat = stat.get();
    List<WriteStat> previous = stats.get(id);
    if (previous != null && !previous.isEmpty()) {
      WriteStat first = previous.get(0);
      deleteReplacedRoll(slice);
      newStat = newStat.toBuilder()
          .prevCommit(first.prevCommit())
          .numInserts(first.numInserts() + newStat.numInserts())
          .numUpdateWrites(first.numUpdateWrites() + newStat.numUpdateWrites())
          .numDeletes(first.numDeletes() + newStat.numDeletes())
          .build();
    }
    stats.put(id, new ArrayList<>(List.of(newStat)));
    Path path = new Path(table.basePath(), newStat.path());
    BaseFile base = BaseFile.of(path, newStat.fileSizeInBytes())
        .orElseThrow(() -> new TableException("not a base file name: " + path));
    written.put(id, new FileSlice(id, instant, Optional.of(base), List.of()));
  }

  private void deleteReplacedRoll(FileSlice replaced) {
    Path path = replaced.baseFile().orElseThrow().path();
    try {
      table.fs().delete(path, false);
    } catch (IOException e) {
      throw new TableException("cannot delete " + path + ", replaced within instant " + instant + " of table "
          + table.basePath(), e);
    }
  }

  private FileSlice latestSlice(FileGroupId id) {
    FileSlice committed = view(id.partitionPath()).latestSliceForWrite(id).orElse(null);
    FileSlice mine = written.get(id);
    if (mine == null) {
      return committed;
    }
    if (committed == null) {
      return mine;
    }
    return committed.baseInstant().compareTo(mine.baseInstant()) >= 0 ? committed : mine;
  }

  /**
   * The committed view of one partition, from one listing per instant and partition; the listing
   * also gives the highest log version of each slice on storage ({@link #logVersions}). The
   * timeline's pending compactions and replaced file groups are read once per instant, not per
   * partition.
   */
  private FileSystemView view(String partition) {
    FileSystemView view = views.get(partition);
    if (view == null) {
      if (timeline == null) {
        timeline = table.refreshTimeline();
      }
      List<FileStatus> files = FileSystemViewLoader.listDataFiles(table, partition);
      try {
        view = viewOf(partition, files);
      } catch (TimelineChangedException e) {
        // a compaction the listing shows pending completed and was archived meanwhile: its slice is the latest
        timeline = table.refreshTimeline();
        pendingCompactions = null;
        replacedFileGroups = null;
        files = FileSystemViewLoader.listDataFiles(table, partition);
        view = viewOf(partition, files);
      }
      views.put(partition, view);
      Map<String, Integer> versions = new HashMap<>();
      for (FileStatus file : files) {
        LogFile.of(file.getPath(), file.getLen()).ifPresent(log ->
            versions.merge(logVersionKey(log.fileId(), log.baseInstant()), log.version(), Math::max));
      }
      logVersions.put(partition, versions);
    }
    return view;
  }

  private FileSystemView viewOf(String partition, List<FileStatus> files) {
    if (pendingCompactions == null) {
      pendingCompactions = FileSystemViewLoader.pendingCompactions(table.timelineStore(), timeline);
      replacedFileGroups = FileSystemViewLoader.replacedFileGroups(table.timelineStore(), timeline);
    }
    return FileSystemView.build(timeline, Map.of(partition, files), pendingCompactions, replacedFileGroups,
        table.config().logFilesNamedByDeltaCommit());
  }

  private static String logVersionKey(String fileId, String baseInstant) {
    return fileId + '\u0000' + baseInstant;
  }

  private String bucketFileId(String partition, int bucket) {
    return bucketFileIds.computeIfAbsent(partition + '\u0000' + bucket, k -> {
      FileSystemView view = view(partition);
      String fallback = null;
      for (FileGroup group : view.fileGroups()) {
        if (BucketIndex.bucketOf(group.id().fileId()) == bucket && view.replaceInstant(group.id()).isEmpty()) {
          if (view.latestSliceForWrite(group.id()).isPresent()) {
            return group.id().fileId();
          }
          fallback = group.id().fileId();
        }
      }
      return fallback != null ? fallback : BucketIndex.newFileId(bucket);
    });
  }
}
