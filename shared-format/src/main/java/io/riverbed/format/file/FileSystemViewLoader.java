package io.riverbed.format.file;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.CompactionOperation;
import io.riverbed.format.timeline.CompactionPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineChangedException;
import io.riverbed.format.timeline.TimelineStore;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Builds a {@link FileSystemView} of a table: lists its partitions (or takes the files a query
 * names), and reads from the timeline the pending compaction plans and the file groups that
 * completed replacecommits replaced.
 */
public final class FileSystemViewLoader {
  private FileSystemViewLoader() {}

  /** A view over every file in every partition of the table, listed once. */
  public static FileSystemView load(Table table, Timeline activeTimeline) {
    Map<String, List<FileStatus>> files = new LinkedHashMap<>();
    table.listPartitionFiles().forEach((partition, all) ->
        files.put(partition, all.stream().filter(FileSystemViewLoader::isDataFile).toList()));
    return fromFiles(table, activeTimeline, files);
  }

  /** A view over the given partitions only (partition pruning). */
  public static FileSystemView load(Table table, Timeline activeTimeline, Collection<String> partitions) {
    Map<String, List<FileStatus>> files = new LinkedHashMap<>();
    for (String partition : partitions) {
      files.put(partition, listDataFiles(table, partition));
    }
    return fromFiles(table, activeTimeline, files);
  }

  /** A view over the given files, e.g. those named in the commits of an incremental range. */
  public static FileSystemView fromFiles(Table table, Timeline activeTimeline, Map<String, ? extends Collection<FileStatus>> files) {
    TimelineStore store = table.timelineStore();
    return FileSystemView.build(activeTimeline, files, pendingCompactions(store, activeTimeline),
        replacedFileGroups(store, activeTimeline), table.config().logFilesNamedByDeltaCommit());
  }

  /** The data files (base and log) directly inside one partition folder. */
  public static List<FileStatus> listDataFiles(Table table, String partition) {
    Path folder = table.partitionPath(partition);
    try {
      List<FileStatus> out = new ArrayList<>();
      for (FileStatus st : table.fs().listStatus(folder)) {
        if (isDataFile(st)) {
          out.add(st);
        }
      }
      return out;
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw new TableException("cannot list partition " + folder, e);
    }
  }

  private static boolean isDataFile(FileStatus st) {
    String name = st.getPath().getName();
    return st.isFile() && (FileNames.isBaseFile(name) || FileNames.isLogFile(name));
  }

  /**
   * File group to the instant of the pending compaction planned for it, read from the requested plans.
   *
   * @throws TimelineChangedException if a plan the listing names is gone: the compaction completed
   *     and was archived since, so the listing no longer tells which slice is the latest
   */
  public static Map<FileGroupId, String> pendingCompactions(TimelineStore store, Timeline activeTimeline) {
    Map<FileGroupId, String> out = new HashMap<>();
    for (Instant pending : activeTimeline.pendingCompactions().instants()) {
      Instant requested = Instant.requested(pending.time(), Action.COMPACTION);
      byte[] bytes = store.readUnlessRemoved(requested).orElseThrow(() -> new TimelineChangedException(
          "compaction " + pending.time() + " was pending in the listed timeline, and its plan "
              + store.pathOf(requested) + " is gone (completed and archived since)"));
      CompactionPlan plan = CompactionPlan.fromBytes(bytes, store.pathOf(requested).toString());
      for (CompactionOperation op : plan.operations()) {
        out.put(new FileGroupId(op.partitionPath(), op.fileId()), pending.time());
      }
    }
    return out;
  }

  /** File group to the completed replacecommit that replaced it. */
  public static Map<FileGroupId, String> replacedFileGroups(TimelineStore store, Timeline activeTimeline) {
    Map<FileGroupId, String> out = new HashMap<>();
    for (Instant replace : activeTimeline.ofAction(Action.REPLACE_COMMIT).completed().instants()) {
      // archived since the listing only once its replaced files were cleaned; rolled back: they are live again
      Optional<byte[]> bytes = store.readUnlessRemoved(replace);
      if (bytes.isEmpty()) {
        continue;
      }
      CommitMetadata metadata = CommitMetadata.parse(bytes.get(), store.pathOf(replace).toString());
      metadata.replacedFileIds().forEach((partition, ids) ->
          ids.forEach(id -> out.putIfAbsent(new FileGroupId(partition, id), replace.time())));
    }
    return out;
  }
}
