package io.riverbed.flink.sink;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.source.RichParallelSourceFunction;
import org.apache.flink.table.data.RowData;

/**
 * A deterministic bounded source that emits one chunk of rows per checkpoint and checkpoints its
 * position, so a restarted job replays exactly the chunks not yet covered. At a parallelism above
 * 1 only subtask 0 emits; the others finish at once (as an idle bounded source subtask does).
 */
public final class ChunkedSource extends RichParallelSourceFunction<RowData>
    implements CheckpointedFunction, CheckpointListener {
  private static final long serialVersionUID = 1L;
  private static final int NO_FAILURE = -1;
  private static final Map<String, List<List<RowData>>> DATASETS = new ConcurrentHashMap<>();
  private static final Map<String, Integer> RESTORED = new ConcurrentHashMap<>();
  private static final Map<String, Boolean> FAILED = new ConcurrentHashMap<>();
  private static final Map<String, Map<Long, Integer>> POSITIONS = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> ATTEMPTS = new ConcurrentHashMap<>();
  private static final Map<String, Map<Integer, BooleanSupplier>> HOLDS = new ConcurrentHashMap<>();
  private static final long HOLD_LIMIT_MILLIS = 10 * 60 * 1000L;

  private final String dataset;
  private final int idleCheckpoints;
  private final int failAfter;
  /** A file to append "checkpoint-id chunks" lines to at each snapshot (for a job in another process), or null. */
  private final String positionsLog;
  /** Emit the next chunk once a barrier passed the source after the last one, without waiting for its checkpoint to complete. */
  private final boolean streaming;
  private transient ListState<Integer> positionState;
  private transient volatile int next;
  private transient volatile long awaitedCheckpoint;
  private transient volatile int completedSinceEmit;
  private transient volatile boolean emittedSinceSnapshot;
  private transient volatile boolean running;
  /** Guards the wait for checkpoint completions between chunks; notified on each completion and on cancel. */
  private transient Object progress;

  /**
   * After emitting chunk c it waits until a checkpoint taken after c completed, plus
   * {@code idleCheckpoints} more (which see no data), before emitting c+1.
   */
  public ChunkedSource(String dataset, int idleCheckpoints) {
    this(dataset, idleCheckpoints, NO_FAILURE);
  }

  private ChunkedSource(String dataset, int idleCheckpoints, int failAfter) {
    this(dataset, idleCheckpoints, failAfter, null);
  }

  private ChunkedSource(String dataset, int idleCheckpoints, int failAfter, String positionsLog) {
    this(dataset, idleCheckpoints, failAfter, positionsLog, false);
  }

  private ChunkedSource(String dataset, int idleCheckpoints, int failAfter, String positionsLog, boolean streaming) {
    this.dataset = dataset;
    this.idleCheckpoints = idleCheckpoints;
    this.failAfter = failAfter;
    this.positionsLog = positionsLog;
    this.streaming = streaming;
  }

  /**
   * A source that also appends, at each snapshot, a line "checkpoint-id chunks-emitted" to the file
   * {@code positionsLog}, so that a test can learn {@link #positionsAtCheckpoints} of a job in a
   * process it kills. A later line for the same id (a restored job reusing an id its killed
   * predecessor never completed) supersedes an earlier one.
   */
  public static ChunkedSource recordingPositionsTo(String dataset, String positionsLog) {
    return new ChunkedSource(dataset, 0, NO_FAILURE, positionsLog);
  }

  /**
   * As {@link #recordingPositionsTo}, but streaming: chunk c+1 follows chunk c as soon as a
   * checkpoint's barrier has passed the source after c, without waiting for that checkpoint to
   * complete, as a steady stream (Kafka) feeds a job: the writers are writing the next epoch's rows,
   * and have begun its instant, while the coordinator commits the last one. Still one chunk per
   * checkpoint.
   */
  public static ChunkedSource streamingRecordingPositionsTo(String dataset, String positionsLog) {
    return new ChunkedSource(dataset, 0, NO_FAILURE, positionsLog, true);
  }

  /**
   * A source that, on its first attempt, fails once a checkpoint covering chunk {@code failAfter}
   * has completed, so the job restarts from a checkpoint; see {@link #restoredPosition}.
   */
  public static ChunkedSource failingOnceAfter(String dataset, int failAfter) {
    return new ChunkedSource(dataset, 0, failAfter);
  }

  public static String register(String name, List<List<RowData>> chunks) {
    DATASETS.put(name, chunks);
    RESTORED.remove(name);
    FAILED.remove(name);
    POSITIONS.put(name, new ConcurrentHashMap<>());
    ATTEMPTS.put(name, new AtomicInteger());
    return name;
  }

  /**
   * Makes the source of {@code name} (before or after it is registered) hold chunk {@code chunk} back until
   * {@code condition} holds, checked every 50 ms; checkpoints go on meanwhile. After ten minutes
   * the source fails, naming the chunk.
   */
  public static void holdBefore(String name, int chunk, BooleanSupplier condition) {
    HOLDS.computeIfAbsent(name, n -> new ConcurrentHashMap<>()).put(chunk, condition);
  }

  /** The position restored from a checkpoint, if the job restarted. */
  public static Integer restoredPosition(String name) {
    return RESTORED.get(name);
  }

  /**
   * Checkpoint id → chunks emitted before that checkpoint's barrier, as snapshotted by the emitting
   * subtask (every attempt; ids are unique within a job). A checkpoint taken after that subtask
   * finished is not listed: it covers all chunks.
   */
  public static Map<Long, Integer> positionsAtCheckpoints(String name) {
    return POSITIONS.get(name);
  }

  /** How many attempts of the emitting subtask initialized (1 + the job's restarts so far). */
  public static int attempts(String name) {
    return ATTEMPTS.get(name).get();
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    positionState = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("position", Types.INT));
    next = 0;
    for (Integer p : positionState.get()) {
      next = p;
    }
    if (context.isRestored()) {
      RESTORED.put(dataset, next);
    }
    if (getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0) {
      ATTEMPTS.get(dataset).incrementAndGet();
    }
    awaitedCheckpoint = Long.MAX_VALUE;
    progress = new Object();
  }

  @Override
  public void run(SourceContext<RowData> ctx) throws Exception {
    if (getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() > 0) {
      return;
    }
    running = true;
    List<List<RowData>> chunks = DATASETS.get(dataset);
    while (running && next < chunks.size()) {
      awaitHold(next);
      synchronized (ctx.getCheckpointLock()) {
        for (RowData row : chunks.get(next)) {
          ctx.collect(row);
        }
        next++;
        emittedSinceSnapshot = true;
        awaitedCheckpoint = Long.MAX_VALUE;
        completedSinceEmit = 0;
      }
      synchronized (progress) {
        while (running && (streaming ? awaitedCheckpoint == Long.MAX_VALUE : completedSinceEmit <= idleCheckpoints)) {
          progress.wait();
        }
      }
      if (failAfter != NO_FAILURE && next == failAfter + 1 && FAILED.putIfAbsent(dataset, true) == null) {
        throw new IllegalStateException("injected failure after chunk " + failAfter + " was committed");
      }
    }
  }

  private void awaitHold(int chunk) throws InterruptedException {
    BooleanSupplier hold = HOLDS.getOrDefault(dataset, Map.of()).get(chunk);
    long deadline = System.currentTimeMillis() + HOLD_LIMIT_MILLIS;
    while (running && hold != null && !hold.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("chunk " + chunk + " of " + dataset + " held back for too long");
      }
      synchronized (progress) {
        progress.wait(50);
      }
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    if (getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() > 0) {
      positionState.clear();
      return;
    }
    positionState.update(List.of(next));
    POSITIONS.get(dataset).put(context.getCheckpointId(), next);
    if (positionsLog != null) {
      java.nio.file.Files.writeString(java.nio.file.Path.of(positionsLog), context.getCheckpointId() + " " + next + "\n",
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }
    if (emittedSinceSnapshot) {
      awaitedCheckpoint = context.getCheckpointId();
      emittedSinceSnapshot = false;
      synchronized (progress) {
        progress.notifyAll();
      }
    }
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    synchronized (progress) {
      if (checkpointId >= awaitedCheckpoint) {
        completedSinceEmit++;
      }
      progress.notifyAll();
    }
  }

  @Override
  public void cancel() {
    running = false;
    Object lock = progress;
    if (lock != null) {
      synchronized (lock) {
        lock.notifyAll();
      }
    }
  }
}
