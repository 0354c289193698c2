package io.riverbed.flink.commit;

import static io.riverbed.flink.sink.WriterFixtures.assertTableHolds;
import static io.riverbed.flink.sink.WriterFixtures.assertNoPendingWrites;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.options;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.job.JobCheckpointFolders;
import io.riverbed.flink.job.RetainedCheckpoints;
import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.WriterFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restored runs of a job on the RocksDB index with incremental checkpoints: a run deletes the
 * retained checkpoints of the run it was restored from once it has completed a checkpoint of its
 * own, and not before; the table equals the model across the runs.
 */
class EarlierRunCheckpointsJobTest {
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
  void aRunRestoredFromAFailedRunsCheckpointDeletesThatRunsCheckpointsOnlyOnceItCompletedOneOfItsOwn()
      throws Exception {
    var stream = changes(32, 6_000, 12, 0.30, 0.02, 0.01);
    var options = options(dir, "MERGE_ON_READ");
    Path checkpoints = JobCheckpointFolders.create("rocksdb-housekeeping");

    // run 1 fails (no restarts) once its 4th checkpoint completed: its checkpoints are retained
    FaultInjection.arm(FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT, 4);
    assertThatThrownBy(() -> write("housekeeping", stream, options, 2, 0, 0,
        WriterFixtures.rocksDb(checkpoints, Optional.empty())))
        .hasStackTraceContaining(FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT);
    FaultInjection.reset();
    String run1Checkpoint = RetainedCheckpoints.latest(checkpoints.toUri().toString()).orElseThrow();
    Path run1 = Path.of(java.net.URI.create(run1Checkpoint)).getParent();
    try (Stream<Path> shared = Files.list(run1.resolve("shared"))) {
      assertThat(shared.count()).as("incremental RocksDB checkpoints upload SST files to shared/").isPositive();
    }

    // run 2 restores from it and fails in its first checkpoint: run 1's checkpoint is all a restore has
    FaultInjection.arm(FaultInjection.WRITER_DURING_FLUSH, 1);
    assertThatThrownBy(() -> write("housekeeping", stream, options, 2, 0, 0,
        WriterFixtures.rocksDb(checkpoints, Optional.of(run1Checkpoint)))).hasStackTraceContaining(FaultInjection.WRITER_DURING_FLUSH);
    FaultInjection.reset();
    assertThat(Path.of(java.net.URI.create(run1Checkpoint)).resolve("_metadata")).exists();
    assertThat(RetainedCheckpoints.latest(checkpoints.toUri().toString())).hasValue(run1Checkpoint);

    // run 3 restores from it too and completes: once it checkpointed, run 1's folder goes
    write("housekeeping", stream, options, 2, 0, 0, WriterFixtures.rocksDb(checkpoints, Optional.of(run1Checkpoint)));

    awaitGone(run1);
    var table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
  }

  /** The deletion runs on a thread of the coordinator's after a checkpoint: wait for it, bounded. */
  private static void awaitGone(Path folder) throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (Files.exists(folder)) {
      assertThat(System.nanoTime()).as("%s still exists after 120 s", folder).isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
