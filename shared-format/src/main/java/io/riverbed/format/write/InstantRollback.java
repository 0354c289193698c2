package io.riverbed.format.write;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.ActiveTimeline;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.RollbackMetadata;
import io.riverbed.format.timeline.RollbackPlan;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An operator's rollback of one write instant: the checks Apache Hudi 0.15 makes before rolling an
 * instant back (its default, eager failed-writes policy: nothing committed or pending after the
 * instant, no savepoint on it, not a compaction), then the core's {@link Rollback}. A rollback of
 * the instant that was interrupted is resumed without the checks, as its instant may be gone.
 */
public final class InstantRollback {
  private static final Set<Action> WRITES = EnumSet.of(Action.COMMIT, Action.DELTA_COMMIT, Action.REPLACE_COMMIT);
  private static final int NAMED = 5;

  private final Table table;
  private final String instant;

  private InstantRollback(Table table, String instant) {
    this.table = table;
    this.instant = instant;
  }

  public static InstantRollback of(Table table, String instant) {
    return new InstantRollback(table, instant);
  }

  /**
   * What was rolled back and how.
   *
   * @param target the instant as the timeline held it before the rollback
   */
  public record Result(Instant target, RollbackMetadata metadata) {
    /** Log files written with a rollback command block (MERGE_ON_READ appends). */
    public int rollbackLogFiles() {
      return metadata.partitionMetadata().values().stream().mapToInt(p -> p.rollbackLogFiles().size()).sum();
    }
  }

  /**
   * Checks and rolls back.
   *
   * @throws TableException naming the table and instant when Hudi would refuse the rollback
   */
  public Result execute() {
    ActiveTimeline active = ActiveTimeline.load(table);
    Timeline timeline = active.timeline();
    Optional<Instant> resumed = pendingRollbackOf(active.store(), timeline);
    Instant target;
    if (resumed.isPresent()) {
      target = resumed.get();
    } else {
      target = timeline.instants().stream().filter(i -> i.time().equals(instant)).findFirst()
          .orElseThrow(() -> new TableException("no instant " + instant + " on the active timeline of table "
              + table.basePath()));
      check(active, target);
    }
    return new Result(target, Rollback.of(table, instant).allowCompleted(true).execute());
  }

  private void check(ActiveTimeline active, Instant target) {
    String what = "instant " + instant + " of table " + table.basePath();
    Optional<State> compaction = active.compactionState(instant);
    if (compaction.isPresent()) {
      throw new TableException(compaction.get() == State.COMPLETED
          ? what + " is a completed compaction; Riverbed does not roll back compactions"
          : what + " is a pending compaction; running the compaction finishes it (rollback takes commits, "
              + "deltacommits and replacecommits)");
    }
    if (!WRITES.contains(target.action())) {
      throw new TableException(what + " is a " + target.action().word() + "; only commit, deltacommit and "
          + "replacecommit instants can be rolled back");
    }
    Timeline timeline = active.timeline();
    if (timeline.ofAction(Action.SAVEPOINT).completed().containsTime(instant)) {
      throw new TableException(what + " is savepointed; delete the savepoint before rolling it back");
    }
    List<String> completedAfter = timeline.writeTimeline().completed().filter(i -> i.time().compareTo(instant) > 0)
        .times();
    if (!completedAfter.isEmpty()) {
      throw new TableException("cannot roll back " + what + ": completed commits come after it (" + named(completedAfter)
          + "); roll those back first, newest first");
    }
    List<String> pendingAfter = timeline.commitsTimeline().pending().filter(i -> i.time().compareTo(instant) > 0)
        .times();
    if (!pendingAfter.isEmpty()) {
      throw new TableException("cannot roll back " + what + ": pending writes come after it (" + named(pendingAfter)
          + "); roll those back first, newest first");
    }
  }

  private Optional<Instant> pendingRollbackOf(TimelineStore store, Timeline timeline) {
    for (Instant r : timeline.ofAction(Action.ROLLBACK).pending().instants()) {
      Instant requested = Instant.requested(r.time(), Action.ROLLBACK);
      RollbackPlan plan = RollbackPlan.fromBytes(store.read(requested), store.pathOf(requested).toString());
      if (plan.instantToRollback() != null && instant.equals(plan.instantToRollback().commitTime())) {
        Action action = Action.fromWord(plan.instantToRollback().action()).orElse(Action.COMMIT);
        return Optional.of(timeline.find(instant).orElse(Instant.inflight(instant, action)));
      }
    }
    return Optional.empty();
  }

  private static String named(List<String> times) {
    return times.size() <= NAMED ? String.join(", ", times)
        : String.join(", ", times.subList(0, NAMED)) + " and " + (times.size() - NAMED) + " more";
  }
}
