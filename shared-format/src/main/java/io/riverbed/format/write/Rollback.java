package io.riverbed.format.write;

import io.riverbed.format.TableOperation;
import io.riverbed.format.TableException;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.log.CommandBlock;
import io.riverbed.format.log.LogBlock;
import io.riverbed.format.log.LogFileReader;
import io.riverbed.format.log.LogFileWriter;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.RollbackMetadata;
import io.riverbed.format.timeline.RollbackPartitionMetadata;
import io.riverbed.format.timeline.RollbackPlan;
import io.riverbed.format.timeline.RollbackRequest;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.write.concurrency.ConcurrencyOptions;
import io.riverbed.format.write.concurrency.InstantHeartbeats;
import io.riverbed.format.write.concurrency.TableLock;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rolls back a write instant X the way Hudi 0.15 does (format doc §2.7):
 *
 * <ol>
 *   <li>{@code R.rollback.requested} with the {@link RollbackPlan} ({@link RollbackPlanner}), then
 *       {@code R.rollback.inflight} (empty);
 *   <li>if X completed, its completed file is deleted first, so readers stop seeing X before any
 *       data file goes away;
 *   <li>the plan is executed: files deleted, and per file group that X appended to, a new log file
 *       (next version, token {@code 1-0-1}) with one rollback command block {R → X};
 *   <li>X's remaining timeline files are deleted (inflight, then requested);
 *   <li>{@code R.rollback} ({@link RollbackMetadata}) is written, then X's markers are deleted.
 * </ol>
 *
 * <p>This is Hudi 0.15's order ({@code BaseRollbackActionExecutor}: {@code revertToInflight} before
 * the data, {@code deleteInflightAndRequestedInstant} before
 * {@code transitionRollbackInflightToComplete}). A savepointed instant is never rolled back (Hudi's
 * {@code validateSavepointRollbacks}): delete the savepoint first.
 *
 * <p>As one step of a restore ({@link #forRestore}) X may also be a compaction, pending or
 * completed; the restore deletes R's instant once it completes, as Hudi's does.
 *
 * <p>Rerunnable: a rollback that crashed leaves {@code R.rollback.requested}; running the rollback of
 * X again (or {@link #rollbackFailedWrites}) resumes R from its plan. Every step tolerates having
 * been done already, and a command block already written by R is not written twice.
 */
public final class Rollback implements TableOperation<RollbackMetadata> {
  private static final Logger LOG = LoggerFactory.getLogger(Rollback.class);

  private final Table table;
  private final String targetTime;
  private boolean allowCompleted;
  private boolean forRestore;
  private InstantTime generator;
  private Runnable afterFilesDeleted = () -> { };

  private Rollback(Table table, String targetTime) {
    this.table = table;
    this.targetTime = targetTime;
  }

  /** A rollback of the write instant at {@code instantTime} (commit, deltacommit or replacecommit). */
  public static Rollback of(Table table, String instantTime) {
    return new Rollback(table, instantTime);
  }

  /** Allows rolling back a completed instant (default: only requested or inflight ones). */
  public Rollback allowCompleted(boolean allow) {
    this.allowCompleted = allow;
    return this;
  }

  /**
   * Rolls X back as one step of a restore: X may be any write instant (also a compaction, pending
   * or completed as a commit; not a log compaction), completed or not. The restore deletes R's
   * instant when it completes, as Hudi's does. (Hudi leaves its restore's rollbacks inflight; R is
   * completed here so that a restore resumed after a crash finds what each finished rollback did
   * without running it again.)
   */
  public Rollback forRestore() {
    this.forRestore = true;
    this.allowCompleted = true;
    return this;
  }

  /**
   * For failure tests: runs after the plan's files are deleted and its command blocks written, before
   * X's remaining timeline files go; an exception thrown from it stands for a crash at that point.
   */
  public Rollback afterFilesDeleted(Runnable hook) {
    this.afterFilesDeleted = Objects.requireNonNull(hook, "hook");
    return this;
  }

  /** Instant times for R come from {@code timeGenerator} (default: the table's timeline zone). */
  public Rollback instantTimes(InstantTime timeGenerator) {
    this.generator = timeGenerator;
    return this;
  }

  /**
   * Rolls back every pending commit, deltacommit and replacecommit (a crashed writer's leftovers),
   * newest first, after finishing any rollback that crashed. Compactions are left alone.
   *
   * @return the metadata of every rollback completed by this call
   * @throws TableException if a restore is pending: its rollbacks are the restore's to finish
   */
  public static List<RollbackMetadata> rollbackFailedWrites(Table table) {
    TimelineStore store = store(table);
    WriteTransaction.requireNoPendingRestore(table, store.load());
    List<RollbackMetadata> done = new ArrayList<>(finishCrashedRollbacks(table, store));
    List<Instant> failed = new ArrayList<>(store.load().commitsTimeline().pending().instants());
    failed.sort(Comparator.reverseOrder());
    for (Instant instant : failed) {
      done.add(of(table, instant.time()).execute());
    }
    return done;
  }

  /**
   * Rolls back the pending writes that failed, as {@code options}' failed-writes policy says. EAGER:
   * {@link #rollbackFailedWrites(Table)}. LAZY (several writers, Hudi's
   * {@code hoodie.clean.failed.writes.policy=LAZY}): under {@code lock}, finishes any rollback that
   * crashed, then rolls back only the pending commits, deltacommits and replacecommits whose
   * heartbeat expired ({@link InstantHeartbeats#isExpired}) or whose heartbeat names {@code own}'s
   * writer (its earlier run, dead since this one runs); another live writer's pending instant stays.
   * A streaming writer's instant is never rolled back by a batch writer, expired or not: it may be
   * covered by a completed checkpoint that the streaming job commits when it is restored; only a
   * streaming writer (the same lineage, or the next streaming job once that one's lease expired)
   * rolls it back.
   *
   * @return the metadata of every rollback completed by this call
   */
  public static List<RollbackMetadata> rollbackFailedWrites(Table table, ConcurrencyOptions options,
      InstantHeartbeats own, TableLock lock) {
    if (options.failedWritesPolicy() == ConcurrencyOptions.FailedWritesPolicy.EAGER) {
      return rollbackFailedWrites(table);
    }
    try (TableLock.Held held = lock.acquire()) {
      TimelineStore store = store(table);
      WriteTransaction.requireNoPendingRestore(table, store.load());
      List<RollbackMetadata> done = new ArrayList<>(finishCrashedRollbacks(table, store));
      List<Instant> pending = new ArrayList<>(store.load().commitsTimeline().pending().instants());
      pending.sort(Comparator.reverseOrder());
      long now = System.currentTimeMillis();
      for (Instant instant : pending) {
        Optional<InstantHeartbeats.Owner> owner = InstantHeartbeats.ownerOf(table, instant.time());
        boolean mine = owner.filter(o -> o.writerId().equals(own.writerId())).isPresent();
        boolean streamingOfOther = owner.filter(o -> o.kind() == InstantHeartbeats.WriterKind.STREAMING).isPresent()
            && own.kind() != InstantHeartbeats.WriterKind.STREAMING;
        if (!mine && streamingOfOther) {
          LOG.info("Leaving pending {} of table {}: it is streaming writer {}'s, which commits or rolls it back "
              + "when it recovers", instant, table.basePath(), owner.get().writerId());
          continue;
        }
        if (!mine && !InstantHeartbeats.isExpired(table, instant.time(), options, now)) {
          LOG.info("Leaving pending {} of table {}: its writer's heartbeat is live", instant, table.basePath());
          continue;
        }
        done.add(of(table, instant.time()).execute());
        own.stop(instant.time());
      }
      return done;
    }
  }

  private static List<RollbackMetadata> finishCrashedRollbacks(Table table, TimelineStore store) {
    List<RollbackMetadata> done = new ArrayList<>();
    for (Instant pending : store.load().ofAction(Action.ROLLBACK).pending().instants()) {
      RollbackPlan plan = readPlan(store, pending.time());
      if (plan.instantToRollback() == null) {
        throw new TableException("pending rollback " + pending + " of table " + table.basePath()
            + " has a plan without instantToRollback");
      }
      done.add(of(table, plan.instantToRollback().commitTime()).allowCompleted(true).execute());
    }
    return done;
  }

  /**
   * Runs the rollback.
   *
   * @throws TableException if X is not on the timeline (and no pending rollback names it), is a
   *     compaction, or is completed without {@link #allowCompleted}
   */
  @Override
  public RollbackMetadata execute() {
    long start = System.currentTimeMillis();
    table.prepareForWrite();
    TimelineStore store = store(table);
    Timeline timeline = store.load();
    Optional<Instant> pendingRollback = pendingRollbackOf(store, timeline, targetTime);
    Optional<Instant> target = (forRestore ? timeline.writeTimeline() : timeline.commitsTimeline()).find(targetTime);
    if (timeline.ofAction(Action.SAVEPOINT).completed().containsTime(targetTime)) {
      throw new TableException("cannot roll back " + targetTime + " of table " + table.basePath()
          + ": it is savepointed; delete the savepoint first");
    }
    Instant inflightR;
    RollbackPlan plan;
    if (pendingRollback.isPresent()) {
      plan = readPlan(store, pendingRollback.get().time());
      Instant r = pendingRollback.get();
      inflightR = r.isInflight() ? r : store.transitionToInflight(r, new byte[0]);
      LOG.info("Resuming rollback {} of {} on table {}", inflightR, targetTime, table.basePath());
    } else {
      Instant x = target.orElseThrow(() -> new TableException("cannot roll back " + targetTime + " of table "
          + table.basePath() + ": no " + (forRestore ? "write instant" : "commit, deltacommit or replacecommit")
          + " at that time"));
      actionOf(x.action().word());
      if (x.isCompleted() && !allowCompleted) {
        throw new TableException("instant " + x + " of table " + table.basePath()
            + " is completed; roll it back with allowCompleted(true)");
      }
      plan = RollbackPlanner.plan(table, x);
      String rTime = InstantClock.next(generator != null ? generator : InstantClock.forTable(table), timeline);
      Instant requested = store.createRequested(rTime, Action.ROLLBACK, plan.toBytes());
      inflightR = store.transitionToInflight(requested, new byte[0]);
      LOG.info("Rolling back {} on table {} with {}", x, table.basePath(), inflightR);
    }
    Action action = actionOf(plan.instantToRollback().action());
    store.delete(Instant.completed(targetTime, action));
    Map<String, PartitionResult> results = new LinkedHashMap<>();
    for (RollbackRequest request : plan.requests()) {
      PartitionResult result = results.computeIfAbsent(request.partitionPath(), p -> new PartitionResult());
      deleteFiles(request, result);
      if (request.logBlocksToBeDeleted() != null && !request.logBlocksToBeDeleted().isEmpty()) {
        Path log = writeCommandLog(request, inflightR.time());
        result.rollbackLogFiles.put(log.toString(), length(log));
        result.logFilesFromFailedCommit.putAll(request.logBlocksToBeDeleted());
      }
    }
    afterFilesDeleted.run();
    deletePendingStates(store, action);
    RollbackMetadata metadata = metadata(inflightR.time(), start, plan, results);
    store.complete(inflightR, metadata.toBytes());
    Markers.of(table.fs(), table.metaPath(), targetTime).delete();
    LOG.info("Rolled back {} on table {}: {} files deleted", targetTime, table.basePath(), metadata.totalFilesDeleted());
    return metadata;
  }

  /** The pending rollback whose plan names the instant at {@code instantTime}, if one crashed. */
  public static Optional<Instant> pendingRollbackOf(Table table, String instantTime) {
    TimelineStore store = store(table);
    return pendingRollbackOf(store, store.load(), instantTime);
  }

  private static Optional<Instant> pendingRollbackOf(TimelineStore store, Timeline timeline, String instantTime) {
    for (Instant r : timeline.ofAction(Action.ROLLBACK).pending().instants()) {
      RollbackPlan plan = readPlan(store, r.time());
      if (plan.instantToRollback() != null && instantTime.equals(plan.instantToRollback().commitTime())) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  private static RollbackPlan readPlan(TimelineStore store, String rollbackTime) {
    Instant requested = Instant.requested(rollbackTime, Action.ROLLBACK);
    return RollbackPlan.fromBytes(store.read(requested), store.pathOf(requested).toString());
  }

  private Action actionOf(String word) {
    Action action = Action.fromWord(word).orElseThrow(() -> new TableException("unknown action '" + word + "'"));
    boolean supported = switch (action) {
      case COMMIT, DELTA_COMMIT, REPLACE_COMMIT -> true;
      case COMPACTION -> forRestore;
      default -> false;
    };
    if (!supported) {
      throw new TableException("cannot roll back " + targetTime + " of table " + table.basePath() + ": rollback of "
          + word + " instants is not supported" + (action == Action.COMPACTION ? " outside a restore" : ""));
    }
    return action;
  }

  /**
   * Deletes X's inflight, then requested file: every pending state filed with X's action, so a
   * completed compaction (a {@code commit}) loses its {@code compaction.inflight} and
   * {@code compaction.requested} files too.
   */
  private void deletePendingStates(TimelineStore store, Action action) {
    List<Instant> states = new ArrayList<>(store.statesOf(targetTime).stream()
        .filter(i -> !i.isCompleted() && i.action().completedAs() == action.completedAs()).toList());
    states.sort(Comparator.comparing(Instant::state).reversed());
    states.forEach(store::delete);
  }

  private void deleteFiles(RollbackRequest request, PartitionResult result) {
    for (String file : request.filesToBeDeleted()) {
      Path path = new Path(file);
      try {
        if (table.fs().delete(path, false) || !table.fs().exists(path)) {
          result.deleted.add(file);
        } else {
          result.failed.add(file);
        }
      } catch (IOException e) {
        throw new TableException("cannot delete " + path + " while rolling back " + targetTime + " of table "
            + table.basePath(), e);
      }
    }
  }

  /** The slice's rollback log for R → X: found if a previous run wrote it, else written now. */
  private Path writeCommandLog(RollbackRequest request, String rollbackTime) {
    Path folder = table.partitionPath(request.partitionPath());
    List<LogFile> slice = sliceLogs(folder, request.fileId(), request.latestBaseInstant());
    for (LogFile log : slice) {
      if (FileNames.UNKNOWN_WRITE_TOKEN.equals(log.writeToken()) && isCommandFor(log, rollbackTime)) {
        return log.path();
      }
    }
    int version = slice.stream().mapToInt(LogFile::version).max().orElse(0) + 1;
    Path path = new Path(folder, FileNames.logFileName(request.fileId(), request.latestBaseInstant(), version,
        FileNames.UNKNOWN_WRITE_TOKEN));
    LogFileWriter writer = LogFileWriter.create(table.fs(), path);
    try {
      writer.append(CommandBlock.rollback(rollbackTime, targetTime));
      writer.close();
    } finally {
      writer.abort();
    }
    LOG.debug("Wrote rollback command block {} -> {} to {}", rollbackTime, targetTime, path);
    return path;
  }

  private boolean isCommandFor(LogFile log, String rollbackTime) {
    try (LogFileReader reader = LogFileReader.open(table.fs(), log.path(), log.length())) {
      if (!reader.hasNext()) {
        return false;
      }
      LogBlock block = reader.next();
      return block instanceof CommandBlock c && c.isRollback() && rollbackTime.equals(c.instantTime())
          && targetTime.equals(c.targetInstantTime());
    }
  }

  private List<LogFile> sliceLogs(Path folder, String fileId, String baseInstant) {
    try {
      List<LogFile> out = new ArrayList<>();
      for (FileStatus st : table.fs().listStatus(folder)) {
        LogFile.of(st.getPath(), st.getLen())
            .filter(l -> l.fileId().equals(fileId) && l.baseInstant().equals(baseInstant))
            .ifPresent(out::add);
      }
      return out;
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw new TableException("cannot list " + folder + " while rolling back " + targetTime, e);
    }
  }

  private long length(Path path) {
    try {
      return table.fs().getFileStatus(path).getLen();
    } catch (IOException e) {
      throw new TableException("cannot stat " + path + " while rolling back " + targetTime, e);
    }
  }

  private RollbackMetadata metadata(String rollbackTime, long start, RollbackPlan plan,
      Map<String, PartitionResult> results) {
    Map<String, RollbackPartitionMetadata> partitions = new LinkedHashMap<>();
    int deleted = 0;
    for (Map.Entry<String, PartitionResult> e : results.entrySet()) {
      PartitionResult r = e.getValue();
      deleted += r.deleted.size();
      partitions.put(e.getKey(), new RollbackPartitionMetadata(e.getKey(), r.deleted, r.failed,
          r.rollbackLogFiles, r.logFilesFromFailedCommit));
    }
    return new RollbackMetadata(rollbackTime, System.currentTimeMillis() - start, deleted, List.of(targetTime),
        partitions, RollbackMetadata.LATEST_VERSION, List.of(plan.instantToRollback()));
  }

  private static TimelineStore store(Table table) {
    return table.timelineStore();
  }

  private static final class PartitionResult {
    final List<String> deleted = new ArrayList<>();
    final List<String> failed = new ArrayList<>();
    final Map<String, Long> rollbackLogFiles = new LinkedHashMap<>();
    final Map<String, Long> logFilesFromFailedCommit = new LinkedHashMap<>();
  }
}
