package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.Await;
import io.riverbed.format.write.concurrency.InstantHeartbeats;
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
  void aLeaseFileFoundEmptyWhileARenewalRewritesItIsReadAgain() throws Exception {
    var lease = WriterLease.acquire(table, "writer-a", "Flink job aaa", TIMEOUT, clock::get);
    var file = new org.apache.hadoop.fs.Path(table.metaPath(), WriterLease.FILE);
    byte[] content;
    try (var in = table.fs().open(file)) {
      content = in.readAllBytes();
    }
    table.fs().create(file, true).close();
    Thread reader = Thread.currentThread();
    Thread renewal = new Thread(() -> {
      try {
        // the reader found the file empty and pauses before reading it again
        Await.await("the lease read to pause after finding no writer id", Duration.ofSeconds(30))
            .every(Duration.ofMillis(5)).until(() -> reader.getState() == Thread.State.TIMED_WAITING);
        try (var out = table.fs().create(file, true)) {
          out.write(content);
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    renewal.start();
    lease.checkHeld();
    renewal.join();
  }

  @Test
  void aLeaseFileThatStaysEmptyIsReportedDamaged() throws Exception {
    var lease = WriterLease.acquire(table, "writer-a", "Flink job aaa", TIMEOUT, clock::get);
    table.fs().create(new org.apache.hadoop.fs.Path(table.metaPath(), WriterLease.FILE), true).close();
    assertThatThrownBy(lease::checkHeld).hasMessageContaining("damaged writer lease");
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
  void aReleasedLeaseGoesToTheNextWriter() {
    WriterLease.acquire(table, "writer-a", "Flink job aaa", TIMEOUT, clock::get).release();
    WriterLease.acquire(table, "writer-b", "Flink job bbb", TIMEOUT, clock::get).checkHeld();
    assertThat(exists()).isTrue();
  }

  // ---------------------------------------------------------------- several writers (optimistic concurrency control)

  @Test
  void writersWithOptimisticConcurrencyControlShareTheTable() {
    var flink = WriterLease.acquireShared(table, "flink", "Flink job aaa", TIMEOUT, STREAMING, clock::get);
    var spark1 = WriterLease.acquireShared(table, "spark-1", "Spark application one", TIMEOUT, BATCH, clock::get);
    var spark2 = WriterLease.acquireShared(table, "spark-2", "Spark application two", TIMEOUT, BATCH, clock::get);
    flink.checkHeld();
    spark1.checkHeld();
    spark2.checkHeld();
    spark1.release();
    flink.checkHeld();
    assertThatThrownBy(spark1::checkHeld).isInstanceOf(CommitConflictException.class);
  }

  @Test
  void aSingleWriterIsRefusedWhileSharedWritersRunAndTheOtherWayRound() {
    var shared = WriterLease.acquireShared(table, "spark-1", "Spark application one", TIMEOUT, BATCH, clock::get);
    assertThatThrownBy(() -> WriterLease.acquire(table, "flink", "Flink job aaa", TIMEOUT, clock::get))
        .isInstanceOf(CommitConflictException.class).hasMessageContaining("Spark application one")
        .hasMessageContaining("hoodie.write.concurrency.mode=optimistic_concurrency_control");
    assertThat(exists()).as("the refused writer left no exclusive lease").isFalse();
    shared.release();

    WriterLease.acquire(table, "flink", "Flink job aaa", TIMEOUT, clock::get);
    assertThatThrownBy(() -> WriterLease.acquireShared(table, "spark-2", "Spark application two", TIMEOUT, BATCH,
        clock::get)).isInstanceOf(CommitConflictException.class).hasMessageContaining("Flink job aaa")
        .hasMessageContaining("without hoodie.write.concurrency.mode=optimistic_concurrency_control");
  }

  @Test
  void aTableTakesOneStreamingWriterBesideBatchWriters() {
    WriterLease.acquireShared(table, "flink-a", "Flink job aaa", TIMEOUT, STREAMING, clock::get);
    WriterLease.acquireShared(table, "spark-1", "Spark application one", TIMEOUT, BATCH, clock::get);
    assertThatThrownBy(() -> WriterLease.acquireShared(table, "flink-b", "Flink job bbb", TIMEOUT, STREAMING,
        clock::get)).isInstanceOf(CommitConflictException.class).hasMessageContaining("Flink job aaa")
        .hasMessageContaining("one streaming writer");
    WriterLease.acquireShared(table, "flink-a", "Flink job aaa (restored)", TIMEOUT, STREAMING, clock::get).checkHeld();
  }

  @Test
  void anExpiredSharedLeaseNoLongerKeepsOthersOut() {
    WriterLease.acquireShared(table, "flink-a", "Flink job aaa", TIMEOUT, STREAMING, clock::get);
    clock.addAndGet(TIMEOUT.toMillis() + 1);
    WriterLease.acquireShared(table, "flink-b", "Flink job bbb", TIMEOUT, STREAMING, clock::get).checkHeld();
    clock.addAndGet(TIMEOUT.toMillis() + 1);
    WriterLease.acquire(table, "single", "Flink job ccc", TIMEOUT, clock::get).checkHeld();
  }

  private static final InstantHeartbeats.WriterKind STREAMING = InstantHeartbeats.WriterKind.STREAMING;
  private static final InstantHeartbeats.WriterKind BATCH = InstantHeartbeats.WriterKind.BATCH;

  private boolean exists() {
    try {
      return existsOrThrow();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private boolean existsOrThrow() throws java.io.IOException {
    return table.fs().exists(new org.apache.hadoop.fs.Path(table.metaPath(), WriterLease.FILE));
  }
}
