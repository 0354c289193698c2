package io.riverbed.flink.compact;

import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.TableException;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.CompactionRunner;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code compact-task}, the compaction stage's workers ({@code compaction.tasks} of them, fed
 * round-robin): each {@link CompactionEvent.Operation} is merged by the core's
 * {@link CompactionRunner#compact} into the file group's new base file, and its
 * {@link CompactionEvent.Result} goes to the committer.
 *
 * <ul>
 *   <li>The merge runs on a thread of the task's own, one operation at a time in arrival order;
 *       results are emitted on the task thread (through its mailbox). So the task keeps passing
 *       checkpoint barriers while it compacts, as Hudi's {@code CompactOperator} does with
 *       {@code compaction.async.enabled}. No state: a compaction interrupted by a failover is begun
 *       again by the planner and redone.
 *   <li>A failed operation is retried here with attempt + 1 (a new file name, so the failed
 *       attempt's file never collides; the commit deletes it), {@value #MAX_ATTEMPTS} attempts in
 *       all; then the failure goes to the committer, which never commits that run, and the task
 *       fails, so Flink's failover redoes the compaction.
 *   <li>One {@link CompactionRunner} per compaction run (it reads the table schema and the
 *       committed log writes once), the last {@value #RUNNERS_KEPT} kept.
 *   <li>At the end of its input (bounded input, or a drain) the task waits for the operations it
 *       took before it finishes; on close (also on cancel) it interrupts the merge and waits for
 *       the thread to end, so no merge of a cancelled task outlives it.
 * </ul>
 *
 * The {@code compactor.during-compaction} fault point fails an attempt after its file is written.
 */
final class CompactionTaskOperator extends CompactionStageOperator<byte[]> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CompactionTaskOperator.class);
  static final int MAX_ATTEMPTS = 3;
  private static final int RUNNERS_KEPT = 4;

  private final transient MailboxExecutor mailbox;

  private transient ExecutorService merges;
  /** Runners by instant and generation; touched only on the merge thread. */
  private transient Map<String, CompactionRunner> runners;
  /** Operations taken and not yet reported; touched only on the task thread. */
  private transient int inFlight;
  private transient volatile boolean closing;

  CompactionTaskOperator(FlinkWriteOptions options, MailboxExecutor mailbox) {
    super(options);
    this.mailbox = mailbox;
  }

  @Override
  public void open() throws Exception {
    super.open();
    runners = new LinkedHashMap<>(RUNNERS_KEPT, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, CompactionRunner> eldest) {
        return size() > RUNNERS_KEPT;
      }
    };
    var task = getRuntimeContext().getTaskInfo();
    String name = "riverbed-compaction-" + options.tableName() + "-" + task.getIndexOfThisSubtask();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    merges = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      t.setContextClassLoader(loader);
      return t;
    });
  }

  @Override
  public void processElement(StreamRecord<byte[]> element) {
    CompactionEvent event = CompactionEvent.fromBytes(element.getValue());
    if (event instanceof CompactionEvent.WriterCoordinator) {
      output.collect(element);
    } else if (event instanceof CompactionEvent.Operation operation) {
      inFlight++;
      merges.execute(() -> compact(operation));
    } else {
      throw unexpected(event);
    }
  }

  /** On the merge thread: merges {@code operation}, retrying, and hands the result to the task thread. */
  private void compact(CompactionEvent.Operation operation) {
    CompactionRunner runner = runners.computeIfAbsent(operation.instant() + "@" + operation.generation(),
        k -> CompactionRunner.of(table, operation.instant()).options(compactionOptions));
    RuntimeException last = null;
    for (int attempt = 0; attempt < MAX_ATTEMPTS && !closing; attempt++) {
      try {
        Optional<WriteStat> stat = runner.compact(operation.operation(), operation.index(), attempt);
        FaultInjection.check(FaultInjection.COMPACTOR_DURING_COMPACTION);
        deliver(CompactionEvent.Result.of(operation, stat), null);
        return;
      } catch (RuntimeException e) {
        if (closing) {
          return;
        }
        last = e;
        LOG.warn("Compaction {} of {}: file group {}/{} (operation {}) failed at attempt {} of {}", operation.instant(),
            table.basePath(), operation.operation().partitionPath(), operation.operation().fileId(), operation.index(),
            attempt + 1, MAX_ATTEMPTS, e);
      }
    }
    if (last != null) {
      deliver(CompactionEvent.Result.failed(operation, String.valueOf(last)), new TableException("compaction "
          + operation.instant() + " of " + table.basePath() + ": file group " + operation.operation().partitionPath()
          + "/" + operation.operation().fileId() + " failed " + MAX_ATTEMPTS + " times", last));
    }
  }

  /** Emits {@code result} on the task thread; then fails the task with {@code failure} if there is one. */
  private void deliver(CompactionEvent.Result result, TableException failure) {
    try {
      mailbox.execute(() -> {
        inFlight--;
        output.collect(new StreamRecord<>(result.toBytes()));
        if (failure != null) {
          throw failure;
        }
      }, "compaction result %s/%d", result.instant(), result.index());
    } catch (RejectedExecutionException e) {
      if (!closing) {
        throw e;
      }
    }
  }

  /** Waits for the operations taken so far: their results must go out before the stage's input ends. */
  @Override
  public void endInput() throws Exception {
    while (inFlight > 0) {
      mailbox.yield();
    }
  }

  @Override
  public void close() throws Exception {
    closing = true;
    if (merges != null) {
      merges.shutdownNow();
      while (!merges.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("A compaction task of {} is still waiting for its merge thread to stop", options.path());
      }
    }
    super.close();
  }
}
