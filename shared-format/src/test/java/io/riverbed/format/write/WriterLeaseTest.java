package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One streaming writer per table: the lease protocol, with a clock the test moves. */
class WriterLeaseTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  private Table table;
  private final AtomicLong clock = new AtomicLong(1_000_000);

  @BeforeEach
  void createTable() throws Exception {
    table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
  }

  @Test
  void aSecondWriterIsRefusedNamingTheHolder() {
    WriterLease.acquire(table, "writer-a", "Flink job aaa", TIMEOUT, clock::get);
    assertThatThrownBy(() -> WriterLease.acquire(table, "writer-b", "Flink job bbb", TIMEOUT, clock::get))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("Flink job aaa").hasMessageContaining("writer-a").hasMessageContaining(table.basePath().toString());
  }

  @Test
  void theSameWriterLineageTakesItsLeaseBackAtOnce() {
    WriterLease.acquire(table, "writer-a", "Flink job aaa", TIMEOUT, clock::get);
    var restored = WriterLease.acquire(table, "writer-a", "Flink job aaa (restored)", TIMEOUT, clock::get);
    restored.checkHeld();
  }

  @Test
  void anExpiredLeaseIsTakenOverAndItsOldHolderCanNoLongerCommit() {
    var stalled = WriterLease.acquire(table, "writer-a", "Flink job aaa", TIMEOUT, clock::get);
    clock.addAndGet(TIMEOUT.toMillis() + 1);
    var next = WriterLease.acquire(table, "writer-b", "Flink job bbb", TIMEOUT, clock::get);
    next.checkHeld();
    assertThatThrownBy(stalled::checkHeld).isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("lost the writer lease").hasMessageContaining("Flink job bbb");
    assertThatThrownBy(stalled::renew).isInstanceOf(CommitConflictException.class);
  }

  @Test
  void aRenewedLeaseDoesNotExpire() {
    var lease = WriterLease.acquire(table, "writer-a", "Flink job aaa", TIMEOUT, clock::get);
    clock.addAndGet(TIMEOUT.toMillis() - 1);
    lease.renew();
    clock.addAndGet(TIMEOUT.toMillis() - 1);
    assertThatThrownBy(() -> WriterLease.acquire(table, "writer-b", "Flink job bbb", TIMEOUT, clock::get))
        .isInstanceOf(CommitConflictException.class);
  }

  @Test
  void aReleasedLeaseGoesToTheNextWriter() throws Exception {
    WriterLease.acquire(table, "writer-a", "Flink job aaa", TIMEOUT, clock::get).release();
    WriterLease.acquire(table, "writer-b", "Flink job bbb", TIMEOUT, clock::get).checkHeld();
    assertThat(exists()).isTrue();
  }

  private boolean exists() throws java.io.IOException {
    return table.fs().exists(new org.apache.hadoop.fs.Path(table.metaPath(), WriterLease.FILE));
  }
}
