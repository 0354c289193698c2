package io.riverbed.flink.sink;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test hook: named points of the write path where a test can make the job fail. A point armed
 * with passes {@code n, m} fails on its n-th and m-th pass. Nothing is armed in production; an unarmed
 * check is one map lookup. Static, so it works across the task and coordinator threads of a
 * MiniCluster in the test's JVM.
 */
public final class FaultInjection {
  /** In a writer's flush, after a data file was written and before its stat is recorded. */
  public static final String WRITER_DURING_FLUSH = "writer.during-flush";
  /** In a writer's snapshot, after the flush and before its results are reported (before the barrier moves on). */
  public static final String WRITER_AFTER_FLUSH_BEFORE_BARRIER = "writer.after-flush-before-barrier";
  /** In the coordinator, the checkpoint completed and nothing is committed yet. */
  public static final String COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT = "coordinator.after-checkpoint-before-commit";
  /** In the coordinator's commit: the commit file is written, the coordinator has not recorded it. */
  public static final String COORDINATOR_DURING_COMMIT = "coordinator.during-commit";

  /**
   * In a compaction, after a file group's new base file is written and before its result is
   * reported (a compaction task: the attempt fails and is retried, up to three attempts, then the
   * task fails and the restarted job redoes the compaction from its inflight state; the
   * committer's end-of-input compactions: the job fails with the compaction inflight).
   */
  public static final String COMPACTOR_DURING_COMPACTION = "compactor.during-compaction";

  /** In the coordinator's table services, after a clean deleted a file and before it completes (the job fails). */
  public static final String SERVICES_DURING_CLEAN = "table-services.during-clean";
  /** In the coordinator's table services, after the archive file is written and before the archived instants go. */
  public static final String SERVICES_DURING_ARCHIVE = "table-services.during-archive";

  /** In a source reader, after the first row of a file slice was emitted and before the second. */
  public static final String SOURCE_DURING_SPLIT = "source.during-split";

  private static final Map<String, java.util.Set<Integer>> ARMED = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> PASSES = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> FIRED = new ConcurrentHashMap<>();

  private FaultInjection() {}

  /** Makes {@code point} fail on each of the given passes counted from now (1 = the next one). */
  public static void arm(String point, int... passes) {
    java.util.Set<Integer> set = ConcurrentHashMap.newKeySet();
    for (int p : passes) {
      set.add(p);
    }
    PASSES.put(point, new AtomicInteger());
    ARMED.put(point, set);
  }

  public static void reset() {
    ARMED.clear();
    PASSES.clear();
    FIRED.clear();
  }

  /** How many times {@code point} failed since the last {@link #reset}. */
  public static int fired(String point) {
    AtomicInteger n = FIRED.get(point);
    return n == null ? 0 : n.get();
  }

  /** How many times {@code point} was passed since it was armed (0 if it is not armed). */
  public static int passes(String point) {
    AtomicInteger n = PASSES.get(point);
    return n == null ? 0 : n.get();
  }

  /**
   * Called by the write path at {@code point}: throws {@link InjectedFault} if a test armed this
   * pass of it. Public for the writer, coordinator and compaction packages.
   */
  public static void check(String point) {
    java.util.Set<Integer> failing = ARMED.get(point);
    if (failing != null && failing.remove(PASSES.get(point).incrementAndGet())) {
      FIRED.computeIfAbsent(point, p -> new AtomicInteger()).incrementAndGet();
      throw new InjectedFault(point);
    }
  }

  /** The failure a test injected. */
  public static final class InjectedFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InjectedFault(String point) {
      super("injected failure at " + point);
    }
  }
}
