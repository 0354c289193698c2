package io.riverbed.flink.commit;

import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.FlinkTables;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.TableException;
import io.riverbed.format.record.SchemaEvolution;
import io.riverbed.format.service.AsyncTableServices;
import io.riverbed.format.service.TableService;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.Rollback;
import io.riverbed.format.write.WriterLease;
import io.riverbed.format.write.concurrency.ConcurrencyOptions;
import io.riverbed.format.write.concurrency.InstantHeartbeats;
import io.riverbed.format.write.concurrency.WriterSession;
import io.riverbed.format.write.commit.Committable;
import io.riverbed.format.write.commit.CompactionTrigger;
import io.riverbed.format.write.commit.OpenInstants;
import io.riverbed.format.write.commit.TableCommitter;
import io.riverbed.hive.HiveSyncAction;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestHandler;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write coordinator: adapts the core's {@link TableCommitter} to Flink's checkpoints — the one
 * place that opens, commits and rolls back instants. Metadata only — timeline files and commit
 * metadata (and rollbacks of crashed instants); every data file is written by the writer tasks
 * ({@link io.riverbed.flink.write.StreamWriteOperator}).
 *
 * <h2>Protocol</h2>
 *
 * An <em>epoch</em> of a writer subtask is the time between two of its checkpoints; it is named by
 * the id of the checkpoint that started it (0 before the first).
 *
 * <ol>
 *   <li><b>Start.</b> Every writer attempt sends {@link WriteMessages.WriterStarted} with the results
 *       its restored state holds. The coordinator serves nothing until all subtasks have done so;
 *       then it <em>recovers</em> (below).
 *   <li><b>Open, lazily.</b> A writer asks for an instant ({@link WriteMessages.InstantRequest},
 *       request/response) only when it is about to write its first file of an epoch, so an idle
 *       epoch opens nothing. The coordinator answers with its newest open instant if that was opened
 *       for the same or a later epoch and is newer than the instant the writer wrote in its previous
 *       epoch (the request names it), else it opens a new one ({@code T.<action>.requested} +
 *       {@code .inflight}, UTC time); see {@link OpenInstants#assign}. So each writer's instants
 *       follow its epochs in time order, a writer writes an instant in one epoch only, and one
 *       instant never mixes data from before and after a checkpoint it commits on.
 *   <li><b>Report.</b> In {@code snapshotState(c)} a writer flushes all its buffers, then sends
 *       {@link WriteMessages.Written} (its {@link WriteResult}: subtask, c, instant, stats) and keeps
 *       the same result in its own operator state until it hears that a checkpoint ≥ c completed.
 *       (The coordinator's own snapshot of c is taken before the writers' snapshots of c, so the
 *       writers' state is where the results of c are durable.)
 *   <li><b>Snapshot.</b> {@code checkpointCoordinator(c)} stores the writer lineage id, the open
 *       instants (time, epoch) and every result not committed yet.
 *   <li><b>Commit.</b> {@code notifyCheckpointComplete(c)} commits, oldest first, every open instant
 *       of an epoch before c with all results of checkpoints ≤ c (every writer of such an epoch
 *       snapshotted a checkpoint ≤ c after it, and its report travelled before its acknowledgement).
 *       The commit's {@code extraMetadata} holds the Flink job id, the checkpoint id and the writer
 *       lineage id, and the Kafka offsets consumed up to the checkpoint ({@link io.riverbed.format.timeline.KafkaOffsets}, those
 *       of earlier commits carried on for partitions without news). The core's committer makes the
 *       commit: idempotent (an instant already completed on the timeline is skipped), and checked
 *       for file-group conflicts with other writers. A commit that fails, or conflicts, fails the
 *       job ({@code context.failJob}); it is never dropped.
 *   <li><b>Recover</b> (at start, after {@code resetToCheckpoint(c)}, or after {@code subtaskReset(c)}):
 *       results of checkpoints ≤ c, from the coordinator's state and from the writers' restored
 *       state, are committed instant by instant (skipping completed ones; files a writer wrote for
 *       such an instant after c are not in those results, and the commit deletes them); then every other pending
 *       write instant (data written after c, or a crashed job's leftovers) is rolled back with
 *       {@link Rollback#rollbackFailedWrites}. Only then are instant requests answered.
 * </ol>
 *
 * <p>From recovery until every writer's input ended and its last commit is done, the coordinator
 * holds the table's {@link WriterLease} (unless {@code write.lease.enabled=false}; a shared one with
 * {@code hoodie.write.concurrency.mode=optimistic_concurrency_control}, through a {@link WriterSession}
 * that also takes the table lock around each begin and commit and beats the open instants' heartbeats;
 * failed writes are then rolled back lazily), renews it, and
 * checks it before each commit: a second job on the table fails at start, naming this one.
 *
 * <h2>Compaction (MERGE_ON_READ)</h2>
 *
 * With {@code compaction.schedule.enabled} the coordinator schedules a compaction (the plan file
 * only, through the core's {@link CompactionTrigger}) after a checkpoint's commits when the
 * trigger strategy says one is due and no instant is open, so no writer appends to a slice the
 * plan compacts. With {@code compaction.async.enabled} the job's compaction stage
 * ({@code io.riverbed.flink.compact}) runs the plans; it reaches this coordinator by the writer's
 * operator id, which the writers send it in-band, with three requests:
 * {@link WriteMessages.CompactionStageStarted} (answered after recovery, so the stage never touches
 * a compaction before this job holds the table's writer lease), {@link
 * WriteMessages.FinalCompactionRequest} (answered once every writer's input ended and its last
 * commit is done, after the scheduling that followed it) and {@link
 * WriteMessages.CompactionStageFinished} (the stage ran every compaction still pending). With the
 * stage, the lease is released only after that last one, so a next job never starts writing, or
 * takes over a compaction, while this one still compacts.
 *
 * <p>All protocol work runs on one coordinator thread, in arrival order. After each commit, the
 * committer's post-commit {@link AsyncTableServices} clean the table (unless
 * {@code clean.async.enabled=false}) and then archive old instants (unless
 * {@code hoodie.archive.automatic=false}) on a thread of their own, one round at a time, so they
 * never hold up a commit or a checkpoint; {@link #close} stops them.
 *
 * <p>Public for the stream writer's operator factory, which creates it, and for the keys it records
 * in every commit.
 */
public final class WriteCoordinator implements OperatorCoordinator, CoordinationRequestHandler {
  private static final Logger LOG = LoggerFactory.getLogger(WriteCoordinator.class);

  /** extraMetadata keys of every commit: the Flink job id, and the committer's identifier and writer id keys. */
  public static final String JOB_ID_KEY = "riverbed.flink.job.id";
  public static final String CHECKPOINT_ID_KEY = TableCommitter.IDENTIFIER_KEY;
  public static final String WRITER_ID_KEY = TableCommitter.WRITER_ID_KEY;

  /** 2: results in {@link WriteResult}'s second byte form; state of version 1 is still read. */
  private static final int STATE_VERSION = 2;

  private final Context context;
  private final FlinkWriteOptions options;
  private final String schemaJson;
  private final boolean addsColumns;
  private final WriteOperationType operationType;
  private final int parallelism;

  private ExecutorService executor;
  private Table table;
  private Schema schema;

  // Protocol state, touched only on the coordinator thread (or before start()).
  private String writerId = UUID.randomUUID().toString();
  private String flinkJobId = "";
  private final OpenInstants openInstants = new OpenInstants();
  private final Map<String, WriteResult> results = new LinkedHashMap<>();
  private boolean recovering = true;
  private long restoredCheckpoint = NO_CHECKPOINT;
  private final Set<Integer> started = new HashSet<>();
  private final Map<Integer, Integer> attempts = new HashMap<>();
  private final List<Runnable> deferred = new ArrayList<>();
  /** The newest checkpoint all of whose covered instants are committed. */
  private long committedThrough = NO_CHECKPOINT;
  private final List<CommitWaiter> commitWaiters = new ArrayList<>();
  /**
   * The table's writer lease (and, with optimistic concurrency control, the table lock and the
   * instants' heartbeats), taken at recovery; null before, or without a lease ({@code write.lease.enabled=false}).
   */
  private WriterSession session;
  private boolean leaseReleased;
  private ScheduledExecutorService leaseRenewal;
  /** Writer subtasks whose input ended and whose last commit is done. */
  private final Set<Integer> finishedSubtasks = new HashSet<>();
  /** The compaction stage's requests to be answered once every writer finished ({@link WriteMessages.FinalCompactionRequest}). */
  private final List<CompletableFuture<CoordinationResponse>> finalCompactionWaiters = new ArrayList<>();
  /** The compaction stage ran its last compactions ({@link WriteMessages.CompactionStageFinished}). */
  private boolean compactionStageFinished;
  /** Commits for this writer lineage; made at each recovery (the lineage may change with a restore). */
  private TableCommitter committer;

  private record CommitWaiter(int subtask, long checkpointId, CompletableFuture<CoordinationResponse> response) {}
  private volatile boolean failed;
  /** Hive Metastore sync after commits ({@code hive_sync.*}), if enabled: a post-commit action of the committer. */
  private final Optional<HiveSyncAction> hiveSync;
  /** Schedules compactions ({@code compaction.schedule.enabled}, MERGE_ON_READ). */
  private final CompactionTrigger compactionTrigger;
  /** Instant requests held while a due compaction waits for the open instants to commit. */
  private final CompactionHold compactionHold = new CompactionHold();
  /** Cleans after commits on its own thread ({@code clean.async.enabled}): a post-commit action of the committer. */
  private final Optional<AsyncTableServices> tableServices;
  private final CoordinatorMetrics metrics;
  /** The retained checkpoint of an earlier run this job restored from, until its folder is deleted. */
  private String restoredFrom;
  private volatile boolean earlierRunCleaning;
  private volatile boolean earlierRunCleaned;

  public WriteCoordinator(Context context, FlinkWriteOptions options, String schemaJson) {
    this(context, options, schemaJson, false);
  }

  /**
   * @param addsColumns the writers add columns for new fields of their input: each commit records
   *     at least the table's latest schema (its columns beyond the job's are kept), widened by what the
   *     writers report, and each instant's answer carries that schema to the writers
   */
  public WriteCoordinator(Context context, FlinkWriteOptions options, String schemaJson, boolean addsColumns) {
    this.addsColumns = addsColumns;
    this.context = context;
    this.options = options;
    this.hiveSync = FlinkHiveSync.fromOptions(options);
    this.schemaJson = schemaJson;
    this.operationType = options.operation().commitType();
    this.parallelism = context.currentParallelism();
    this.compactionTrigger = CompactionTrigger.of(options.compactionOptions(), options.compactionPolicy(),
        instant -> { });
    List<TableService> services = new ArrayList<>();
    if (options.cleanAsyncEnabled()) {
      services.add(TableService.cleaning(options.cleanOptions(), crashAt(FaultInjection.SERVICES_DURING_CLEAN)));
    }
    if (options.archiveAutomatic()) {
      services.add(TableService.archiving(options.archiveOptions(), crashAt(FaultInjection.SERVICES_DURING_ARCHIVE)));
    }
    this.tableServices = services.isEmpty() ? Optional.empty() : Optional.of(AsyncTableServices.of(services, r -> {
      Thread t = new Thread(r, "riverbed-table-services-" + options.tableName());
      t.setDaemon(true);
      t.setContextClassLoader(context.getUserCodeClassloader());
      return t;
    }));
    this.metrics = new CoordinatorMetrics(context.metricGroup(), tableServices, System::currentTimeMillis);
  }

  @Override
  public void start() {
    rememberRestoredCheckpoint(restoredCheckpoint);
    executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "riverbed-write-coordinator-" + options.tableName());
      t.setDaemon(true);
      // Under `flink run` the job's classes (Riverbed, Hadoop's client) live in the user-code
      // class loader, not in the JobMaster thread's context loader this thread would inherit;
      // Hadoop finds its file systems through the context loader.
      t.setContextClassLoader(context.getUserCodeClassloader());
      return t;
    });
    run("start", () -> {
      schema = new Schema.Parser().parse(schemaJson);
      table = FlinkTables.openOrCreate(options, schema);
      LOG.info("Write coordinator of {} started (writer id {}, restored checkpoint {}, {} writer subtasks)",
          table.basePath(), writerId, restoredCheckpoint, parallelism);
    });
  }

  @Override
  public void close() throws Exception {
    tableServices.ifPresent(AsyncTableServices::close);
    if (leaseRenewal != null) {
      leaseRenewal.shutdownNow();
    }
    if (executor != null) {
      executor.shutdown();
      if (!executor.awaitTermination(60, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    }
    try {
      releaseLease();
    } catch (RuntimeException e) {
      LOG.warn("Could not release the writer lease of table {}; it expires by itself", options.path(), e);
    }
  }

  // ---------------------------------------------------------------- events and requests

  @Override
  public void handleEventFromOperator(int subtask, int attempt, OperatorEvent event) {
    run("event " + event.getClass().getSimpleName() + " of subtask " + subtask, () -> {
      Integer current = attempts.get(subtask);
      if (current != null && attempt < current) {
        LOG.debug("Dropping {} of stale attempt {} of subtask {}", event, attempt, subtask);
        return;
      }
      if (event instanceof WriteMessages.WriterStarted s) {
        if (!s.flinkJobId().isEmpty()) {
          flinkJobId = s.flinkJobId();
        }
        s.restored().forEach(r -> results.putIfAbsent(r.id(), r));
        started.add(subtask);
        if (recovering && started.size() >= parallelism) {
          recover();
        }
      } else if (event instanceof WriteMessages.Written w) {
        results.putIfAbsent(w.result().id(), w.result());
      } else {
        throw new IllegalArgumentException("unexpected event " + event);
      }
    });
  }

  @Override
  public CompletableFuture<CoordinationResponse> handleCoordinationRequest(CoordinationRequest request) {
    CompletableFuture<CoordinationResponse> response = new CompletableFuture<>();
    if (request instanceof WriteMessages.CommitAwaitRequest a) {
      runEvenIfFailed("commit wait of subtask " + a.subtask(), () -> {
        commitWaiters.add(new CommitWaiter(a.subtask(), a.checkpointId(), response));
        answerCommitWaiters();
      });
      return response;
    }
    if (request instanceof WriteMessages.CompactionStageStarted) {
      run("start of the compaction stage", () -> {
        Runnable answer = () -> response.complete(WriteMessages.instantResponse("recovered"));
        if (recovering) {
          deferred.add(answer);
        } else {
          answer.run();
        }
      });
      return response;
    }
    if (request instanceof WriteMessages.FinalCompactionRequest) {
      runEvenIfFailed("final compaction wait", () -> {
        finalCompactionWaiters.add(response);
        answerCommitWaiters();
      });
      return response;
    }
    if (request instanceof WriteMessages.CompactionStageFinished) {
      runEvenIfFailed("end of the compaction stage", () -> {
        compactionStageFinished = true;
        LOG.info("The compaction stage of table {} finished its last compactions", options.path());
        if (writersFinished()) {
          releaseLease();
        }
        response.complete(WriteMessages.instantResponse("finished"));
      });
      return response;
    }
    if (!(request instanceof WriteMessages.InstantRequest r)) {
      response.completeExceptionally(new IllegalArgumentException("unexpected request " + request));
      return response;
    }
    run("instant request of subtask " + r.subtask(), () -> {
      Runnable answer = () -> {
        try {
          String instant = instantFor(r);
          response.complete(addsColumns ? WriteMessages.instantResponse(instant, committer.schema().toString())
              : WriteMessages.instantResponse(instant));
        } catch (RuntimeException e) {
          response.completeExceptionally(e);
          throw e;
        }
      };
      if (recovering) {
        deferred.add(answer);
      } else if (compactionHold.holds(r.epoch()) && openInstants.wouldBegin(r.epoch(), r.previousInstant())) {
        compactionHold.hold(r.subtask(), answer, response);
      } else {
        answer.run();
      }
    });
    return response;
  }

  private String instantFor(WriteMessages.InstantRequest r) {
    return openInstants.assign(r.subtask(), r.epoch(), r.previousInstant(), () -> {
      String instant = committer.begin();
      LOG.info("Opened instant {} for epoch {} of table {}", instant, r.epoch(), table.basePath());
      return instant;
    });
  }

  // ---------------------------------------------------------------- checkpoints

  @Override
  public void checkpointCoordinator(long checkpointId, CompletableFuture<byte[]> result) {
    if (failed) {
      result.completeExceptionally(new TableException("write coordinator of " + options.path() + " has failed"));
      return;
    }
    run("checkpoint " + checkpointId, () -> {
      if (compactionHold.givesUpAt(checkpointId, false)) {
        releaseCompactionHold("checkpoint " + checkpointId + " began first");
      }
      result.complete(snapshot());
    });
  }

  /** A checkpoint that failed does not commit the open instants a due compaction waits for. */
  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    run("abort of checkpoint " + checkpointId, () -> {
      if (compactionHold.givesUpAt(checkpointId, true)) {
        releaseCompactionHold("checkpoint " + checkpointId + " was aborted");
      }
    });
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    cleanEarlierRunAfter(checkpointId);
    run("commit of checkpoint " + checkpointId, () -> {
      if (recovering) {
        return;
      }
      FaultInjection.check(FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT);
      commitUpTo(checkpointId);
    });
  }

  @Override
  public void resetToCheckpoint(long checkpointId, byte[] state) throws Exception {
    rememberRestoredCheckpoint(checkpointId);
    Runnable reset = () -> {
      failed = false;
      deferred.clear();
      compactionHold.dropAll(new TableException("write coordinator of " + options.path() + " was reset to checkpoint "
          + checkpointId));
      restore(state);
      restoredCheckpoint = checkpointId;
      recovering = true;
      started.clear();
      finishedSubtasks.clear();
      compactionStageFinished = false;
      finalCompactionWaiters.forEach(w -> w.completeExceptionally(new TableException("write coordinator of "
          + options.path() + " was reset to checkpoint " + checkpointId)));
      finalCompactionWaiters.clear();
    };
    if (executor == null) {
      reset.run();
    } else {
      runEvenIfFailed("reset to checkpoint " + checkpointId, reset::run);
    }
  }

  // ---------------------------------------------------------------- earlier runs' checkpoints

  /**
   * On the JobManager's main thread, where Flink resets and starts coordinators: the checkpoint a
   * restore started from, the first time this job restores (a later failover restores its own).
   * When the job restores as it starts, Flink resets the coordinator before its context can reach
   * the checkpoint store, so {@link #start} asks again, before any new checkpoint can complete.
   */
  private void rememberRestoredCheckpoint(long checkpointId) {
    if (!options.cleanEarlierRunCheckpoints() || restoredFrom != null) {
      return;
    }
    if (checkpointId == NO_CHECKPOINT || context.getCheckpointCoordinator() == null) {
      return; // at a restore when the job starts the context is not ready yet: start() asks again
    }
    try {
      var latest = context.getCheckpointCoordinator().getCheckpointStore().getLatestCheckpoint();
      if (latest != null && latest.getCheckpointID() == checkpointId && latest.getExternalPointer() != null) {
        restoredFrom = latest.getExternalPointer();
      }
    } catch (Exception e) {
      LOG.warn("Table {}: cannot tell which checkpoint the job restored; the earlier run's checkpoints are kept",
          options.path(), e);
    }
  }

  /**
   * On the JobManager's main thread, where Flink notifies completed checkpoints: once this run's
   * newest completed checkpoint is {@code checkpointId}, hands the earlier run's folder to
   * {@link EarlierRunCheckpoints} on a thread of its own (a delete on object storage may be slow,
   * and commits do not wait for it).
   */
  private void cleanEarlierRunAfter(long checkpointId) {
    String earlier = restoredFrom;
    if (earlier == null || earlierRunCleaned || earlierRunCleaning || context.getCheckpointCoordinator() == null) {
      return;
    }
    String completed;
    try {
      var latest = context.getCheckpointCoordinator().getCheckpointStore().getLatestCheckpoint();
      if (latest == null || latest.getCheckpointID() != checkpointId || latest.getExternalPointer() == null) {
        return;
      }
      completed = latest.getExternalPointer();
    } catch (Exception e) {
      LOG.warn("Table {}: cannot read the completed checkpoint {}; the earlier run's checkpoints are kept for now",
          options.path(), checkpointId, e);
      return;
    }
    earlierRunCleaning = true;
    Thread t = new Thread(() -> {
      boolean done = EarlierRunCheckpoints.removeLogged(options.path(), earlier, completed);
      earlierRunCleaned = done;
      earlierRunCleaning = false;
    }, "riverbed-checkpoint-housekeeping-" + options.tableName());
    t.setDaemon(true);
    t.setContextClassLoader(context.getUserCodeClassloader());
    t.start();
  }

  @Override
  public void subtaskReset(int subtask, long checkpointId) {
    run("reset of subtask " + subtask + " to checkpoint " + checkpointId, () -> {
      recovering = true;
      restoredCheckpoint = checkpointId;
      started.remove(subtask);
      compactionHold.drop(subtask, new TableException("writer subtask " + subtask + " of " + options.path()
          + " was reset to checkpoint " + checkpointId));
      results.values().removeIf(r -> checkpointId == NO_CHECKPOINT || r.checkpointId() > checkpointId);
      LOG.info("Writer subtask {} restarts from checkpoint {}; recovering when all writers are back", subtask,
          checkpointId);
    });
  }

  /** Nothing to do: the coordinator sends writers no events; their requests carry what it needs. */
  @Override
  public void executionAttemptFailed(int subtask, int attempt, Throwable reason) {
  }

  @Override
  public void executionAttemptReady(int subtask, int attempt, SubtaskGateway gateway) {
    run("attempt " + attempt + " of subtask " + subtask + " ready", () -> attempts.merge(subtask, attempt, Math::max));
  }

  // ---------------------------------------------------------------- commit and recovery

  /** Commits, oldest first, the instants checkpoint {@code checkpointId} covers. */
  private void commitUpTo(long checkpointId) {
    TreeMap<String, List<WriteResult>> covered = new TreeMap<>();
    openInstants.forEach((instant, epoch) -> {
      if (epoch < checkpointId) {
        covered.put(instant, new ArrayList<>());
      }
    });
    for (WriteResult r : results.values()) {
      if (r.checkpointId() <= checkpointId) {
        covered.computeIfAbsent(r.instant(), i -> new ArrayList<>()).add(r);
      }
    }
    for (var entry : covered.entrySet()) {
      String instant = entry.getKey();
      Set<Integer> reported = new HashSet<>();
      entry.getValue().forEach(r -> reported.add(r.subtask()));
      Set<Integer> missing = new HashSet<>(openInstants.writers(instant));
      missing.removeAll(reported);
      if (!missing.isEmpty()) {
        LOG.warn("Instant {} of table {}: writer subtasks {} have not reported yet at checkpoint {}; committing later",
            instant, table.basePath(), missing, checkpointId);
        return;
      }
      commit(instant, entry.getValue(), checkpointId);
    }
    committedThrough = Math.max(committedThrough, checkpointId);
    scheduleCompactionIfDue();
    // after the post-commit actions: a writer waiting at end of input finishes the job once answered
    answerCommitWaiters();
  }

  /**
   * Answers the writers waiting for commits that are done, and the compaction stage waiting for
   * the writers to finish; all of them, exceptionally, if this coordinator failed.
   */
  private void answerCommitWaiters() {
    List<CommitWaiter> done = new ArrayList<>();
    commitWaiters.removeIf(w -> {
      if (failed) {
        w.response().completeExceptionally(new TableException("write coordinator of " + options.path()
            + " failed before it committed checkpoint " + w.checkpointId()));
        return true;
      }
      if (!recovering && w.checkpointId() <= committedThrough) {
        done.add(w);
        return true;
      }
      return false;
    });
    done.forEach(w -> finishedSubtasks.add(w.subtask()));
    if (failed) {
      finalCompactionWaiters.forEach(w -> w.completeExceptionally(new TableException("write coordinator of "
          + options.path() + " failed before every writer finished")));
      finalCompactionWaiters.clear();
    } else if (writersFinished()) {
      finalCompactionWaiters.forEach(w -> w.complete(WriteMessages.instantResponse("writers finished")));
      finalCompactionWaiters.clear();
    }
    if (!done.isEmpty() && writersFinished() && (!options.runsCompactionStage() || compactionStageFinished)) {
      // before the last answer: once the writers (and the compaction stage) finish, the job is over and the
      // next may take the lease
      releaseLease();
    }
    done.forEach(w -> w.response().complete(WriteMessages.instantResponse("committed")));
  }

  /** Every writer subtask's input ended and its last commit is done. */
  private boolean writersFinished() {
    return !recovering && finishedSubtasks.size() >= parallelism;
  }

  /** Takes the table's writer lease for this writer lineage (again, if a restore changed the lineage). */
  private void acquireLease() {
    ConcurrencyOptions concurrency = options.concurrencyOptions();
    if ((!options.leaseEnabled() && !concurrency.multiWriter())
        || (session != null && session.writerId().equals(writerId) && !leaseReleased)) {
      return;
    }
    if (session != null && !leaseReleased) {
      session.release();
    }
    session = WriterSession.start(table, writerId, "Flink job " + flinkJobId, options.leaseTimeout(),
        InstantHeartbeats.WriterKind.STREAMING, concurrency);
    leaseReleased = false;
    if (leaseRenewal == null) {
      leaseRenewal = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "riverbed-writer-lease-" + options.tableName());
        t.setDaemon(true);
        return t;
      });
      long every = session.renewalInterval().toMillis();
      leaseRenewal.scheduleWithFixedDelay(() -> run("writer lease renewal", () -> {
        if (session != null && !leaseReleased) {
          session.renew();
        }
      }), every, every, TimeUnit.MILLISECONDS);
    }
  }

  private void releaseLease() {
    if (session != null && !leaseReleased) {
      session.release();
      leaseReleased = true;
    }
  }

  /**
   * A fault point inside a table service: a failure a test injects there fails the job (as a crash
   * of the job manager would end the service midway), so the restarted job must finish the clean
   * or archival from what it left. A service's own failures only get logged.
   */
  private Runnable crashAt(String point) {
    return () -> {
      try {
        FaultInjection.check(point);
      } catch (FaultInjection.InjectedFault e) {
        context.failJob(e);
        throw e;
      }
    };
  }

  /** The committer of this writer lineage, with the lease check, the fault point and the post-commit actions. */
  private TableCommitter newCommitter() {
    Schema commitSchema = schema;
    if (addsColumns) {
      Optional<Schema> committed = TableSchemaResolver.resolve(table, table.refreshTimeline());
      if (committed.isPresent()) {
        commitSchema = SchemaEvolution.union(committed.get(), schema, "the job's schema");
      }
    }
    TableCommitter c = TableCommitter.of(table, writerId).operationType(operationType).schema(commitSchema)
        .bucketIndex(options.indexType() == FlinkWriteOptions.IndexType.BUCKET)
        .afterCommitPoint(() -> FaultInjection.check(FaultInjection.COORDINATOR_DURING_COMMIT));
    if (session != null) {
      session.configure(c, options.indexType() == FlinkWriteOptions.IndexType.BUCKET);
    }
    c.postCommit(metrics);
    hiveSync.ifPresent(c::postCommit);
    tableServices.ifPresent(c::postCommit);
    return c;
  }

  /** Commits {@code instant} with {@code reports} under {@code checkpointId} (a no-op if it is committed already). */
  private void commit(String instant, List<WriteResult> reports, long checkpointId) {
    metrics.committing();
    committer.commit(new Committable(checkpointId, instant, reports.stream().map(WriteResult::message).toList(),
        Map.of(JOB_ID_KEY, flinkJobId)));
    openInstants.remove(instant);
    results.values().removeIf(r -> r.instant().equals(instant));
  }

  /** Commits what the restored checkpoint covers, rolls back every other pending write, then serves requests. */
  private void recover() {
    acquireLease();
    committer = newCommitter();
    long c = restoredCheckpoint;
    results.values().removeIf(r -> c == NO_CHECKPOINT || r.checkpointId() > c);
    TreeMap<String, List<WriteResult>> byInstant = new TreeMap<>();
    results.values().forEach(r -> byInstant.computeIfAbsent(r.instant(), i -> new ArrayList<>()).add(r));
    List<Committable> covered = new ArrayList<>();
    byInstant.forEach((instant, reports) -> covered.add(new Committable(c, instant,
        reports.stream().map(WriteResult::message).toList(), Map.of(JOB_ID_KEY, flinkJobId))));
    List<Committable> uncommitted = committer.filterCommitted(covered);
    uncommitted.forEach(u -> {
      metrics.committing();
      committer.commit(u);
    });
    var rolledBack = session != null ? session.rollbackFailedWrites() : Rollback.rollbackFailedWrites(table);
    openInstants.clear();
    results.clear();
    recovering = false;
    committedThrough = Math.max(committedThrough, c);
    LOG.info("Recovered table {} at checkpoint {}: {} instants committed, {} committed already, {} rolled back",
        table.basePath(), c, uncommitted.size(), covered.size() - uncommitted.size(), rolledBack.size());
    List<Runnable> answers = new ArrayList<>(deferred);
    deferred.clear();
    answers.forEach(Runnable::run);
  }

  // ---------------------------------------------------------------- compaction (MERGE_ON_READ, optional)

  /**
   * Plans a compaction if one is due (the compaction stage, or an offline compactor, runs it). While
   * instants are open the plan waits: requests that would begin another instant are held until
   * the open ones are committed ({@link CompactionHold}).
   */
  private void scheduleCompactionIfDue() {
    if (!options.compactionScheduleEnabled()) {
      return;
    }
    if (!openInstants.isEmpty()) {
      if (!compactionHold.isWaiting() && compactionTrigger.isDue(table)) {
        LOG.info("A compaction of {} is due; it is planned once the open instants {} are committed",
            table.basePath(), openInstantEpochs().keySet());
        compactionHold.await(openInstants.newestEpoch());
      }
      return;
    }
    try {
      compactionTrigger.scheduleIfDue(table);
    } finally {
      compactionHold.release();
    }
  }

  /** Lets the held writers go on without the plan (it is tried again after the next commit). */
  private void releaseCompactionHold(String why) {
    LOG.info("The due compaction of {} waits for the next commit ({}); {} held instant requests answered",
        table.basePath(), why, compactionHold.heldRequests());
    compactionHold.release();
  }

  // ---------------------------------------------------------------- state

  private byte[] snapshot() {
    var bytes = new ByteArrayOutputStream();
    try (var out = new DataOutputStream(bytes)) {
      out.writeInt(STATE_VERSION);
      out.writeUTF(writerId);
      out.writeUTF(flinkJobId);
      out.writeInt(openInstants.size());
      for (var e : openInstantEpochs().entrySet()) {
        out.writeUTF(e.getKey());
        out.writeLong(e.getValue());
      }
      out.writeInt(results.size());
      for (WriteResult r : results.values()) {
        r.write(out);
      }
    } catch (IOException e) {
      throw new TableException("cannot serialize the write coordinator state of " + options.path(), e);
    }
    return bytes.toByteArray();
  }

  private Map<String, Long> openInstantEpochs() {
    Map<String, Long> epochs = new LinkedHashMap<>();
    openInstants.forEach(epochs::put);
    return epochs;
  }

  private void restore(byte[] state) {
    openInstants.clear();
    results.clear();
    if (state == null) {
      return;
    }
    try (var in = new DataInputStream(new ByteArrayInputStream(state))) {
      int version = in.readInt();
      if (version != STATE_VERSION && version != 1) {
        throw new TableException("write coordinator state version " + version + " of " + options.path()
            + " is not supported (expected 1 or " + STATE_VERSION + ")");
      }
      writerId = in.readUTF();
      flinkJobId = in.readUTF();
      for (int i = in.readInt(); i > 0; i--) {
        openInstants.open(in.readUTF(), in.readLong());
      }
      for (int i = in.readInt(); i > 0; i--) {
        WriteResult r = WriteResult.read(in);
        results.put(r.id(), r);
      }
    } catch (IOException e) {
      throw new TableException("cannot read the write coordinator state of " + options.path(), e);
    }
  }

  // ---------------------------------------------------------------- threading

  /** Runs {@code action} on the coordinator thread; any failure fails the job. */
  private void run(String what, ThrowingRunnable action) {
    execute(what, action, false);
  }

  private void runEvenIfFailed(String what, ThrowingRunnable action) {
    execute(what, action, true);
  }

  private void execute(String what, ThrowingRunnable action, boolean evenIfFailed) {
    executor.execute(() -> {
      if (failed && !evenIfFailed) {
        return;
      }
      try {
        action.run();
      } catch (Throwable t) {
        failed = true;
        answerCommitWaiters();
        LOG.error("Write coordinator of {} failed in {}; failing the job", options.path(), what, t);
        context.failJob(new TableException("write coordinator of table " + options.path() + " failed in " + what, t));
      }
    });
  }

  @FunctionalInterface
  private interface ThrowingRunnable {
    void run() throws Exception;
  }
}
