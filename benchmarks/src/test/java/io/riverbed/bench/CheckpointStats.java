package io.riverbed.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;

/**
 * The completed checkpoints of one job as the MiniCluster's checkpoint statistics report them (what
 * Flink's web UI shows), polled from the job's execution graph while it runs and once after it
 * finished; each checkpoint is kept once. The checkpointed size is what the checkpoint uploaded (for
 * incremental RocksDB checkpoints the new files), the duration Flink's end-to-end duration.
 *
 * <p>The index-scale benchmark has a richer collector of its own (per vertex); the two read the same
 * {@link CheckpointStatsSnapshot} and can be merged.
 */
final class CheckpointStats {
  /** One completed checkpoint: end-to-end duration in ms, checkpointed (uploaded) and full state size in bytes. */
  record Completed(long id, long endToEndMillis, long checkpointedBytes, long stateBytes) {}

  private final Map<Long, Completed> completed = new ConcurrentSkipListMap<>();
  private volatile long failed;
  private volatile String pollError;

  /** Reads the job's checkpoint statistics; a failed poll is remembered (the next one retries), not thrown. */
  void poll(MiniCluster cluster, JobID job) {
    try {
      AccessExecutionGraph graph = cluster.getExecutionGraph(job).get(30, TimeUnit.SECONDS);
      CheckpointStatsSnapshot snapshot = graph.getCheckpointStatsSnapshot();
      if (snapshot == null) {
        return;
      }
      failed = snapshot.getCounts().getNumberOfFailedCheckpoints();
      for (AbstractCheckpointStats c : snapshot.getHistory().getCheckpoints()) {
        if (c.getStatus() == CheckpointStatsStatus.COMPLETED) {
          completed.putIfAbsent(c.getCheckpointId(),
              new Completed(c.getCheckpointId(), c.getEndToEndDuration(), c.getCheckpointedSize(), c.getStateSize()));
        }
      }
      pollError = null;
    } catch (Exception e) {
      pollError = e.toString();
    }
  }

  List<Completed> completed() {
    return new ArrayList<>(completed.values());
  }

  long failed() {
    return failed;
  }

  /** The last poll's error, or null if it succeeded. */
  String pollError() {
    return pollError;
  }
}
