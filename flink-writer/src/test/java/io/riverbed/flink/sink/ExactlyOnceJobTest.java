package io.riverbed.flink.sink;

import static io.riverbed.flink.sink.WriterFixtures.assertTableHolds;
import static io.riverbed.flink.sink.WriterFixtures.assertNoPendingWrites;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.options;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.job.JobCheckpointFolders;
import java.nio.file.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The acceptance stream, without and with injected failures: the table equals the expected rows exactly. */
class ExactlyOnceJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir
  Path dir;

  @AfterEach
  void disarm() {
    FaultInjection.reset();
  }

  @Test
  void hundredThousandChangesOverTwentyCheckpointsEqualLastWriterWins() throws Exception {
    var stream = changes(7, 100_000, 20, 0.30, 0.02, 0.0);
    var options = options(dir, "MERGE_ON_READ");
    long start = System.nanoTime();
    write("acceptance", stream, options, 2, 0, 0);
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("ACCEPTANCE 100000 changes in %.2f s = %.0f records/s%n", seconds, 100_000 / seconds);
    var table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
    assertThat(WriterFixtures.completedWrites(table)).isEqualTo(20);
  }

  @Test
  void failuresAtFourPointsLoseAndDuplicateNothingMergeOnRead() throws Exception {
    runWithFailures("MERGE_ON_READ", 8);
  }

  @Test
  void failuresAtFourPointsLoseAndDuplicateNothingCopyOnWrite() throws Exception {
    runWithFailures("COPY_ON_WRITE", 9);
  }

  /** The same faults with the index on RocksDB with incremental checkpoints: each restart restores them. */
  @Test
  void failuresAtFourPointsLoseAndDuplicateNothingWithTheIndexOnIncrementalRocksDb() throws Exception {
    runWithFailures("MERGE_ON_READ", 10,
        WriterFixtures.rocksDb(JobCheckpointFolders.create("exactly-once-rocksdb"), java.util.Optional.empty()));
  }

  private void runWithFailures(String type, long seed) throws Exception {
    runWithFailures(type, seed, env -> { });
  }

  private void runWithFailures(String type, long seed,
      java.util.function.Consumer<org.apache.flink.streaming.api.environment.StreamExecutionEnvironment> tune)
      throws Exception {
    var stream = changes(seed, 20_000, 20, 0.30, 0.02, 0.01);
    var options = options(dir, type);
    options.put("write.batch.size", "0.2");
    FaultInjection.arm(FaultInjection.WRITER_DURING_FLUSH, 5, 60);
    FaultInjection.arm(FaultInjection.WRITER_AFTER_FLUSH_BEFORE_BARRIER, 7);
    FaultInjection.arm(FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT, 9);
    FaultInjection.arm(FaultInjection.COORDINATOR_DURING_COMMIT, 4);
    write("failover-" + type + "-" + seed, stream, options, 2, 20, 0, tune);
    int fired = 0;
    for (String point : new String[] {FaultInjection.WRITER_DURING_FLUSH, FaultInjection.WRITER_AFTER_FLUSH_BEFORE_BARRIER,
        FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT, FaultInjection.COORDINATOR_DURING_COMMIT}) {
      assertThat(FaultInjection.fired(point)).as(point).isPositive();
      fired += FaultInjection.fired(point);
    }
    assertThat(fired).isGreaterThanOrEqualTo(5);
    var table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
  }
}
