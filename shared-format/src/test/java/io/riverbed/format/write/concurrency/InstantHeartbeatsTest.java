package io.riverbed.format.write.concurrency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Heartbeats of pending instants: Hudi's file, its expiry, and the writer it names. */
class InstantHeartbeatsTest extends ConcurrencyTestTables {
  private static final ConcurrencyOptions OPTIONS = ConcurrencyOptions.fromMap(Map.of(
      ConcurrencyOptions.MODE, "optimistic_concurrency_control",
      ConcurrencyOptions.HEARTBEAT_INTERVAL, "10000", ConcurrencyOptions.HEARTBEAT_MISSES, "3"));

  @Test
  void aHeartbeatExpiresAfterIntervalTimesTolerableMisses() throws Exception {
    InstantHeartbeats beats = InstantHeartbeats.of(table, "writer-a", InstantHeartbeats.WriterKind.BATCH);
    beats.start("20240101000000000");
    long last = table.fs().getFileStatus(InstantHeartbeats.path(table, "20240101000000000")).getModificationTime();
    assertThat(InstantHeartbeats.path(table, "20240101000000000").toString()).endsWith(".hoodie/.heartbeat/20240101000000000");
    assertThat(InstantHeartbeats.isExpired(table, "20240101000000000", OPTIONS, last + 30_000)).isFalse();
    assertThat(InstantHeartbeats.isExpired(table, "20240101000000000", OPTIONS, last + 30_001)).isTrue();
  }

  @Test
  void anInstantWithoutHeartbeatCountsAsFailed() {
    assertThat(InstantHeartbeats.isExpired(table, "20240101000000000", OPTIONS, System.currentTimeMillis())).isTrue();
  }

  @Test
  void aBeatRenewsEveryStartedInstantAndAStoppedOneIsGone() throws Exception {
    InstantHeartbeats beats = InstantHeartbeats.of(table, "writer-a", InstantHeartbeats.WriterKind.STREAMING);
    beats.start("20240101000000001");
    beats.start("20240101000000002");
    beats.stop("20240101000000001");
    table.fs().delete(InstantHeartbeats.path(table, "20240101000000002"), false);
    beats.beat();
    assertThat(table.fs().exists(InstantHeartbeats.path(table, "20240101000000001"))).isFalse();
    assertThat(table.fs().exists(InstantHeartbeats.path(table, "20240101000000002"))).isTrue();
    assertThat(beats.beating()).containsExactly("20240101000000002");
  }

  @Test
  void theHeartbeatNamesItsWriterAndKind() throws Exception {
    InstantHeartbeats.of(table, "flink-lineage", InstantHeartbeats.WriterKind.STREAMING).start("20240101000000003");
    assertThat(InstantHeartbeats.ownerOf(table, "20240101000000003"))
        .contains(new InstantHeartbeats.Owner("flink-lineage", InstantHeartbeats.WriterKind.STREAMING));
    table.fs().create(InstantHeartbeats.path(table, "20240101000000004"), true).close();
    assertThat(InstantHeartbeats.ownerOf(table, "20240101000000004")).as("Hudi's empty heartbeat").isEmpty();
  }
}
