package io.riverbed.bench;

import io.riverbed.format.write.RecordRateLimit;
import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.table.data.RowData;

/**
 * The generator of {@link FlinkIndexScaleBenchmark}: turns the numbers of Flink's sequence source
 * ({@code 0..events-1}, split into two halves by the two source subtasks) into {@link ScaleStream}
 * events, the first half into the even events and the second into the odd ones, so both subtasks
 * go through the stream in step. It paces the hot-update phases and records, in the run's
 * {@link Probe}, what the benchmark cannot get from Flink: the distinct keys each subtask emitted
 * between two checkpoint barriers (the keys whose index entries the checkpoint has to persist), and
 * when the inserts passed each million keys.
 */
final class ScaleEvents extends RichMapFunction<Long, RowData> implements CheckpointedFunction {
  private static final long serialVersionUID = 1L;

  /**
   * What one run's generator saw. Benchmark-only shared state: the MiniCluster runs in the
   * benchmark's JVM, and each run registers its own probe under its own name.
   */
  static final class Probe {
    /** Checkpoint id -> distinct keys emitted since the subtask's previous barrier (summed over subtasks). */
    final Map<Long, Long> changedKeys = new ConcurrentHashMap<>();
    /** Checkpoint id -> events emitted since the previous barrier (summed over subtasks). */
    final Map<Long, Long> events = new ConcurrentHashMap<>();
    /** Checkpoint id -> new keys inserted since the previous barrier (summed over subtasks). */
    final Map<Long, Long> inserts = new ConcurrentHashMap<>();
    /** Key / 1M (0, 1, 2, ...) -> {nanoTime, process CPU nanos} when the generator emitted that key's insert. */
    final Map<Long, long[]> milestones = new ConcurrentSkipListMap<>();
    /** Hot phase -> {nanoTime} when its first event was emitted. */
    final Map<Integer, Long> phaseStarts = new ConcurrentHashMap<>();
    final AtomicLong emitted = new AtomicLong();
    final AtomicLong unattributedKeys = new AtomicLong();
  }

  private static final Map<String, Probe> PROBES = new ConcurrentHashMap<>();

  static Probe register(String run) {
    Probe probe = new Probe();
    PROBES.put(run, probe);
    return probe;
  }

  static void unregister(String run) {
    PROBES.remove(run);
  }

  static final long MILESTONE_KEYS = 1_000_000;

  private final ScaleStream stream;
  private final String run;
  private transient Probe probe;
  private transient BitSet changed;
  private transient long changedCount;
  private transient long eventsSinceBarrier;
  private transient long insertsSinceBarrier;
  private transient int phase;
  /** Paces this subtask in the current hot phase. */
  private transient RecordRateLimit phaseLimit;

  ScaleEvents(ScaleStream stream, String run) {
    this.stream = stream;
    this.run = run;
  }

  @Override
  public void open(OpenContext context) {
    probe = PROBES.get(run);
    changed = new BitSet(Math.toIntExact(stream.keys));
    phase = -1;
  }

  @Override
  public RowData map(Long number) {
    long half = stream.events() / 2;
    long e = number < half ? 2 * number : 2 * (number - half) + 1;
    long key = stream.keyOf(e);
    if (!changed.get((int) key)) {
      changed.set((int) key);
      changedCount++;
    }
    eventsSinceBarrier++;
    probe.emitted.incrementAndGet();
    if (stream.isInsert(e)) {
      insertsSinceBarrier++;
      if (key % MILESTONE_KEYS == 0) {
        probe.milestones.put(key / MILESTONE_KEYS, new long[] {System.nanoTime(), ProcessCpu.nanos()});
      }
    }
    if (e >= stream.growthEvents) {
      pace(stream.phaseOf(e));
    }
    return stream.row(e);
  }

  /** Keeps this subtask at half of the hot phase's rate (two subtasks); a slow job is not made up for by bursts. */
  private void pace(int p) {
    if (p != phase) {
      phase = p;
      phaseLimit = RecordRateLimit.perSecond(stream.hotRates[p] / 2.0);
      probe.phaseStarts.putIfAbsent(p, System.nanoTime());
    }
    phaseLimit.acquire();
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    probe.changedKeys.merge(context.getCheckpointId(), changedCount, Long::sum);
    probe.events.merge(context.getCheckpointId(), eventsSinceBarrier, Long::sum);
    probe.inserts.merge(context.getCheckpointId(), insertsSinceBarrier, Long::sum);
    insertsSinceBarrier = 0;
    changed.clear();
    changedCount = 0;
    eventsSinceBarrier = 0;
  }

  @Override
  public void close() {
    if (probe != null) {
      probe.unattributedKeys.addAndGet(changedCount);
    }
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {
    // nothing to restore: a benchmark run starts from scratch
  }
}
