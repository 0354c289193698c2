package io.riverbed.admin;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.RollbackMetadata;
import io.riverbed.format.timeline.RollbackPlan;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.write.Rollback;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rollback}: rolls back one write instant with the core's {@link Rollback}, after the checks
 * Apache Hudi 0.15 makes before a rollback (its default, eager failed-writes policy): nothing
 * committed or pending after the instant, and no savepoint on it.
 */
@Command(name = "rollback",
    description = {"Rolls back a pending or completed commit, deltacommit or replacecommit: its files are deleted (log "
        + "blocks it appended to older slices are cancelled by a rollback command block) and its instant leaves the "
        + "timeline, recorded by a rollback instant. As Hudi, refuses an instant that a later completed or pending "
        + "write follows (roll those back first, newest first) and a savepointed one. Compactions are not rolled "
        + "back: 'compact --instant T' finishes a pending one. A rollback that was interrupted is resumed."})
final class RollbackCommand extends TableCommand {
  private static final Set<Action> WRITES = EnumSet.of(Action.COMMIT, Action.DELTA_COMMIT, Action.REPLACE_COMMIT);
  private static final int NAMED = 5;

  @Option(names = "--instant", paramLabel = "T", required = true, description = "The instant to roll back.")
  String instant;

  /**
   * What the rollback did.
   *
   * @param filesDeleted data files deleted
   * @param rollbackLogFiles log files written with a rollback command block (MERGE_ON_READ appends)
   */
  record Result(String rolledBack, String action, String state, String rollbackInstant, int filesDeleted,
      int rollbackLogFiles) {}

  @Override
  void run(Table table, Output out) {
    ActiveTimeline active = ActiveTimeline.load(table);
    Timeline timeline = active.timeline();
    Optional<Instant> resumed = pendingRollbackOf(active.store(), timeline);
    Instant target;
    if (resumed.isPresent()) {
      target = resumed.get();
    } else {
      target = timeline.instants().stream().filter(i -> i.time().equals(instant)).findFirst()
          .orElseThrow(() -> new TableException("no instant " + instant + " on the active timeline of table "
              + table.basePath() + " ('commits' lists them)"));
      check(table, active, target);
    }
    RollbackMetadata done = Rollback.of(table, instant).allowCompleted(true).execute();
    int logs = done.partitionMetadata().values().stream().mapToInt(p -> p.rollbackLogFiles().size()).sum();
    Result result = new Result(instant, target.action().word(), target.state().name(), done.startRollbackTime(),
        done.totalFilesDeleted(), logs);
    if (out.isJson()) {
      out.json(result);
      return;
    }
    out.line("Rolled back " + result.action() + " " + instant + " (" + result.state() + ") with rollback "
        + result.rollbackInstant() + ": " + result.filesDeleted() + " files deleted"
        + (logs == 0 ? "" : ", " + logs + " log files with a rollback block written") + ".");
  }

  /** The instant's own action and its followers, as Hudi checks them before rolling back. */
  private void check(Table table, ActiveTimeline active, Instant target) {
    String what = "instant " + instant + " of table " + table.basePath();
    Optional<State> compaction = active.compactionState(instant);
    if (compaction.isPresent()) {
      throw new TableException(compaction.get() == State.COMPLETED
          ? what + " is a completed compaction; Riverbed does not roll back compactions"
          : what + " is a pending compaction; 'compact --instant " + instant + "' finishes it (rollback takes "
              + "commits, deltacommits and replacecommits)");
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

  /** A pending rollback of this instant (one that was interrupted), which the core resumes. */
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
