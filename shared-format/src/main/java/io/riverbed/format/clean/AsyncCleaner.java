package io.riverbed.format.clean;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.write.commit.PostCommitAction;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link Cleaner#clean()} after commits on a thread of its own, as a {@link PostCommitAction}
 * of a streaming writer's committer (Hudi's Flink {@code clean.async.enabled}): a clean deletes
 * files and may take long, and the committer's thread must keep committing and checkpointing.
 *
 * <p>At most one clean runs at a time and cleans never queue up behind a slow store: commits that
 * arrive while one runs start no clean of their own, but together they cause one more clean right
 * after it, so the newest commit is always followed by a clean that sees it. A failed clean is logged with the table and the commit that triggered it and never reaches the
 * committer: the commit stands, and the next clean finishes a plan left pending. {@link #close}
 * interrupts a clean in progress, which is safe for the same reason.
 */
public final class AsyncCleaner implements PostCommitAction, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AsyncCleaner.class);

  private final Function<Table, List<CleanResult>> clean;
  private final ExecutorService executor;
  private static final int IDLE = 0;
  private static final int RUNNING = 1;
  /** Running, and a commit came meanwhile: one more clean follows. */
  private static final int RUNNING_AGAIN = 2;

  private final AtomicInteger state = new AtomicInteger(IDLE);
  /** The table and commit of the newest trigger. */
  private volatile Trigger latest;
  private volatile boolean closed;

  private record Trigger(Table table, Instant committed) {}

  private AsyncCleaner(Function<Table, List<CleanResult>> clean, ThreadFactory threads) {
    this.clean = clean;
    this.executor = Executors.newSingleThreadExecutor(threads);
  }

  /**
   * A cleaner of {@code options} whose thread comes from {@code threads} (an engine sets its name,
   * daemon flag and context class loader there). The thread starts with the first clean.
   */
  public static AsyncCleaner of(CleanOptions options, ThreadFactory threads) {
    Objects.requireNonNull(options, "options");
    return new AsyncCleaner(table -> Cleaner.of(table).options(options).execute(), Objects.requireNonNull(threads));
  }

  /** As {@link #of}, with the clean itself replaced (tests). */
  static AsyncCleaner running(Function<Table, List<CleanResult>> clean, ThreadFactory threads) {
    return new AsyncCleaner(clean, threads);
  }

  /**
   * Starts a clean of {@code table}, or, if one is running, asks for one more after it; nothing
   * once this cleaner is closed. Returns at once.
   */
  @Override
  public void afterCommit(Table table, Instant committed, CommitMetadata metadata) {
    if (closed) {
      return;
    }
    latest = new Trigger(table, committed);
    while (true) {
      int s = state.get();
      if (s == IDLE && state.compareAndSet(IDLE, RUNNING)) {
        try {
          executor.execute(this::runWhileTriggered);
        } catch (RejectedExecutionException e) {
          state.set(IDLE); // closed meanwhile
        }
        return;
      }
      if (s == RUNNING_AGAIN || (s == RUNNING && state.compareAndSet(RUNNING, RUNNING_AGAIN))) {
        LOG.debug("A clean of table {} is running; another follows it for commit {}", table.basePath(),
            committed.time());
        return;
      }
    }
  }

  /** True while a clean runs or one is due after the running one. */
  public boolean isRunning() {
    return state.get() != IDLE;
  }

  /** Runs on the clean thread, the only one that moves the state out of RUNNING or RUNNING_AGAIN. */
  private void runWhileTriggered() {
    try {
      while (true) {
        run(latest);
        if (closed) {
          state.set(IDLE);
          return;
        }
        if (state.compareAndSet(RUNNING, IDLE)) {
          return;
        }
        state.set(RUNNING); // was RUNNING_AGAIN: once more
      }
    } catch (Error e) {
      state.set(IDLE);
      throw e;
    }
  }

  private void run(Trigger trigger) {
    Table table = trigger.table();
    String commit = trigger.committed().time();
    try {
      List<CleanResult> done = clean.apply(table);
      if (!done.isEmpty()) {
        LOG.info("Cleaned table {} after commit {}: cleans {}, {} files deleted", table.basePath(), commit,
            done.stream().map(CleanResult::instantTime).toList(),
            done.stream().mapToInt(CleanResult::filesDeleted).sum());
      }
    } catch (RuntimeException e) {
      if (closed) {
        LOG.info("Clean of table {} after commit {} stopped by close; the next clean resumes its plan",
            table.basePath(), commit, e);
      } else {
        LOG.warn("Clean of table {} after commit {} failed; the commit stands and the next commit cleans again "
            + "(resuming a pending clean plan)", table.basePath(), commit, e);
      }
    }
  }

  /**
   * Starts no more cleans and interrupts the one in progress, waiting briefly for its thread to
   * end. Its plan, if written, stays pending and is carried out by the next clean of the table.
   */
  @Override
  public void close() {
    closed = true;
    executor.shutdownNow();
    try {
      if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("A clean thread is still running after close; it ends with its current file operation");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
