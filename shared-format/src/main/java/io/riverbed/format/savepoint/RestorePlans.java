package io.riverbed.format.savepoint;

import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.AvroTimelineFile;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantInfo;
import io.riverbed.format.timeline.RestorePlan;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineSchemas;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Restore plans: what a restore to a savepoint rolls back (Hudi 0.15's
 * {@code RestorePlanActionExecutor}), and reading the plans of restores on the timeline.
 */
final class RestorePlans {
  private RestorePlans() {}

  /**
   * The plan of a restore to {@code savepoint}: every write instant after it (commit, deltacommit,
   * replacecommit, compaction and log compaction, in any state), newest first, with the pending
   * clustering replacecommits after all others (newest first among them), as Hudi orders them.
   */
  static RestorePlan plan(TimelineStore store, Timeline timeline, String savepoint) {
    List<Instant> after = new ArrayList<>(timeline.writeTimeline().filter(i -> i.time().compareTo(savepoint) > 0)
        .instants());
    after.sort(Comparator.reverseOrder());
    List<Instant> clustering = after.stream().filter(i -> isPendingClustering(store, i)).toList();
    List<InstantInfo> order = Stream.concat(after.stream().filter(i -> !clustering.contains(i)), clustering.stream())
        .map(InstantInfo::of).toList();
    return RestorePlan.of(order, savepoint);
  }

  /** A pending replacecommit whose requested file is a clustering plan (Hudi's {@code isClusteringInstant}). */
  private static boolean isPendingClustering(TimelineStore store, Instant instant) {
    if (instant.action() != Action.REPLACE_COMMIT || instant.isCompleted()) {
      return false;
    }
    Instant requested = Instant.requested(instant.time(), Action.REPLACE_COMMIT);
    return store.readIfExists(requested)
        .flatMap(bytes -> AvroTimelineFile.deserialize(bytes, TimelineSchemas.REQUESTED_REPLACE_METADATA,
            store.pathOf(requested).toString()))
        .map(r -> r.get("operationType"))
        .map(op -> WriteOperationType.CLUSTER.name().equals(op.toString()))
        .orElse(false);
  }

  static RestorePlan read(TimelineStore store, String restoreTime) {
    Instant requested = Instant.requested(restoreTime, Action.RESTORE);
    return RestorePlan.fromBytes(store.read(requested), store.pathOf(requested).toString());
  }

  /**
   * The savepoint a restore plan restores to. Version 1 plans do not name it; Hudi takes the last
   * savepoint before the oldest instant they roll back.
   */
  static Optional<String> savepointOf(RestorePlan plan, Timeline timeline) {
    if (plan.version() > 1) {
      return Optional.ofNullable(plan.savepointToRestoreTimestamp());
    }
    if (plan.instantsToRollback().isEmpty()) {
      return Optional.empty();
    }
    String oldest = plan.instantsToRollback().get(plan.instantsToRollback().size() - 1).commitTime();
    return timeline.ofAction(Action.SAVEPOINT).filter(i -> i.time().compareTo(oldest) < 0).last().map(Instant::time);
  }

  /** Every pending restore, oldest first, with the savepoint it restores to ("" when unknown). */
  static Map<Instant, String> pending(TimelineStore store, Timeline timeline) {
    Map<Instant, String> out = new LinkedHashMap<>();
    for (Instant r : timeline.ofAction(Action.RESTORE).pending().instants()) {
      out.put(r, savepointOf(read(store, r.time()), timeline).orElse(""));
    }
    return out;
  }

  /** The savepoint the newest completed restore restored to, with that restore's time. */
  static Optional<Map.Entry<String, String>> lastCompleted(TimelineStore store, Timeline timeline) {
    return timeline.ofAction(Action.RESTORE).completed().last()
        .filter(r -> store.exists(Instant.requested(r.time(), Action.RESTORE)))
        .flatMap(r -> savepointOf(read(store, r.time()), timeline).map(s -> Map.entry(r.time(), s)));
  }
}
