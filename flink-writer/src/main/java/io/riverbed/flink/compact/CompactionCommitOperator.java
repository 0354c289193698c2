package io.riverbed.flink.compact;

import io.riverbed.flink.commit.WriteMessages;
import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.TableException;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.CompactionRunner;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code compact-commit}, the last step of the compaction stage (parallelism 1, as Hudi's
 * {@code CompactionCommitSink}): collects the {@link CompactionEvent.Result}s of each compaction
 * run by operation index and, once every operation of the plan has reported, completes the
 * compaction with the core's {@link CompactionRunner#commit} (which also deletes the files of
 * failed attempts).
 *
 * <ul>
 *   <li>Results of one compaction are kept per run: a result of a newer generation (the planner
 *       began the compaction again) drops what an older run reported, and results of an older run
 *       are dropped, so a commit never mixes the files of two runs (a new run's begin deleted the
 *       old run's). A failed operation marks its run failed: it is never committed; the failover
 *       that follows begins it again. Nothing is kept in state for the same reason.
 *   <li><b>End of input.</b> A bounded job (or a drain) must not end with a compaction pending.
 *       The coordinator schedules the last one after the writers' last commit, which happens when
 *       the final checkpoint completes, after every operator of the job has finished its input:
 *       from then on no operator may emit records, so the stage cannot take a new plan in its
 *       usual way. This operator therefore runs what is left itself: in the notification of the
 *       first checkpoint it snapshotted after its input ended (the writers' final checkpoint, or a
 *       later one), it asks the writer's coordinator
 *       ({@link WriteMessages.FinalCompactionRequest}) and, once every writer's last commit is done,
 *       runs every pending compaction with {@link CompactionRunner#execute} (the stage upstream
 *       has finished all its work by then: this operator's input ended only after every result
 *       arrived), then tells the coordinator ({@link WriteMessages.CompactionStageFinished}), which
 *       releases the table's writer lease only then. The work runs on a thread of its own while the
 *       task thread yields to its mailbox, so checkpoints taken meanwhile complete; Flink finishes
 *       the task, and the job, only after the notification returns. A failure there fails the job
 *       with the compaction inflight; the next job on the table finishes it.
 * </ul>
 */
final class CompactionCommitOperator extends CompactionStageOperator<Void> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CompactionCommitOperator.class);
  /** How long the end of input waits for the writers' last commits (as long as a writer waits for its own). */
  static final Duration FINAL_COMMIT_TIMEOUT = Duration.ofMinutes(10);

  private final transient CoordinatorRequests requests;
  private final transient MailboxExecutor mailbox;

  private transient Map<String, Run> runs;
  private transient OperatorID coordinator;
  private transient boolean inputEnded;
  /** The first checkpoint snapshotted after the input ended; -1 before. */
  private transient long finalCheckpoint;
  private transient boolean finalCompactionsStarted;
  private transient ExecutorService finalCompactions;
  private transient volatile boolean finalCompactionsDone;
  private transient volatile Throwable finalCompactionsFailure;

  /** The results of one run of one compaction so far. */
  private static final class Run {
    final long generation;
    final int count;
    final Map<Integer, CompactionEvent.Result> results = new TreeMap<>();
    boolean failed;

    Run(long generation, int count) {
      this.generation = generation;
      this.count = count;
    }
  }

  CompactionCommitOperator(FlinkWriteOptions options, CoordinatorRequests requests, MailboxExecutor mailbox) {
    super(options);
    this.requests = requests;
    this.mailbox = mailbox;
  }

  @Override
  public void open() throws Exception {
    super.open();
    runs = new HashMap<>();
    finalCheckpoint = -1;
  }

  @Override
  public void processElement(StreamRecord<byte[]> element) {
    CompactionEvent event = CompactionEvent.fromBytes(element.getValue());
    if (event instanceof CompactionEvent.WriterCoordinator w) {
      coordinator = w.operatorId();
    } else if (event instanceof CompactionEvent.Result result) {
      collect(result);
    } else {
      throw unexpected(event);
    }
  }

  private void collect(CompactionEvent.Result result) {
    String instant = result.instant();
    Run run = runs.get(instant);
    if (run == null || result.generation() > run.generation) {
      if (run != null) {
        LOG.info("Compaction {} of {} was begun again (run {}): the {} results of run {} are dropped", instant,
            table.basePath(), Long.toHexString(result.generation()), run.results.size(),
            Long.toHexString(run.generation));
      }
      run = new Run(result.generation(), result.count());
      runs.put(instant, run);
    } else if (result.generation() < run.generation) {
      LOG.info("Compaction {} of {}: dropping a result of superseded run {}", instant, table.basePath(),
          Long.toHexString(result.generation()));
      return;
    }
    if (result.isFailed()) {
      run.failed = true;
      LOG.warn("Compaction {} of {}: operation {} failed ({}); run {} is not committed", instant, table.basePath(),
          result.index(), result.failure().get(), Long.toHexString(run.generation));
      return;
    }
    run.results.put(result.index(), result);
    if (!run.failed && run.results.size() == run.count) {
      List<WriteStat> stats = run.results.values().stream().flatMap(r -> r.stat().stream()).toList();
      CompactionRunner.of(table, instant).options(compactionOptions).commit(stats);
      runs.remove(instant);
      LOG.info("Compaction {} of {} committed: {} operations, {} base files", instant, table.basePath(), run.count,
          stats.size());
    }
  }

  @Override
  public void endInput() {
    inputEnded = true;
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    if (inputEnded && finalCheckpoint < 0) {
      finalCheckpoint = context.getCheckpointId();
    }
  }

  /**
   * Once a checkpoint snapshotted after the input ended completes: the end-of-input compactions
   * (see the class comment), once. Only such a checkpoint: every writer snapshotted it after its
   * own input ended, so the writers' last commits need no further checkpoint, which this task,
   * waiting here, could not take part in.
   */
  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    super.notifyCheckpointComplete(checkpointId);
    if (finalCheckpoint < 0 || checkpointId < finalCheckpoint || finalCompactionsStarted) {
      return;
    }
    finalCompactionsStarted = true;
    if (coordinator == null) {
      throw new TableException("the compaction committer of " + options.path() + " never learnt the writer's "
          + "coordinator; the compactions still pending stay for the next job");
    }
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    finalCompactions = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "riverbed-final-compactions-" + options.tableName());
      t.setDaemon(true);
      t.setContextClassLoader(loader);
      return t;
    });
    finalCompactions.execute(() -> {
      try {
        runFinalCompactions(checkpointId);
      } catch (Throwable t) {
        finalCompactionsFailure = t;
      }
      finalCompactionsDone = true;
      // wakes the task thread up from its yield
      mailbox.execute(() -> { }, "final compactions of %s done", options.tableName());
    });
    while (!finalCompactionsDone) {
      mailbox.yield();
    }
    if (finalCompactionsFailure != null) {
      throw new TableException("the last compactions of " + options.path() + " failed", finalCompactionsFailure);
    }
  }

  private void runFinalCompactions(long checkpointId) throws Exception {
    requests.send(coordinator, new WriteMessages.FinalCompactionRequest())
        .get(FINAL_COMMIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    List<String> pending = table.refreshTimeline().pendingCompactions().times();
    if (!pending.isEmpty()) {
      LOG.info("Input of {} ended (checkpoint {}): running the {} compactions still pending {}", table.basePath(),
          checkpointId, pending.size(), pending);
    }
    for (String instant : pending) {
      CompactionRunner.of(table, instant).options(compactionOptions)
          .afterEachFileGroup(() -> FaultInjection.check(FaultInjection.COMPACTOR_DURING_COMPACTION))
          .execute();
      LOG.info("Compaction {} of {} completed at the end of input", instant, table.basePath());
    }
    requests.send(coordinator, new WriteMessages.CompactionStageFinished())
        .get(FINAL_COMMIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() throws Exception {
    if (finalCompactions != null) {
      finalCompactions.shutdownNow();
      while (!finalCompactions.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("The compaction committer of {} is still waiting for its last compactions to stop", options.path());
      }
    }
    super.close();
  }
}
