package io.riverbed.format.service;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.write.commit.PostCommitAction;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs table services ({@link TableService}: cleaning, then archival) after commits on a thread of
 * its own, as a {@link PostCommitAction} of a streaming writer's committer (Hudi's Flink
 * {@code clean.async.enabled}): a clean deletes files and may take long, and the committer's
 * thread must keep committing and checkpointing.
 *
 * <p>One round runs every service in order; at most one round runs at a time and rounds never
 * queue up behind a slow store: commits that arrive while one runs start none of their own, but
 * together they cause one more right after it, so the newest commit is always followed by a round
 * that sees it. A failed service is logged with the table and the commit that triggered it, the
 * next service still runs, and nothing reaches the committer: the commit stands, and the next
 * round finishes a plan left pending. {@link #close} interrupts a round in progress, which is safe
 * for the same reason.
 */
public final class AsyncTableServices implements PostCommitAction, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AsyncTableServices.class);

  private final List<TableService> services;
  private final ExecutorService executor;
  private static final int IDLE = 0;
  private static final int RUNNING = 1;
  /** Running, and a commit came meanwhile: one more round follows. */
  private static final int RUNNING_AGAIN = 2;

  private final AtomicInteger state = new AtomicInteger(IDLE);
  /** The table and commit of the newest trigger. */
  private volatile Trigger latest;
  private volatile boolean closed;

  private record Trigger(Table table, Instant committed) {}

  /** Service name → how long its last successful run took, in milliseconds (for metrics). */
  private final Map<String, Long> lastDurations = new ConcurrentHashMap<>();

  private AsyncTableServices(List<TableService> services, ThreadFactory threads) {
    this.services = List.copyOf(services);
    this.executor = Executors.newSingleThreadExecutor(Objects.requireNonNull(threads, "threads"));
  }

  /**
   * Runs {@code services} in their order after commits, on a thread from {@code threads} (an
   * engine sets its name, daemon flag and context class loader there). The thread starts with the
   * first round.
   */
  public static AsyncTableServices of(List<TableService> services, ThreadFactory threads) {
    return new AsyncTableServices(services, threads);
  }

  /**
   * Starts a round on {@code table}, or, if one is running, asks for one more after it; nothing
   * once closed. Returns at once.
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
        LOG.debug("Table services of table {} are running; another round follows for commit {}",
            table.basePath(), committed.time());
        return;
      }
    }
  }

  /** How long the last successful run of the service named {@code name} took (ms); empty before one. */
  public OptionalLong lastDurationMillis(String name) {
    Long ms = lastDurations.get(name);
    return ms == null ? OptionalLong.empty() : OptionalLong.of(ms);
  }

  /** True while a round runs or one is due after the running one. */
  public boolean isRunning() {
    return state.get() != IDLE;
  }

  /** Runs on the services' thread, the only one that moves the state out of RUNNING or RUNNING_AGAIN. */
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
    for (TableService service : services) {
      if (closed) {
        return;
      }
      long start = System.nanoTime();
      try {
        service.run(table).ifPresent(done -> LOG.info("Table service {} of table {} after commit {}: {}",
            service.name(), table.basePath(), commit, done));
        lastDurations.put(service.name(), (System.nanoTime() - start) / 1_000_000);
      } catch (RuntimeException e) {
        if (closed) {
          LOG.info("Table service {} of table {} after commit {} stopped by close; the next round resumes it",
              service.name(), table.basePath(), commit, e);
        } else {
          LOG.warn("Table service {} of table {} after commit {} failed; the commit stands and the next commit "
              + "runs it again (resuming a pending plan)", service.name(), table.basePath(), commit, e);
        }
      }
    }
  }

  /**
   * Starts no more rounds and interrupts the one in progress, waiting briefly for its thread to
   * end. A clean plan, if written, stays pending and is carried out by the next clean of the table.
   */
  @Override
  public void close() {
    closed = true;
    executor.shutdownNow();
    try {
      if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("A table-service thread is still running after close; it ends with its current file operation");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
