package io.riverbed.flink.sink;

import static io.riverbed.flink.sink.WriterFixtures.ROW_TYPE;

import io.riverbed.flink.job.RetainedCheckpoints;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The soak's job in a process of its own, for {@link ChaosSoakTest}'s kill -9 runs: regenerates
 * the change stream from its seed, writes it with checkpoints retained in a directory and, with
 * {@code latest}, restores from the newest retained checkpoint (as {@code WriteJob --restore latest}
 * does). No faults are armed here: the kills are the faults.
 *
 * <p>Arguments: {@code seed changes chunks table-path checkpoint-dir positions-log new|latest}. Exits 0 when the bounded stream is written and committed.
 */
public final class ChaosSoakProcess {
  static final String DATASET = "soak-process";

  private ChaosSoakProcess() {}

  public static void main(String[] args) throws Exception {
    long seed = Long.parseLong(args[0]);
    int changes = Integer.parseInt(args[1]);
    int chunks = Integer.parseInt(args[2]);
    Path table = Path.of(args[3]);
    Path checkpoints = Path.of(args[4]);
    String positionsLog = args[5];
    boolean restore = args[6].equals("latest");
    Map<String, String> options = ChaosSoakTest.tableOptions(table.getParent(), "MERGE_ON_READ", changes);

    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
    conf.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
    if (restore) {
      String latest = RetainedCheckpoints.latest(checkpoints.toUri().toString())
          .orElseThrow(() -> new IllegalStateException("no retained checkpoint under " + checkpoints));
      System.out.println("restoring from " + latest);
      conf.set(StateRecoveryOptions.SAVEPOINT_PATH, latest);
    }
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1_000);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    env.getConfig().disableGenericTypes();

    var stream = WriterFixtures.changes(seed, changes, chunks, ChaosSoakTest.UPDATES, ChaosSoakTest.DELETES,
        ChaosSoakTest.MOVES);
    ChunkedSource.register(DATASET, WriterFixtures.rows(stream));
    var source = env.addSource(ChunkedSource.recordingPositionsTo(DATASET, positionsLog), "chunks",
        InternalTypeInfo.of(ROW_TYPE)).setParallelism(1);
    RiverbedSink.forRowData(ROW_TYPE, options).sinkTo(source);
    env.execute("soak-process");
    System.out.println("soak-process done");
  }
}
