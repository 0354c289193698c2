package io.riverbed.format.write.concurrency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.table.Table;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** Hudi's file-system lock: its file, its exclusion, its expiry. */
class FileSystemTableLockTest extends ConcurrencyTestTables {
  @Test
  void theLockIsHudisLockFileWithItsLockInfoAndGoesWhenReleased() throws Exception {
    FileSystemTableLock lock = FileSystemTableLock.of(table, options(Map.of()));
    assertThat(lock.path()).isEqualTo(new Path(table.metaPath(), "lock"));
    try (TableLock.Held held = lock.acquire()) {
      String info = Files.readString(java.nio.file.Path.of(lock.path().toUri()), StandardCharsets.UTF_8);
      assertThat(info).startsWith("{\"lockCreateTime\":\"").contains("\"lockThreadName\":\"", "\"lockStacksInfo\":[]");
    }
    assertThat(table.fs().exists(lock.path())).isFalse();
  }

  @Test
  void theLockPathOptionNamesTheFolderEveryWriterShares() throws Exception {
    String folder = dir.resolve("locks").toUri().toString();
    FileSystemTableLock lock = FileSystemTableLock.of(table, options(Map.of(ConcurrencyOptions.LOCK_PATH, folder)));
    try (TableLock.Held held = lock.acquire()) {
      assertThat(Files.exists(dir.resolve("locks").resolve("lock"))).isTrue();
    }
  }

  @Test
  void aHeldLockMakesTheNextWriterWaitAndFailNamingTheLock() {
    ConcurrencyOptions quick = options(Map.of(ConcurrencyOptions.LOCK_WAIT, "300", ConcurrencyOptions.LOCK_RETRY_WAIT, "50"));
    FileSystemTableLock first = FileSystemTableLock.of(table, quick);
    FileSystemTableLock second = FileSystemTableLock.of(table, quick);
    try (TableLock.Held held = first.acquire()) {
      assertThatThrownBy(second::acquire).isInstanceOf(LockTimeoutException.class)
          .hasMessageContaining(first.path().toString()).hasMessageContaining("another writer holds it")
          .hasMessageContaining("lockCreateTime").hasMessageContaining(ConcurrencyOptions.LOCK_WAIT);
    }
    second.acquire().close();
  }

  @Test
  void aLockOlderThanItsExpiryIsTakenAsAbandoned() throws Exception {
    AtomicLong clock = new AtomicLong(System.currentTimeMillis());
    Map<String, String> conf = Map.of(ConcurrencyOptions.LOCK_EXPIRE, "1", ConcurrencyOptions.LOCK_WAIT, "200",
        ConcurrencyOptions.LOCK_RETRY_WAIT, "20");
    FileSystemTableLock crashed = FileSystemTableLock.of(table, options(conf), clock::get);
    crashed.acquire();
    FileSystemTableLock next = FileSystemTableLock.of(table, options(conf), clock::get);
    assertThatThrownBy(next::acquire).as("not expired yet").isInstanceOf(LockTimeoutException.class);
    clock.addAndGet(61_000);
    next.acquire().close();
  }

  @Test
  void releasingALockTakenOverByAnotherWriterLeavesTheirsInPlace() throws Exception {
    AtomicLong clock = new AtomicLong(System.currentTimeMillis());
    Map<String, String> conf = Map.of(ConcurrencyOptions.LOCK_EXPIRE, "1");
    TableLock.Held stale = FileSystemTableLock.of(table, options(conf), clock::get).acquire();
    clock.addAndGet(61_000);
    FileSystemTableLock next = FileSystemTableLock.of(table, options(conf), clock::get);
    TableLock.Held current = next.acquire();
    stale.close();
    assertThat(table.fs().exists(next.path())).as("the new holder's lock file").isTrue();
    current.close();
  }

  @Test
  void threadsWithLocksOfTheirOwnNeverHoldItAtOnce() throws Exception {
    int threads = 4;
    int rounds = 40;
    ConcurrencyOptions patient = options(Map.of(ConcurrencyOptions.LOCK_WAIT, "120000",
        ConcurrencyOptions.LOCK_RETRY_WAIT, "1"));
    AtomicInteger holders = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    int[] unguarded = new int[1];
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          FileSystemTableLock lock = FileSystemTableLock.of(table, patient);
          start.await();
          for (int i = 0; i < rounds; i++) {
            try (TableLock.Held held = lock.acquire()) {
              mostAtOnce.accumulateAndGet(holders.incrementAndGet(), Math::max);
              int seen = unguarded[0];
              Thread.yield();
              unguarded[0] = seen + 1;
              holders.decrementAndGet();
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(mostAtOnce.get()).isEqualTo(1);
    assertThat(unguarded[0]).isEqualTo(threads * rounds);
  }

  @Test
  void anUnknownLockProviderIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> TableLock.open(table, options(Map.of(ConcurrencyOptions.LOCK_PROVIDER,
        "org.apache.hudi.client.transaction.lock.ZookeeperBasedLockProvider"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(ConcurrencyOptions.LOCK_PROVIDER)
        .hasMessageContaining("ZookeeperBasedLockProvider");
  }

  @Test
  void aLockFactoryClassPlugsInAnotherLock() {
    TableLock lock = TableLock.open(table, options(Map.of(ConcurrencyOptions.LOCK_PROVIDER,
        InMemoryLockFactory.class.getName())));
    assertThat(lock).isInstanceOf(InMemoryLockFactory.Lock.class);
    lock.acquire().close();
    assertThat(((InMemoryLockFactory.Lock) lock).acquired).isEqualTo(1);
  }

  /** A lock factory for the plug-in test. */
  public static final class InMemoryLockFactory implements TableLockFactory {
    @Override
    public TableLock open(Table table, ConcurrencyOptions options) {
      return new Lock();
    }

    static final class Lock implements TableLock {
      int acquired;

      @Override
      public Held acquire() {
        acquired++;
        return () -> { };
      }
    }
  }

  private static ConcurrencyOptions options(Map<String, String> conf) {
    Map<String, String> all = new HashMap<>(conf);
    all.put(ConcurrencyOptions.MODE, "optimistic_concurrency_control");
    return ConcurrencyOptions.fromMap(all);
  }
}
