package io.riverbed.format.write;

import io.riverbed.format.TableException;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.log.LogBlock;
import io.riverbed.format.log.LogFileReader;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantInfo;
import io.riverbed.format.timeline.RollbackPlan;
import io.riverbed.format.timeline.RollbackRequest;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteStat;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Works out what rolling back instant X must undo, as Hudi 0.15's marker-based rollback does:
 *
 * <ul>
 *   <li>base files X created or merged (CREATE/MERGE markers) are deleted;
 *   <li>log files X wrote (APPEND markers) in a slice X itself opened (a new log-only file group,
 *       base instant X) are deleted: no other instant wrote there;
 *   <li>log files X wrote into an older slice are kept, and the plan asks for a rollback command
 *       block in that slice (one request per file group).
 * </ul>
 *
 * Without markers (deleted, or never written by the writer) the files come from X's commit
 * metadata if X completed, and from listing: base files named with X, log files of slices keyed X,
 * and log files of older slices holding blocks of X.
 */
final class RollbackPlanner {
  private final Table table;
  private final Instant target;

  private RollbackPlanner(Table table, Instant target) {
    this.table = table;
    this.target = target;
  }

  static RollbackPlan plan(Table table, Instant target) {
    return new RollbackPlanner(table, target).plan();
  }

  private RollbackPlan plan() {
    Set<Written> written = new LinkedHashSet<>();
    List<Markers.Marker> markers = Markers.of(table.fs(), table.metaPath(), target.time()).list();
    for (Markers.Marker m : markers) {
      written.add(new Written(m.partitionPath(), m.fileName()));
    }
    if (markers.isEmpty()) {
      if (target.isCompleted()) {
        TimelineStore store = table.timelineStore();
        CommitMetadata metadata = CommitMetadata.parse(store.read(target), store.pathOf(target).toString());
        for (WriteStat stat : metadata.writeStats()) {
          if (stat.path() != null && !stat.path().isEmpty()) {
            written.add(new Written(stat.partitionPath(), stat.fileName()));
          }
        }
      }
      written.addAll(listWritten());
    }
    return RollbackPlan.of(InstantInfo.of(target), requests(written));
  }

  private List<RollbackRequest> requests(Set<Written> written) {
    List<RollbackRequest> requests = new ArrayList<>();
    Map<String, LogBlocks> logBlocks = new TreeMap<>();
    for (Written w : written) {
      Path path = new Path(table.partitionPath(w.partitionPath), w.fileName);
      Optional<BaseFile> base = BaseFile.of(path, 0);
      if (base.isPresent()) {
        requests.add(new RollbackRequest(w.partitionPath, base.get().fileId(), base.get().instantTime(),
            List.of(path.toString()), Map.of()));
        continue;
      }
      Optional<LogFile> log = LogFile.of(path, 0);
      if (log.isEmpty()) {
        continue;
      }
      Optional<Long> length = lengthOf(path);
      if (length.isEmpty()) {
        continue;
      }
      if (log.get().baseInstant().equals(target.time())) {
        requests.add(new RollbackRequest(w.partitionPath, log.get().fileId(), log.get().baseInstant(),
            List.of(path.toString()), Map.of()));
      } else {
        logBlocks.computeIfAbsent(w.partitionPath + "\u0000" + log.get().fileId() + "\u0000" + log.get().baseInstant(),
                k -> new LogBlocks(w.partitionPath, log.get().fileId(), log.get().baseInstant(), new LinkedHashMap<>()))
            .files.put(w.fileName, length.get());
      }
    }
    for (LogBlocks b : logBlocks.values()) {
      requests.add(new RollbackRequest(b.partitionPath, b.fileId, b.baseInstant, List.of(), b.files));
    }
    return requests;
  }

  /** Files of X found by listing every partition. */
  private List<Written> listWritten() {
    List<Written> out = new ArrayList<>();
    for (String partition : table.listPartitions()) {
      for (FileStatus st : list(partition)) {
        String name = st.getPath().getName();
        Optional<BaseFile> base = BaseFile.of(st.getPath(), st.getLen());
        if (base.isPresent()) {
          if (base.get().instantTime().equals(target.time())) {
            out.add(new Written(partition, name));
          }
          continue;
        }
        Optional<LogFile> log = LogFile.of(st.getPath(), st.getLen());
        if (log.isPresent() && (log.get().baseInstant().equals(target.time())
            || (log.get().baseInstant().compareTo(target.time()) < 0 && holdsBlocksOfTarget(log.get())))) {
          out.add(new Written(partition, name));
        }
      }
    }
    return out;
  }

  private boolean holdsBlocksOfTarget(LogFile log) {
    try (LogFileReader reader = LogFileReader.open(table.fs(), log.path(), log.length())) {
      while (reader.hasNext()) {
        LogBlock block = reader.next();
        if (target.time().equals(block.instantTime())) {
          return true;
        }
      }
      return false;
    }
  }

  private List<FileStatus> list(String partition) {
    return FileSystemViewLoader.listDataFiles(table, partition);
  }


  private Optional<Long> lengthOf(Path path) {
    try {
      return Optional.of(table.fs().getFileStatus(path).getLen());
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new TableException("cannot stat " + path + " to roll back " + target, e);
    }
  }

  private record Written(String partitionPath, String fileName) {}

  private record LogBlocks(String partitionPath, String fileId, String baseInstant, Map<String, Long> files) {}
}
