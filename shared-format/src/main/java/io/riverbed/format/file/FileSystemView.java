package io.riverbed.format.file;

import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;

/**
 * Answers "which file slice of each file group does a query at instant q read" from a file
 * listing and the timeline, the way Hudi's readers decide it: slices of uncommitted instants are
 * invisible, a pending compaction starts a new slice whose logs are merged onto the previous
 * slice, and file groups replaced at or before q are hidden.
 */
public final class FileSystemView {
  private final Timeline visibleTimeline;
  private final Set<String> visibleTimes;
  /** Times of pending write instants other than compactions: never archived, so never "before the timeline". */
  private final Set<String> pendingWriteTimes;
  private final Map<FileGroupId, FileGroup> groups;
  private final Map<FileGroupId, String> pendingCompactions;
  private final Map<FileGroupId, String> replacedAt;

  private FileSystemView(Timeline visibleTimeline, Set<String> pendingWriteTimes, Map<FileGroupId, FileGroup> groups,
      Map<FileGroupId, String> pendingCompactions, Map<FileGroupId, String> replacedAt) {
    this.visibleTimeline = visibleTimeline;
    this.visibleTimes = Set.copyOf(visibleTimeline.times());
    this.pendingWriteTimes = pendingWriteTimes;
    this.groups = groups;
    this.pendingCompactions = pendingCompactions;
    this.replacedAt = replacedAt;
  }

  /**
   * Builds the view.
   *
   * @param activeTimeline the whole active timeline (every action and state)
   * @param filesByPartition listed files per relative partition path
   * @param pendingCompactions file group to the instant of the pending compaction that covers it
   * @param replacedAt file group to the completed replacecommit that replaced it
   */
  public static FileSystemView build(Timeline activeTimeline, Map<String, ? extends Collection<FileStatus>> filesByPartition,
      Map<FileGroupId, String> pendingCompactions, Map<FileGroupId, String> replacedAt) {
    return build(activeTimeline, filesByPartition, pendingCompactions, replacedAt, false);
  }

  /**
   * Builds the view; with {@code logsNamedByDeltaCommit} (table version 8) a log file's name holds the
   * delta commit that wrote it rather than its slice's base instant, and the log joins the newest slice
   * whose base instant is at or before that delta commit's completion time, as Hudi 1.x places it (the
   * log of a pending delta commit joins the newest slice); logs of a file group that no such slice
   * holds (a group of log files only) form one slice named by the oldest of them.
   */
  public static FileSystemView build(Timeline activeTimeline, Map<String, ? extends Collection<FileStatus>> filesByPartition,
      Map<FileGroupId, String> pendingCompactions, Map<FileGroupId, String> replacedAt, boolean logsNamedByDeltaCommit) {
    Map<FileGroupId, FileGroup> groups = new TreeMap<>();
    Map<FileGroupId, List<LogFile>> logsToPlace = new TreeMap<>();
    filesByPartition.forEach((partition, files) -> {
      for (FileStatus status : files) {
        Optional<BaseFile> base = BaseFile.of(status.getPath(), status.getLen());
        if (base.isPresent()) {
          groupOf(groups, partition, base.get().fileId()).addBaseFile(base.get());
          continue;
        }
        LogFile.of(status.getPath(), status.getLen()).ifPresent(log -> {
          FileGroup g = groupOf(groups, partition, log.fileId());
          if (logsNamedByDeltaCommit) {
            logsToPlace.computeIfAbsent(g.id(), id -> new ArrayList<>()).add(log);
          } else {
            g.addLogFile(log, log.baseInstant());
          }
        });
      }
    });
    pendingCompactions.forEach((id, instant) -> {
      FileGroup g = groups.get(id);
      if (g != null) {
        g.ensureSlice(instant);
      }
    });
    Set<String> pendingDeltaCommits = Set.copyOf(activeTimeline.writeTimeline().pending().times());
    logsToPlace.forEach((id, logs) -> {
      FileGroup g = groups.get(id);
      logs.sort(LogFile.ORDER);
      for (LogFile log : logs) {
        String deltaCommit = log.baseInstant();
        Optional<String> completion = activeTimeline.completionTime(deltaCommit);
        // a pending delta commit's log joins the newest slice; one older than the active timeline
        // (archived) is placed by its requested time
        Optional<String> slice = completion.isEmpty() && pendingDeltaCommits.contains(deltaCommit)
            ? g.newestSlice() : g.sliceAtOrBefore(completion.orElse(deltaCommit));
        g.addLogFile(log, slice.orElse(deltaCommit));
      }
    });
    Timeline visible = activeTimeline.writeTimeline().completedAndCompactionInstants();
    Set<String> visibleTimes = Set.copyOf(visible.times());
    Set<String> pendingWrites = new HashSet<>(activeTimeline.writeTimeline().pending().times());
    pendingWrites.removeAll(visibleTimes);
    return new FileSystemView(visible, Set.copyOf(pendingWrites), groups, Map.copyOf(pendingCompactions),
        Map.copyOf(replacedAt));
  }

  private static FileGroup groupOf(Map<FileGroupId, FileGroup> groups, String partition, String fileId) {
    return groups.computeIfAbsent(new FileGroupId(partition, fileId), FileGroup::new);
  }

  /** The instant a query reads by default: the last completed write or compaction instant. */
  public Optional<String> defaultQueryInstant() {
    return visibleTimeline.completed().last().map(Instant::time);
  }

  public Collection<FileGroup> fileGroups() {
    return groups.values();
  }

  /** Latest slices as of {@code q}, logs of a pending compaction merged onto the previous slice. */
  public List<FileSlice> latestMergedSlices(String q) {
    List<FileSlice> out = new ArrayList<>();
    for (FileGroup group : groups.values()) {
      if (isReplaced(group.id(), q)) {
        continue;
      }
      latestMergedSlice(group, q).filter(s -> !s.isEmpty()).ifPresent(out::add);
    }
    return out;
  }

  /**
   * The newest committed slice of each file group with a base instant at or before {@code q}, as it
   * is on storage (not merged onto the slice before a pending compaction, which comes without the
   * base file that compaction may have begun to write); groups replaced at or before {@code q}
   * left out. Hudi's {@code getLatestFileSlicesBeforeOrOn(partition, q, true)}: what a savepoint of
   * {@code q} pins.
   */
  public List<FileSlice> latestSlicesBeforeOrOn(String q) {
    List<FileSlice> out = new ArrayList<>();
    for (FileGroup group : groups.values()) {
      if (isReplaced(group.id(), q)) {
        continue;
      }
      visibleSlices(group, q).stream().findFirst().ifPresent(s -> out.add(
          s.baseInstant().equals(pendingCompactions.get(group.id()))
              ? new FileSlice(s.fileGroupId(), s.baseInstant(), Optional.empty(), s.logFiles()) : s));
    }
    return out;
  }

  /** The base files a read-optimized query reads as of {@code q}: no logs, no pending compaction output. */
  public List<FileSlice> latestBaseFileSlices(String q) {
    List<FileSlice> out = new ArrayList<>();
    for (FileGroup group : groups.values()) {
      if (isReplaced(group.id(), q)) {
        continue;
      }
      String pending = pendingCompactions.get(group.id());
      for (FileSlice s : visibleSlices(group, q)) {
        if (s.baseFile().isPresent() && !s.baseInstant().equals(pending)) {
          out.add(new FileSlice(s.fileGroupId(), s.baseInstant(), s.baseFile(), List.of()));
          break;
        }
      }
    }
    return out;
  }

  /**
   * The slice a writer appends to now (no query bound); a pending compaction's slice if scheduled.
   * Empty for a file group a completed replacecommit replaced: nothing may be written into it.
   */
  public Optional<FileSlice> latestSliceForWrite(FileGroupId id) {
    FileGroup g = groups.get(id);
    if (g == null || replacedAt.containsKey(id)) {
      return Optional.empty();
    }
    return visibleSlices(g, null).stream().findFirst();
  }

  /**
   * Every committed slice of a file group, newest first, without a query bound: what the cleaner
   * chooses from (a pending compaction's slice counts, an uncommitted write's does not).
   */
  public List<FileSlice> committedSlices(FileGroup group) {
    return visibleSlices(group, null);
  }

  /** The completed replacecommit that replaced a file group, if one did. */
  public Optional<String> replaceInstant(FileGroupId id) {
    return Optional.ofNullable(replacedAt.get(id));
  }

  private Optional<FileSlice> latestMergedSlice(FileGroup group, String q) {
    List<FileSlice> visible = visibleSlices(group, q);
    if (visible.isEmpty()) {
      return Optional.empty();
    }
    FileSlice latest = visible.get(0);
    String pending = pendingCompactions.get(group.id());
    if (latest.baseInstant().equals(pending)) {
      if (visible.size() > 1) {
        return Optional.of(visible.get(1).withLogsOf(latest));
      }
      return Optional.of(new FileSlice(latest.fileGroupId(), latest.baseInstant(), Optional.empty(), latest.logFiles()));
    }
    return Optional.of(latest);
  }

  /** Committed slices newest first, limited to base instants at or before {@code q} (null: no bound). */
  private List<FileSlice> visibleSlices(FileGroup group, String q) {
    Optional<Instant> last = visibleTimeline.last();
    if (last.isEmpty()) {
      return List.of();
    }
    String start = visibleTimeline.firstNonSavepoint().map(Instant::time).orElse(null);
    List<FileSlice> out = new ArrayList<>();
    for (FileSlice s : group.slices()) {
      String b = s.baseInstant();
      // Before the first visible instant means archived, unless the instant is still pending (a failed
      // write not rolled back yet, older than every completed one): pending instants are never archived.
      boolean committed = b.compareTo(last.get().time()) <= 0
          && (visibleTimes.contains(b) || (start != null && b.compareTo(start) < 0 && !pendingWriteTimes.contains(b)));
      if (committed && (q == null || b.compareTo(q) <= 0)) {
        out.add(s);
      }
    }
    return out;
  }

  private boolean isReplaced(FileGroupId id, String q) {
    String r = replacedAt.get(id);
    return r != null && r.compareTo(q) <= 0;
  }
}
