package io.riverbed.format.savepoint;

import io.riverbed.format.TableException;
import io.riverbed.format.TableOperation;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantInfo;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.RestoreMetadata;
import io.riverbed.format.timeline.RestorePlan;
import io.riverbed.format.timeline.RollbackMetadata;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.write.InstantClock;
import io.riverbed.format.write.Rollback;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hudi's restore action: takes the table back to a savepoint S by rolling back every write instant
 * after it, as Hudi 0.15 does ({@code restoreToSavepoint}, {@code RestorePlanActionExecutor},
 * {@code BaseRestoreActionExecutor}):
 *
 * <ol>
 *   <li>{@code R.restore.requested} with the {@link RestorePlan}: the commits, deltacommits,
 *       replacecommits and compactions (pending ones too) after S, newest first, pending clusterings
 *       last;
 *   <li>{@code R.restore.inflight} (empty);
 *   <li>each planned instant rolled back in that order through {@link Rollback#forRestore()};
 *   <li>{@code R.restore} with the {@link RestoreMetadata}: each instant's rollback metadata;
 *   <li>every rollback instant after S deleted (those of this restore and older ones), newest first.
 * </ol>
 *
 * <p>Afterwards the newest completed write instant is S and every reader sees exactly the rows
 * it saw as of S. A crash at any point is finished by running the same restore again: a pending
 * restore to S is resumed from its plan, an instant whose rollback had begun is finished from that
 * rollback's plan, an instant rolled back already is not touched again (its rollback's metadata
 * is read), and a restore that completed but had not yet deleted its rollback instants only
 * deletes them. (Hudi leaves its restore's rollbacks inflight and skips rolled-back instants when
 * it resumes; Riverbed completes them, so the restore metadata lists every instant either way.)
 * While a restore is pending writers refuse to start, as Hudi's do.
 *
 * <p>Refused: a savepoint that does not exist (as Hudi), a restore while a restore to another
 * savepoint is pending, and a restore past a newer savepoint (Hudi fails when it reaches that
 * savepoint's instant; here before anything is written). Run it while no writer writes the table.
 */
public final class Restore implements TableOperation<RestoreMetadata> {
  private static final Logger LOG = LoggerFactory.getLogger(Restore.class);

  /** Points of a restore at which failure tests inject crashes ({@link #hook}). */
  public enum Step {
    /** The plan ({@code R.restore.requested}) is written; the time is R. */
    PLANNED,
    /**
     * Inside the rollback of one planned instant: its files are deleted, its timeline files not yet;
     * the time is that instant.
     */
    ROLLING_BACK,
    /** One planned instant is rolled back; the time is that instant. */
    ROLLED_BACK,
    /** Every planned instant is rolled back, {@code R.restore} is not written yet; the time is R. */
    ROLLBACKS_DONE,
    /** {@code R.restore} is written, the rollback instants are not deleted yet; the time is R. */
    COMPLETED
  }

  private final Table table;
  private final String savepointTime;
  private InstantTime generator;
  private BiConsumer<Step, String> hook = (step, time) -> { };

  private Restore(Table table, String savepointTime) {
    this.table = table;
    this.savepointTime = savepointTime;
  }

  /** A restore of {@code table} to its savepoint at {@code savepointTime}. */
  public static Restore of(Table table, String savepointTime) {
    return new Restore(Objects.requireNonNull(table, "table"), Objects.requireNonNull(savepointTime, "savepointTime"));
  }

  /** Times for the restore and its rollbacks come from {@code timeGenerator} (default: the table's timeline zone). */
  public Restore instantTimes(InstantTime timeGenerator) {
    this.generator = timeGenerator;
    return this;
  }

  /**
   * For failure tests: runs at each {@link Step} with the time it names; an exception thrown from
   * it stands for a crash at that point.
   */
  public Restore hook(BiConsumer<Step, String> stepHook) {
    this.hook = Objects.requireNonNull(stepHook, "hook");
    return this;
  }

  /**
   * Restores the table to the savepoint, or finishes a restore to it that crashed.
   *
   * @return the metadata of the restore ({@code R.restore})
   * @throws TableException naming the table and savepoint when the restore is refused (see the
   *     class comment), or when a planned instant cannot be rolled back
   */
  @Override
  public RestoreMetadata execute() {
    long start = System.currentTimeMillis();
    Table writable = table.prepareForWrite();
    TimelineStore store = writable.timelineStore();
    Timeline timeline = store.load();
    InstantTime times = generator != null ? generator : InstantClock.forTable(writable);
    Optional<Instant> pending = pendingRestoreToThisSavepoint(store, timeline);
    Instant restore;
    RestorePlan plan;
    if (pending.isPresent()) {
      restore = pending.get();
      plan = RestorePlans.read(store, restore.time());
      plan.instantsToRollback().forEach(this::requireSupported);
      LOG.info("Resuming restore {} of table {} to savepoint {}", restore, table.basePath(), savepointTime);
    } else {
      requireRestorable(timeline);
      plan = RestorePlans.plan(store, timeline, savepointTime);
      plan.instantsToRollback().forEach(this::requireSupported);
      Optional<RestoreMetadata> finished = finishedRestore(store, timeline, plan);
      if (finished.isPresent()) {
        return finished.get();
      }
      restore = store.createRequested(InstantClock.next(times, timeline), Action.RESTORE, plan.toBytes());
      LOG.info("Restoring table {} to savepoint {} with {}: rolling back {}", table.basePath(), savepointTime, restore,
          plan.instantsToRollback().stream().map(i -> i.commitTime() + "." + i.action()).toList());
      hook.accept(Step.PLANNED, restore.time());
    }
    Instant inflight = restore.isInflight() ? restore : store.transitionToInflight(restore, new byte[0]);
    Map<String, List<RollbackMetadata>> rollbacks = new LinkedHashMap<>();
    List<InstantInfo> rolledBack = new ArrayList<>();
    for (InstantInfo info : plan.instantsToRollback()) {
      rollBack(writable, store, info, times).ifPresent(metadata -> {
        rollbacks.put(info.commitTime(), List.of(metadata));
        rolledBack.add(info);
      });
    }
    hook.accept(Step.ROLLBACKS_DONE, inflight.time());
    RestoreMetadata metadata = new RestoreMetadata(inflight.time(), System.currentTimeMillis() - start,
        rolledBack.stream().map(InstantInfo::commitTime).toList(), rollbacks, RestoreMetadata.LATEST_VERSION, rolledBack);
    store.complete(inflight, metadata.toBytes());
    hook.accept(Step.COMPLETED, inflight.time());
    deleteRollbackInstantsAfterSavepoint(store);
    requireRestored(store.load());
    LOG.info("Restored table {} to savepoint {} with {}: {} instants rolled back, {} files deleted", table.basePath(),
        savepointTime, inflight.withState(State.COMPLETED), rolledBack.size(), metadata.totalFilesDeleted());
    return metadata;
  }

  /**
   * Rolls back one planned instant, or finds what its rollback did when a crash interrupted the
   * restore after it: an instant still on the timeline is rolled back (resuming its rollback if
   * one began); one whose rollback removed it but had not completed is finished if that rollback
   * is the newest (it is the one the crash interrupted; the slices its command blocks go to are
   * still there); a completed rollback of it is read. Empty when none of these is found (an older
   * pending rollback a Hudi restore left inflight), as Hudi skips such an instant.
   */
  private Optional<RollbackMetadata> rollBack(Table writable, TimelineStore store, InstantInfo info, InstantTime times) {
    String time = info.commitTime();
    Timeline timeline = store.load();
    Optional<Instant> pendingRollback = Rollback.pendingRollbackOf(writable, time);
    boolean resumable = timeline.writeTimeline().containsTime(time) || pendingRollback.map(r -> r.time().equals(
        timeline.ofAction(Action.ROLLBACK).last().orElseThrow().time())).orElse(false);
    if (!resumable) {
      Optional<RollbackMetadata> done = completedRollbackOf(store, timeline, time);
      if (done.isEmpty()) {
        LOG.warn("Restore of table {} to {}: {} ({}) is rolled back already", table.basePath(), savepointTime, time,
            info.action());
      }
      return done;
    }
    RollbackMetadata metadata = Rollback.of(writable, time).forRestore().instantTimes(times)
        .afterFilesDeleted(() -> hook.accept(Step.ROLLING_BACK, time)).execute();
    hook.accept(Step.ROLLED_BACK, time);
    return Optional.of(metadata);
  }

  /** The metadata of a completed rollback after the savepoint that rolled back {@code time}. */
  private Optional<RollbackMetadata> completedRollbackOf(TimelineStore store, Timeline timeline, String time) {
    for (Instant r : timeline.ofAction(Action.ROLLBACK).completed().filter(i -> i.time().compareTo(savepointTime) > 0)
        .instants()) {
      RollbackMetadata metadata = RollbackMetadata.fromBytes(store.read(r), store.pathOf(r).toString());
      if (metadata.commitsRollback().contains(time)) {
        return Optional.of(metadata);
      }
    }
    return Optional.empty();
  }

  /**
   * What Hudi's restore executors roll back: commits and replacecommits on COPY_ON_WRITE, also
   * deltacommits and compactions on MERGE_ON_READ (a log compaction fails Hudi's restore too).
   */
  private void requireSupported(InstantInfo info) {
    Action action = Action.fromWord(info.action()).orElse(null);
    boolean supported = action != null && switch (action) {
      case COMMIT, REPLACE_COMMIT -> true;
      case DELTA_COMMIT, COMPACTION -> table.type() == TableType.MERGE_ON_READ;
      default -> false;
    };
    if (!supported) {
      throw refused("its plan rolls back " + info.commitTime() + "." + info.action() + ", which a restore of a "
          + table.type() + " table cannot roll back");
    }
  }

  /** The pending restore to this savepoint; refuses when a restore to another one is pending. */
  private Optional<Instant> pendingRestoreToThisSavepoint(TimelineStore store, Timeline timeline) {
    Optional<Instant> mine = Optional.empty();
    for (Map.Entry<Instant, String> e : RestorePlans.pending(store, timeline).entrySet()) {
      if (!savepointTime.equals(e.getValue())) {
        throw refused("restore " + e.getKey() + " to savepoint " + (e.getValue().isEmpty() ? "(unknown)" : e.getValue())
            + " is pending; run that restore to its end first");
      }
      mine = Optional.of(e.getKey());
    }
    return mine;
  }

  private void requireRestorable(Timeline timeline) {
    Timeline savepoints = timeline.ofAction(Action.SAVEPOINT).completed();
    if (!savepoints.containsTime(savepointTime)) {
      throw refused("it has no savepoint at that time (savepoints: " + savepoints.times() + ")");
    }
    List<String> newer = savepoints.filter(i -> i.time().compareTo(savepointTime) > 0).times();
    if (!newer.isEmpty()) {
      throw refused("the newer savepoints " + newer + " would be rolled back; delete them first");
    }
  }

  /**
   * A restore to this savepoint that completed but had not deleted its rollback instants when it
   * crashed: nothing is left to roll back, so only the deletion is done.
   */
  private Optional<RestoreMetadata> finishedRestore(TimelineStore store, Timeline timeline, RestorePlan plan) {
    if (!plan.instantsToRollback().isEmpty()) {
      return Optional.empty();
    }
    return RestorePlans.lastCompleted(store, timeline).filter(e -> e.getValue().equals(savepointTime)).map(e -> {
      Instant done = Instant.completed(e.getKey(), Action.RESTORE);
      deleteRollbackInstantsAfterSavepoint(store);
      LOG.info("Table {} is restored to savepoint {} already ({})", table.basePath(), savepointTime, done);
      return RestoreMetadata.fromBytes(store.read(done), store.pathOf(done).toString());
    });
  }

  /** Hudi's {@code finishRestore}: every rollback instant after the savepoint goes, newest first, completed file first. */
  private void deleteRollbackInstantsAfterSavepoint(TimelineStore store) {
    List<String> rollbacks = new ArrayList<>(store.load().ofAction(Action.ROLLBACK)
        .filter(i -> i.time().compareTo(savepointTime) > 0).times());
    rollbacks.sort(Comparator.reverseOrder());
    for (String time : rollbacks) {
      store.delete(Instant.completed(time, Action.ROLLBACK));
      store.delete(Instant.inflight(time, Action.ROLLBACK));
      store.delete(Instant.requested(time, Action.ROLLBACK));
    }
    if (!rollbacks.isEmpty()) {
      LOG.info("Restore of table {} to {} deleted rollback instants {}", table.basePath(), savepointTime, rollbacks);
    }
  }

  /** Hudi's {@code validateSavepointRestore}: the newest completed write instant is the savepoint. */
  private void requireRestored(Timeline timeline) {
    Optional<String> last = timeline.writeTimeline().completedAndCompactionInstants().last().map(Instant::time);
    if (!last.equals(Optional.of(savepointTime))) {
      throw new TableException("restore of table " + table.basePath() + " to savepoint " + savepointTime
          + " completed, but the newest write instant is " + last.orElse("(none)") + "; a writer wrote meanwhile?");
    }
  }

  private TableException refused(String why) {
    return new TableException("cannot restore table " + table.basePath() + " to savepoint " + savepointTime + ": "
        + why);
  }
}
