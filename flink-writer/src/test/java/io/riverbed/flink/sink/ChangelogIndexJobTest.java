package io.riverbed.flink.sink;

import static io.riverbed.flink.sink.WriterFixtures.assertTableHolds;
import static io.riverbed.flink.sink.WriterFixtures.assertNoPendingWrites;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.options;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.job.JobCheckpointFolders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap index behind Flink 1.20's changelog state backend, configured on the cluster (filesystem
 * changelog storage; never materialized here, so each restart replays the changelog written so far):
 * under failed flushes and a failure between a checkpoint and its commit the table equals the model.
 */
class ChangelogIndexJobTest {
  static final Path FOLDER = JobCheckpointFolders.create("changelog-eval");

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2)
          .setConfiguration(cluster()).build());

  private static Configuration cluster() {
    Configuration conf = new Configuration();
    conf.setString("state.changelog.enabled", "true");
    conf.setString("state.changelog.storage", "filesystem");
    conf.setString("state.changelog.dstl.dfs.base-path", FOLDER.resolve("changelog").toUri().toString());
    conf.setString("state.changelog.periodic-materialize.interval", "1h");
    conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, FOLDER.resolve("checkpoints").toUri().toString());
    return conf;
  }

  @TempDir Path dir;

  @AfterEach
  void disarm() {
    FaultInjection.reset();
  }

  @Test
  void failuresLoseAndDuplicateNothingWithTheHeapIndexBehindTheChangelogStateBackend() throws Exception {
    var stream = changes(12, 20_000, 20, 0.30, 0.02, 0.01);
    var options = options(dir, "MERGE_ON_READ");
    options.put("write.batch.size", "0.2");
    FaultInjection.arm(FaultInjection.WRITER_DURING_FLUSH, 5, 60);
    FaultInjection.arm(FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT, 9);

    // Flink discards a finished job's checkpoints and the changelog files they name: the last chunk
    // waits until the changelog storage holds a file (never materialized, they all stay referenced)
    var changelogWritten = new AtomicBoolean();
    ChunkedSource.holdBefore("changelog", stream.size() - 1, () -> {
      changelogWritten.compareAndSet(false, hasFiles(FOLDER.resolve("changelog")));
      return changelogWritten.get();
    });

    write("changelog", stream, options, 2, 20, 0, env -> env.enableChangelogStateBackend(true));

    assertThat(FaultInjection.fired(FaultInjection.WRITER_DURING_FLUSH)).isPositive();
    assertThat(FaultInjection.fired(FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT)).isPositive();
    assertThat(changelogWritten).as("the changelog storage was written").isTrue();
    var table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
  }

  private static boolean hasFiles(Path folder) {
    if (!Files.isDirectory(folder)) {
      return false;
    }
    try (var files = Files.walk(folder)) {
      return files.anyMatch(Files::isRegularFile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
