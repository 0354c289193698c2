package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.RollbackMetadata;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.concurrency.ConcurrencyOptions;
import io.riverbed.format.write.concurrency.InstantHeartbeats;
import io.riverbed.format.write.concurrency.InstantHeartbeats.WriterKind;
import io.riverbed.format.write.concurrency.TableLock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Failed writes under optimistic concurrency control are rolled back lazily, by their heartbeat. */
class LazyRollbackTest {
  private static final ConcurrencyOptions OCC = ConcurrencyOptions.fromMap(Map.of(
      ConcurrencyOptions.MODE, "optimistic_concurrency_control"));

  @TempDir
  java.nio.file.Path dir;

  private Table table;
  private TableLock lock;

  @BeforeEach
  void createTable() throws Exception {
    table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    lock = TableLock.open(table, OCC);
  }

  @Test
  void onlyInstantsWithoutALiveHeartbeatOrOfThisWritersEarlierRunAreRolledBack() throws Exception {
    String live = begin(InstantHeartbeats.of(table, "spark-b", WriterKind.BATCH));
    String noHeartbeat = WriteTransaction.start(table, WriteOperationType.UPSERT).instantTime();
    String mineFromBefore = begin(InstantHeartbeats.of(table, "spark-me", WriterKind.BATCH));
    String expired = begin(InstantHeartbeats.of(table, "spark-c", WriterKind.BATCH));
    age(expired);

    List<RollbackMetadata> done = Rollback.rollbackFailedWrites(table, OCC,
        InstantHeartbeats.of(table, "spark-me", WriterKind.BATCH), lock);

    assertThat(done).flatExtracting(RollbackMetadata::commitsRollback)
        .containsExactlyInAnyOrder(noHeartbeat, mineFromBefore, expired);
    assertThat(pending()).containsExactly(live);
    assertThat(table.fs().exists(InstantHeartbeats.path(table, expired))).as("its heartbeat is gone too").isFalse();
  }

  @Test
  void aBatchWriterNeverRollsBackAStreamingWritersInstantButTheNextStreamingWriterDoesOnceItExpired()
      throws Exception {
    String streaming = begin(InstantHeartbeats.of(table, "flink-a", WriterKind.STREAMING));
    age(streaming);

    assertThat(Rollback.rollbackFailedWrites(table, OCC, InstantHeartbeats.of(table, "spark", WriterKind.BATCH), lock))
        .isEmpty();
    assertThat(pending()).containsExactly(streaming);

    assertThat(Rollback.rollbackFailedWrites(table, OCC,
        InstantHeartbeats.of(table, "flink-b", WriterKind.STREAMING), lock)).hasSize(1);
    assertThat(pending()).isEmpty();
  }

  @Test
  void theEagerPolicyRollsBackEveryPendingWriteAndIsRefusedWithSeveralWriters() {
    String live = begin(InstantHeartbeats.of(table, "spark-b", WriterKind.BATCH));
    ConcurrencyOptions single = ConcurrencyOptions.defaults();
    assertThat(single.failedWritesPolicy()).isEqualTo(ConcurrencyOptions.FailedWritesPolicy.EAGER);
    Rollback.rollbackFailedWrites(table, single, InstantHeartbeats.of(table, "x", WriterKind.BATCH), lock);
    assertThat(pending()).doesNotContain(live);
    assertThatThrownBy(() -> ConcurrencyOptions.fromMap(Map.of(ConcurrencyOptions.MODE,
        "optimistic_concurrency_control", ConcurrencyOptions.FAILED_WRITES_POLICY, "EAGER")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LAZY");
  }

  private String begin(InstantHeartbeats heartbeats) {
    return WriteTransaction.start(table, WriteOperationType.UPSERT, InstantClock.forTable(table), heartbeats::start)
        .instantTime();
  }

  /** Makes {@code instant}'s heartbeat older than the expiry. */
  private void age(String instant) throws Exception {
    long old = System.currentTimeMillis() - OCC.heartbeatExpiry().toMillis() - 60_000;
    table.fs().setTimes(InstantHeartbeats.path(table, instant), old, -1);
  }

  private List<String> pending() {
    return TimelineStore.at(table.fs(), table.metaPath()).load().commitsTimeline().pending().times();
  }
}
