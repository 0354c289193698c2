package io.riverbed.format.archive;

import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which instants an archival moves, by Hudi 0.15's rules ({@code HoodieTimelineArchiver}):
 *
 * <ul>
 *   <li>completed cleans and rollbacks, per action: once there are more than max, the oldest down
 *       to min;
 *   <li>completed commits (commit, deltacommit, replacecommit; a compaction completes as a commit):
 *       once there are more than max, the oldest down to min, but only those older than every
 *       instant still needed: the first completed savepoint, the newest completed commit before
 *       the oldest pending write (a pending compaction, an inflight write; the pending instant
 *       itself when no completed commit precedes it), on MERGE_ON_READ the last compaction and the
 *       delta commits since while they are fewer than the compaction trigger, the first replacecommit
 *       whose replaced files the last clean may not have deleted yet (at or after its earliest
 *       retained commit, or after the clean itself when it had none, as KEEP_LATEST_FILE_VERSIONS
 *       cleans every replaced group; every replacecommit before any clean), and the last clean's
 *       earliest retained commit (Riverbed: its incremental cleaning and time-travel checks read
 *       the commits from there on), and (Riverbed) the first commit the oldest live registered
 *       consumer's next read returns ({@link io.riverbed.format.consumer.ConsumerPin}): an
 *       incremental read reaching into archived instants returns only what the active commits wrote
 *       (or, with the full-table-scan fallback, the latest slices' rows committed in its range);
 * </ul>
 *
 * On a version 8 table ({@link #planForHistory}, Hudi 1.x's {@code TimelineArchiverV2}) the commits are
 * chosen the same way, and the completed cleans and rollbacks that go are those requested before the
 * last commit archived, whatever their count (no per-action bounds).
 *
 * The caller archives at most {@link ArchiveOptions#maxInstantsPerRun()} of them, oldest first.
 *
 * Pending instants are never archived on their own: only the requested and inflight files of an
 * instant that completed go with it (the caller adds them).
 */
final class ArchivePlanner {
  private ArchivePlanner() {}

  /**
   * Every completed instant due for archival, oldest first.
   *
   * @param earliestRetainedByClean the last completed clean's {@code earliestCommitToRetain}, if any
   * @param neededByConsumer the first commit a live consumer's next read returns, if any
   */
  static List<Instant> plan(Timeline active, TableType type, ArchiveOptions options,
      Optional<String> earliestRetainedByClean, Optional<String> neededByConsumer) {
    Optional<String> lastClean = active.ofAction(Action.CLEAN).completed().last().map(Instant::time);
    List<Instant> chosen = new ArrayList<>();
    for (Action action : List.of(Action.CLEAN, Action.ROLLBACK)) {
      List<Instant> done = active.ofAction(action).completed().instants();
      if (done.size() > options.maxCommitsToKeep()) {
        chosen.addAll(done.subList(0, done.size() - options.minCommitsToKeep()));
      }
    }
    chosen.addAll(commitsToArchive(active, type, options, earliestRetainedByClean, lastClean, neededByConsumer));
    chosen.sort(Comparator.naturalOrder());
    return List.copyOf(chosen);
  }

  /**
   * Every completed instant due for archival into Hudi 1.x's LSM history, oldest first: the commits
   * {@link #plan} picks, and the completed cleans and rollbacks requested before the last of them.
   */
  static List<Instant> planForHistory(Timeline active, TableType type, ArchiveOptions options,
      Optional<String> earliestRetainedByClean, Optional<String> neededByConsumer) {
    Optional<String> lastClean = active.ofAction(Action.CLEAN).completed().last().map(Instant::time);
    List<Instant> chosen = new ArrayList<>(
        commitsToArchive(active, type, options, earliestRetainedByClean, lastClean, neededByConsumer));
    if (chosen.isEmpty()) {
      return List.of();
    }
    String lastCommit = chosen.get(chosen.size() - 1).time();
    for (Action action : List.of(Action.CLEAN, Action.ROLLBACK)) {
      active.ofAction(action).completed().instants().stream()
          .filter(i -> i.time().compareTo(lastCommit) < 0).forEach(chosen::add);
    }
    chosen.sort(Comparator.naturalOrder());
    return List.copyOf(chosen);
  }

  private static List<Instant> commitsToArchive(Timeline active, TableType type, ArchiveOptions options,
      Optional<String> earliestRetainedByClean, Optional<String> lastClean, Optional<String> neededByConsumer) {
    List<Instant> commits = active.commitsTimeline().completed().instants();
    if (commits.size() <= options.maxCommitsToKeep()) {
      return List.of();
    }
    Optional<String> bound = earliest(List.of(
        active.ofAction(Action.SAVEPOINT).completed().first().map(Instant::time),
        oldestCommitToRetainForPendingWrites(active, commits),
        type == TableType.MERGE_ON_READ ? oldestToRetainForCompaction(active, options) : Optional.empty(),
        oldestReplaceToRetain(active, earliestRetainedByClean.filter(t -> !t.isEmpty()).or(() -> lastClean)),
        earliestRetainedByClean.filter(t -> !t.isEmpty()),
        neededByConsumer));
    int limit = commits.size() - options.minCommitsToKeep();
    List<Instant> out = new ArrayList<>();
    for (Instant c : commits) {
      if (out.size() == limit || (bound.isPresent() && c.time().compareTo(bound.get()) >= 0)) {
        break;
      }
      out.add(c);
    }
    return out;
  }

  /** The newest completed commit before the oldest pending write, or that pending write if none precedes it. */
  private static Optional<String> oldestCommitToRetainForPendingWrites(Timeline active, List<Instant> commits) {
    Optional<Instant> oldestPending = active.writeTimeline().pending().first();
    if (oldestPending.isEmpty()) {
      return Optional.empty();
    }
    String pending = oldestPending.get().time();
    Optional<String> before = commits.stream().map(Instant::time).filter(t -> t.compareTo(pending) < 0)
        .reduce((a, b) -> b);
    return Optional.of(before.orElse(pending));
  }

  /**
   * The last completed compaction (or, before any, the first delta commit) while fewer delta
   * commits than the compaction trigger completed since it: scheduling still has to count them.
   */
  private static Optional<String> oldestToRetainForCompaction(Timeline active, ArchiveOptions options) {
    Optional<String> lastCompaction = active.commitAndReplaceTimeline().completed().ofAction(Action.COMMIT).last()
        .map(Instant::time);
    Timeline deltas = active.ofAction(Action.DELTA_COMMIT);
    Timeline since = lastCompaction.map(t -> deltas.filter(i -> i.time().compareTo(t) > 0)).orElse(deltas);
    if (since.completed().size() < options.compactionDeltaCommits()) {
      return lastCompaction.or(() -> since.first().map(Instant::time));
    }
    return Optional.empty();
  }

  /**
   * The first replacecommit whose replaced file groups may still be on storage: at or after
   * {@code lowerBound} (Hudi's {@code getOldestInstantToRetainForClustering}: the last clean's
   * earliest retained commit, or the clean's own time when it retained none), or any replacecommit
   * when no clean has run. The file system view learns which groups are replaced only from these
   * instants.
   */
  private static Optional<String> oldestReplaceToRetain(Timeline active, Optional<String> lowerBound) {
    return active.ofAction(Action.REPLACE_COMMIT).instants().stream().map(Instant::time)
        .filter(t -> lowerBound.map(b -> t.compareTo(b) >= 0).orElse(true))
        .findFirst();
  }

  private static Optional<String> earliest(List<Optional<String>> bounds) {
    return bounds.stream().flatMap(Optional::stream).min(Comparator.naturalOrder());
  }
}
