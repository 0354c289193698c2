package io.riverbed.format.clean;

import io.riverbed.format.consumer.ConsumerPin;
import io.riverbed.format.file.FileGroup;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.ActionInstant;
import io.riverbed.format.timeline.CleanFileInfo;
import io.riverbed.format.timeline.CleanMetadata;
import io.riverbed.format.timeline.CleanerPlan;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.CompactionOperation;
import io.riverbed.format.timeline.CompactionPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.SavepointMetadata;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what a clean deletes, with the rules of Hudi 0.15's {@code CleanPlanner}:
 *
 * <ul>
 *   <li>the earliest instant to retain: the N-th newest completed write instant
 *       (KEEP_LATEST_COMMITS, never later than the oldest pending write or compaction), or the first
 *       completed one at or after now minus N hours (KEEP_LATEST_BY_HOURS);
 *   <li>commit-based policies delete, in each file group, the slices older than that instant except
 *       the newest slice and the newest one before the instant (which a query as of the instant
 *       reads); KEEP_LATEST_FILE_VERSIONS deletes all but the newest N slices;
 *   <li>a slice goes with its base file and all its log files; the slices of a pending compaction
 *       (the one it compacts and newer) and slices holding a savepointed file are kept;
 *   <li>Riverbed: the oldest live registered consumer ({@link ConsumerPin}) holds the earliest
 *       instant to retain back to the first commit its next read returns (never before the last
 *       clean's earliest retained instant, whose older files may be gone); under
 *       KEEP_LATEST_FILE_VERSIONS the slices that read needs are kept the same way;
 *   <li>file groups replaced before the earliest instant to retain (any replaced group, for
 *       KEEP_LATEST_FILE_VERSIONS) are deleted whole;
 *   <li>a partition whose file groups are all replaced, none at or after the earliest instant to
 *       retain, goes with its folder ({@code partitionsToBeDeleted}: what a delete_partition or an
 *       overwrite that left it empty leaves behind). Riverbed: only when the plan deletes every file
 *       in it (nothing savepointed or held for a consumer) and it has a replaced file group (Hudi
 *       also deletes partitions without any file group), never the base path of a non-partitioned
 *       table.
 * </ul>
 */
final class CleanPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(CleanPlanner.class);

  private final Table table;
  private final TimelineStore store;
  private final Timeline timeline;
  private final CleanOptions options;
  private final java.time.Instant now;

  private CleanPlanner(Table table, Timeline timeline, CleanOptions options, java.time.Instant now) {
    this.table = table;
    this.store = table.timelineStore();
    this.timeline = timeline;
    this.options = options;
    this.now = now;
  }

  /** The plan for {@code timeline}; it may delete nothing. */
  static CleanerPlan plan(Table table, Timeline timeline, CleanOptions options, java.time.Instant now) {
    return new CleanPlanner(table, timeline, options, now).plan();
  }

  private CleanerPlan plan() {
    Optional<ConsumerPin> pin = ConsumerPin.find(table, timeline, now, options.consumers());
    Optional<Instant> earliest = earliestInstantToRetain(pin);
    Optional<String> neededByConsumer = options.policy() == CleaningPolicy.KEEP_LATEST_FILE_VERSIONS
        ? pin.map(p -> p.firstNeeded().time()) : Optional.empty();
    List<String> savepoints = timeline.ofAction(Action.SAVEPOINT).completed().times();
    Set<String> savepointedFiles = savepointedFiles(savepoints);
    List<String> partitions = partitionsToClean(earliest, savepoints);
    Map<String, List<CleanFileInfo>> files = new LinkedHashMap<>();
    List<String> partitionsToDelete = new ArrayList<>();
    if (!partitions.isEmpty()) {
      FileSystemView view = FileSystemViewLoader.load(table, timeline, partitions);
      Map<FileGroupId, String> compacting = pendingCompactionBases();
      Map<String, List<FileGroup>> groups = new HashMap<>();
      view.fileGroups().forEach(g -> groups.computeIfAbsent(g.id().partitionPath(), p -> new ArrayList<>()).add(g));
      var selection = new Selection(view, compacting, savepointedFiles, neededByConsumer);
      for (String partition : partitions) {
        List<FileGroup> inPartition = groups.getOrDefault(partition, List.of());
        List<CleanFileInfo> deletes = options.policy() == CleaningPolicy.KEEP_LATEST_FILE_VERSIONS
            ? selection.keepingLatestVersions(inPartition, options.fileVersionsRetained())
            : selection.keepingLatestCommits(inPartition, earliest.orElseThrow());
        if (!deletes.isEmpty()) {
          files.put(partition, deletes);
          if (!partition.isEmpty() && selection.leavesNothing(inPartition, deletes, earliest)) {
            partitionsToDelete.add(partition);
          }
        }
      }
      if (selection.keptForConsumer > 0) {
        LOG.info("Clean of table {}: {} keeps {} file slices its next read needs (the commits from {} on)",
            table.basePath(), pin.orElseThrow().describe(), selection.keptForConsumer, neededByConsumer.orElseThrow());
      }
    }
    Map<String, String> extra = savepoints.isEmpty() || table.config().partitionFields().isEmpty() ? Map.of()
        : Map.of(CleanerPlan.SAVEPOINTED_TIMESTAMPS, String.join(",", savepoints));
    String lastCompleted = timeline.commitsTimeline().completed().last().map(Instant::time).orElse("");
    return CleanerPlan.of(earliest.map(ActionInstant::of).orElse(null), lastCompleted, options.policy().name(), files,
        partitionsToDelete, extra);
  }

  /**
   * The policy's earliest instant to retain, held back to the first commit the oldest live
   * consumer's next read returns. Never before the last clean's earliest retained instant: slices
   * older than that may be deleted already, and reads and savepoints trust it as the floor.
   */
  private Optional<Instant> earliestInstantToRetain(Optional<ConsumerPin> pin) {
    Optional<Instant> byPolicy = earliestInstantToRetain();
    if (byPolicy.isEmpty() || pin.isEmpty() || pin.get().firstNeeded().time().compareTo(byPolicy.get().time()) >= 0) {
      return byPolicy;
    }
    Instant needed = pin.get().firstNeeded();
    Optional<String> floor = lastCleanMetadata().map(CleanMetadata::earliestCommitToRetain).filter(t -> !t.isEmpty());
    Instant bound = needed;
    if (floor.isPresent() && needed.time().compareTo(floor.get()) < 0) {
      String f = floor.get();
      bound = timeline.writeTimeline().completed().instants().stream().filter(i -> i.time().compareTo(f) >= 0)
          .findFirst().orElse(byPolicy.get());
      LOG.warn("Table {}: {} is behind the earliest instant the last clean retained ({}); files its next read needs "
          + "may be deleted already", table.basePath(), pin.get().describe(), f);
    }
    if (bound.time().compareTo(byPolicy.get().time()) >= 0) {
      return byPolicy;
    }
    LOG.info("Clean of table {}: {} holds the earliest instant to retain at {} instead of {} ({})", table.basePath(),
        pin.get().describe(), bound.time(), byPolicy.get().time(), options.policy());
    return Optional.of(bound);
  }

  /** Hudi's {@code CleanerUtils.getEarliestCommitToRetain} over the commits-and-compaction timeline. */
  Optional<Instant> earliestInstantToRetain() {
    Timeline writes = timeline.writeTimeline();
    List<Instant> completed = writes.completed().instants();
    return switch (options.policy()) {
      case KEEP_LATEST_COMMITS -> {
        if (completed.size() <= options.commitsRetained()) {
          yield Optional.empty();
        }
        Instant nth = completed.get(completed.size() - options.commitsRetained());
        Optional<Instant> firstPending = writes.pending().first();
        if (firstPending.isEmpty() || nth.time().compareTo(firstPending.get().time()) <= 0) {
          yield Optional.of(nth);
        }
        String pending = firstPending.get().time();
        yield completed.stream().filter(i -> i.time().compareTo(pending) < 0).reduce((a, b) -> b);
      }
      case KEEP_LATEST_BY_HOURS -> {
        LocalDateTime local = LocalDateTime.ofInstant(now, table.config().timelineTimezone().zoneId());
        String earliestTime = InstantTime.format(local.minusHours(options.hoursRetained()));
        yield completed.stream().filter(i -> i.time().compareTo(earliestTime) >= 0).findFirst();
      }
      case KEEP_LATEST_FILE_VERSIONS -> Optional.empty();
    };
  }

  private List<String> partitionsToClean(Optional<Instant> earliest, List<String> savepoints) {
    if (options.policy() == CleaningPolicy.KEEP_LATEST_FILE_VERSIONS) {
      return table.listPartitions();
    }
    if (earliest.isEmpty() || timeline.commitsTimeline().completed().size() <= commitsRetainedForPolicy()) {
      return List.of();
    }
    if (options.incremental()) {
      Optional<CleanMetadata> last = lastCleanMetadata();
      Optional<String> firstCommit = timeline.commitsTimeline().first().map(Instant::time);
      if (last.isPresent() && !last.get().earliestCommitToRetain().isEmpty()
          && firstCommit.map(f -> last.get().earliestCommitToRetain().compareTo(f) >= 0).orElse(true)) {
        return incrementalPartitions(last.get(), earliest.get().time(), savepoints);
      }
    }
    return table.listPartitions();
  }

  /** Hudi compares the completed commit count with the commits retained, 0 for KEEP_LATEST_BY_HOURS. */
  private int commitsRetainedForPolicy() {
    return options.policy() == CleaningPolicy.KEEP_LATEST_COMMITS ? options.commitsRetained() : 0;
  }

  /** Partitions written by completed commits in [last clean's earliest retained, new earliest retained). */
  private List<String> incrementalPartitions(CleanMetadata last, String newEarliest, List<String> savepoints) {
    String from = last.earliestCommitToRetain();
    Set<String> out = new TreeSet<>();
    for (Instant i : timeline.commitsTimeline().completed().instants()) {
      if (i.time().compareTo(from) >= 0 && i.time().compareTo(newEarliest) < 0) {
        out.addAll(partitionsWrittenBy(i));
      }
    }
    if (!table.config().partitionFields().isEmpty()) {
      String listed = last.extraMetadata().getOrDefault(CleanerPlan.SAVEPOINTED_TIMESTAMPS, "");
      for (String removed : Arrays.stream(listed.split(",")).filter(s -> !s.isEmpty()).toList()) {
        if (!savepoints.contains(removed)) {
          timeline.commitsTimeline().completed().find(removed).ifPresent(i -> out.addAll(partitionsWrittenBy(i)));
        }
      }
    }
    LOG.debug("Incremental clean of table {} from {}: partitions {}", table.basePath(), from, out);
    return new ArrayList<>(out);
  }

  private Set<String> partitionsWrittenBy(Instant instant) {
    CommitMetadata metadata = CommitMetadata.parse(store.read(instant), store.pathOf(instant).toString());
    Set<String> out = new LinkedHashSet<>(metadata.partitionToWriteStats().keySet());
    out.addAll(metadata.replacedFileIds().keySet());
    return out;
  }

  private Optional<CleanMetadata> lastCleanMetadata() {
    Optional<Instant> last = timeline.ofAction(Action.CLEAN).completed().last();
    if (last.isEmpty()) {
      return Optional.empty();
    }
    byte[] bytes = store.read(last.get());
    return bytes.length == 0 ? Optional.empty()
        : Optional.of(CleanMetadata.fromBytes(bytes, store.pathOf(last.get()).toString()));
  }

  private Set<String> savepointedFiles(List<String> savepoints) {
    Set<String> out = new HashSet<>();
    for (String time : savepoints) {
      Instant savepoint = Instant.completed(time, Action.SAVEPOINT);
      SavepointMetadata metadata = SavepointMetadata.fromBytes(store.read(savepoint), store.pathOf(savepoint).toString());
      metadata.dataFilesByPartition().values().forEach(out::addAll);
    }
    return out;
  }

  /** File group to the base instant of the slice a pending compaction or log compaction reads. */
  private Map<FileGroupId, String> pendingCompactionBases() {
    Map<FileGroupId, String> out = new HashMap<>();
    Timeline pending = timeline.filter(i -> !i.isCompleted()
        && (i.action() == Action.COMPACTION || i.action() == Action.LOG_COMPACTION));
    for (Instant instant : pending.instants()) {
      Instant requested = Instant.requested(instant.time(), instant.action());
      CompactionPlan plan = CompactionPlan.fromBytes(store.read(requested), store.pathOf(requested).toString());
      for (CompactionOperation op : plan.operations()) {
        out.merge(new FileGroupId(op.partitionPath(), op.fileId()), op.baseInstantTime(),
            (a, b) -> a.compareTo(b) <= 0 ? a : b);
      }
    }
    return out;
  }

  /**
   * The per-partition selection rules over one file system view. {@code neededByConsumer}
   * (KEEP_LATEST_FILE_VERSIONS only): the first commit a live consumer's next read returns; the
   * slices that read needs are kept.
   */
  private static final class Selection {
    private final FileSystemView view;
    private final Map<FileGroupId, String> compacting;
    private final Set<String> savepointedFiles;
    private final Optional<String> neededByConsumer;
    /** Slices kept only because the consumer's next read needs them. */
    int keptForConsumer;

    Selection(FileSystemView view, Map<FileGroupId, String> compacting, Set<String> savepointedFiles,
        Optional<String> neededByConsumer) {
      this.view = view;
      this.compacting = compacting;
      this.savepointedFiles = savepointedFiles;
      this.neededByConsumer = neededByConsumer;
    }

    List<CleanFileInfo> keepingLatestCommits(List<FileGroup> groups, Instant earliest) {
      String e = earliest.time();
      List<CleanFileInfo> out = new ArrayList<>();
      for (FileGroup group : groups) {
        Optional<String> replaced = view.replaceInstant(group.id());
        List<FileSlice> slices = view.committedSlices(group);
        if (replaced.isPresent()) {
          if (replaced.get().compareTo(e) < 0) {
            slices.stream().filter(s -> !isSavepointed(s)).forEach(s -> out.addAll(filesOf(s)));
          }
          continue;
        }
        if (slices.isEmpty()) {
          continue;
        }
        String newest = slices.get(0).baseInstant();
        String newestBeforeEarliest = slices.stream().map(FileSlice::baseInstant)
            .filter(b -> b.compareTo(e) < 0).findFirst().orElse(null);
        for (FileSlice slice : slices) {
          String b = slice.baseInstant();
          if (isSavepointed(slice) || b.equals(newest) || b.equals(newestBeforeEarliest)) {
            continue;
          }
          if (!isNeededByPendingCompaction(slice) && b.compareTo(e) < 0) {
            out.addAll(filesOf(slice));
          }
        }
      }
      return out;
    }

    /**
     * True if {@code deletes} empties a partition of {@code groups}: every group is replaced, none at
     * or after {@code earliest} (commit-based policies), and every file of every slice is deleted.
     */
    boolean leavesNothing(List<FileGroup> groups, List<CleanFileInfo> deletes, Optional<Instant> earliest) {
      long files = 0;
      for (FileGroup group : groups) {
        Optional<String> replaced = view.replaceInstant(group.id());
        if (replaced.isEmpty() || earliest.filter(e -> replaced.get().compareTo(e.time()) >= 0).isPresent()) {
          return false;
        }
        for (FileSlice slice : group.slices()) {
          files += filesOf(slice).size();
        }
      }
      return !groups.isEmpty() && files == deletes.size();
    }

    List<CleanFileInfo> keepingLatestVersions(List<FileGroup> groups, int versions) {
      List<CleanFileInfo> out = new ArrayList<>();
      for (FileGroup group : groups) {
        List<FileSlice> slices = view.committedSlices(group);
        Optional<String> replaced = view.replaceInstant(group.id());
        if (replaced.isPresent()) {
          // A group replaced after the consumer's position: reads ending before the replace still read it.
          if (neededByConsumer.isPresent() && replaced.get().compareTo(neededByConsumer.get()) >= 0) {
            keptForConsumer += (int) slices.stream().filter(s -> !isSavepointed(s)).count();
          } else {
            slices.stream().filter(s -> !isSavepointed(s)).forEach(s -> out.addAll(filesOf(s)));
          }
          continue;
        }
        int keep = compacting.containsKey(group.id()) ? versions - 1 : versions;
        List<FileSlice> candidates = slices.stream().filter(s -> !isNeededByPendingCompaction(s)).toList();
        Optional<String> consumerSlice = neededByConsumer.flatMap(n -> oldestSliceNeeded(slices, n));
        for (FileSlice slice : candidates.subList(Math.min(Math.max(keep, 0), candidates.size()), candidates.size())) {
          if (isSavepointed(slice)) {
            continue;
          }
          if (consumerSlice.isPresent() && slice.baseInstant().compareTo(consumerSlice.get()) >= 0) {
            keptForConsumer++;
            continue;
          }
          out.addAll(filesOf(slice));
        }
      }
      return out;
    }

    /**
     * The base instant of the oldest slice a read of the commits from {@code firstNeeded} on needs:
     * the newest slice based before it (its logs may hold those commits), or the oldest slice if all
     * are based at or after it. Slices are newest first.
     */
    private static Optional<String> oldestSliceNeeded(List<FileSlice> slices, String firstNeeded) {
      return slices.stream().map(FileSlice::baseInstant).filter(b -> b.compareTo(firstNeeded) < 0).findFirst()
          .or(() -> slices.isEmpty() ? Optional.empty() : Optional.of(slices.get(slices.size() - 1).baseInstant()));
    }

    private boolean isNeededByPendingCompaction(FileSlice slice) {
      String base = compacting.get(slice.fileGroupId());
      return base != null && slice.baseInstant().compareTo(base) >= 0;
    }

    private boolean isSavepointed(FileSlice slice) {
      if (slice.baseFile().isPresent() && savepointedFiles.contains(slice.baseFile().get().fileName())) {
        return true;
      }
      return slice.logFiles().stream().map(LogFile::fileName).anyMatch(savepointedFiles::contains);
    }

    private static List<CleanFileInfo> filesOf(FileSlice slice) {
      List<CleanFileInfo> out = new ArrayList<>();
      slice.baseFile().ifPresent(b -> out.add(CleanFileInfo.of(b.path().toString())));
      slice.logFiles().forEach(l -> out.add(CleanFileInfo.of(l.path().toString())));
      return out;
    }
  }
}
