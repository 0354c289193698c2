package io.riverbed.format.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * Busy threads that keep the CPU loaded while a test runs, so that tests whose outcome depends on
 * timing (which records land in which checkpoint) meet the interleavings a busy machine produces.
 * Closing stops them.
 */
public final class CpuLoad implements AutoCloseable {
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;

  private CpuLoad() {}

  /** Starts {@code threads} daemon threads that spin until {@link #close}. */
  public static CpuLoad start(int threads) {
    CpuLoad load = new CpuLoad();
    for (int i = 0; i < threads; i++) {
      Thread t = new Thread(load::spin, "cpu-load-" + i);
      t.setDaemon(true);
      t.setPriority(Thread.NORM_PRIORITY);
      load.threads.add(t);
      t.start();
    }
    return load;
  }

  private void spin() {
    long x = 0;
    while (running) {
      x += System.nanoTime() % 7;
    }
    if (x == 42) {
      Thread.yield();
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    for (Thread t : threads) {
      t.join();
    }
  }
}
