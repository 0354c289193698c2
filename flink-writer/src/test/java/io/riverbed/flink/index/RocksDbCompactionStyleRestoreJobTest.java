package io.riverbed.flink.index;

import static io.riverbed.flink.sink.WriterFixtures.assertNoPendingWrites;
import static io.riverbed.flink.sink.WriterFixtures.assertTableHolds;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.options;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.job.JobCheckpointFolders;
import io.riverbed.flink.job.RetainedCheckpoints;
import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.WriterFixtures;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.contrib.streaming.state.RocksDBConfigurableOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index of a job whose RocksDB compacted by levels (Flink's default, and Riverbed's before it set
 * universal compaction) restores into a run with Riverbed's settings, and the other way round: the
 * restored run finds every key (the table equals the model: no duplicate from a key it missed).
 */
class RocksDbCompactionStyleRestoreJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  private static final Map<String, String> LEVELED =
      Map.of(RocksDBConfigurableOptions.COMPACTION_STYLE.key(), "LEVEL");

  @TempDir
  Path dir;

  @AfterEach
  void disarm() {
    FaultInjection.reset();
  }

  @Test
  void aLeveledIndexRestoresIntoUniversalCompaction() throws Exception {
    restoreAcross("leveled-to-universal", LEVELED, Map.of());
  }

  @Test
  void aUniversalIndexRestoresIntoLeveledCompaction() throws Exception {
    restoreAcross("universal-to-leveled", Map.of(), LEVELED);
  }

  /**
   * Run 1 fails after its 8th checkpoint (past the four flushes that start a compaction); run 2
   * restores its last checkpoint with the other settings and writes the whole stream again.
   */
  private void restoreAcross(String name, Map<String, String> first, Map<String, String> second) throws Exception {
    var stream = changes(41, 8_000, 16, 0.40, 0.02, 0.02);
    var options = options(dir, "MERGE_ON_READ");
    Path checkpoints = JobCheckpointFolders.create("rocksdb-" + name);

    FaultInjection.arm(FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT, 8);
    assertThatThrownBy(() -> write(name, stream, options, 2, 0, 0,
        WriterFixtures.rocksDb(checkpoints, Optional.empty(), first)))
        .hasStackTraceContaining(FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT);
    FaultInjection.reset();
    String restoreFrom = RetainedCheckpoints.latest(checkpoints.toUri().toString()).orElseThrow();

    write(name, stream, options, 2, 0, 0, WriterFixtures.rocksDb(checkpoints, Optional.of(restoreFrom), second));

    var table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
  }
}
