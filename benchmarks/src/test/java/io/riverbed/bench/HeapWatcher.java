package io.riverbed.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Heap use of this JVM while something runs, measured two ways:
 * <ul>
 *   <li>peak used: {@code MemoryMXBean.getHeapMemoryUsage().getUsed()} polled every 10 ms (live
 *       data plus garbage not yet collected, so it grows with the heap the collector is allowed);</li>
 *   <li>peak after GC: the largest heap occupancy right after a collection, from the collectors'
 *       JMX notifications (a young collection leaves old-generation garbage in place, so this is
 *       an upper bound of the live set, closer to what the job needs).</li>
 * </ul>
 * Plus the number of collections and their total time.
 */
public final class HeapWatcher implements AutoCloseable {
  private final AtomicLong peakUsed = new AtomicLong();
  private final AtomicLong peakAfterGc = new AtomicLong();
  private final AtomicLong lastAfterGc = new AtomicLong();
  private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
      .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener = this::onGc;
  private final long gcCountAtStart = gcCount();
  private final long gcMillisAtStart = gcMillis();
  private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "bench-heap-sampler");
    t.setDaemon(true);
    return t;
  });

  private ScheduledExecutorService collector;

  private HeapWatcher() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        emitters.add(emitter);
      }
    }
  }

  /** Starts watching (after a full GC, so the run starts from the JVM's live set). */
  public static HeapWatcher start() {
    System.gc();
    HeapWatcher w = new HeapWatcher();
    var memory = ManagementFactory.getMemoryMXBean();
    w.sampler.scheduleAtFixedRate(() -> w.peakUsed.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max),
        0, 10, TimeUnit.MILLISECONDS);
    return w;
  }

  /**
   * Starts watching and forces a full collection {@code pauseMillis} after the end of the last
   * one: the peak after GC is then the live set's high-water mark at about that granularity (for
   * untimed memory probes only; the collections cost time, and a fixed pause between them, not a
   * fixed rate, leaves the work between them its share of the CPU).
   */
  public static HeapWatcher startForcingCollections(long pauseMillis) {
    HeapWatcher w = start();
    ScheduledExecutorService collector = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "bench-heap-collector");
      t.setDaemon(true);
      return t;
    });
    collector.scheduleWithFixedDelay(System::gc, pauseMillis, pauseMillis, TimeUnit.MILLISECONDS);
    w.collector = collector;
    return w;
  }

  /** The heap in use right after a full collection: the live set of this JVM at rest. */
  public static long usedAfterFullCollection() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private void onGc(Notification n, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    long after = info.getGcInfo().getMemoryUsageAfterGc().entrySet().stream()
        .filter(e -> heapPools.contains(e.getKey())).mapToLong(e -> e.getValue().getUsed()).sum();
    peakAfterGc.accumulateAndGet(after, Math::max);
    lastAfterGc.set(after);
  }

  public long peakUsedBytes() {
    return peakUsed.get();
  }

  public long peakAfterGcBytes() {
    return peakAfterGc.get();
  }

  /** The heap occupancy right after the latest collection (0 before the first). */
  public long lastAfterGcBytes() {
    return lastAfterGc.get();
  }

  public long gcCountSinceStart() {
    return gcCount() - gcCountAtStart;
  }

  public long gcMillisSinceStart() {
    return gcMillis() - gcMillisAtStart;
  }

  @Override
  public void close() {
    sampler.shutdownNow();
    if (collector != null) {
      collector.shutdownNow();
    }
    for (NotificationEmitter e : emitters) {
      try {
        e.removeNotificationListener(listener);
      } catch (ListenerNotFoundException ignored) {
        // never added: nothing to remove
      }
    }
  }

  private static long gcCount() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
  }

  private static long gcMillis() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
  }
}
