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
import org.apache.flink.runtime.checkpoint.TaskStateStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionJobVertex;
import org.apache.flink.runtime.jobgraph.JobVertexID;
import org.apache.flink.runtime.minicluster.MiniCluster;

/**
 * Every completed checkpoint of one job, as the MiniCluster's checkpoint statistics report it (what
 * Flink's web UI shows): polled from the job's execution graph, each completed checkpoint kept once.
 * Sizes are Flink's: the checkpointed size is what the checkpoint uploaded (for RocksDB's incremental
 * checkpoints the new SST and metadata files), the state size what it describes in full.
 */
final class CheckpointStatsCollector {
  /**
   * One completed checkpoint; durations in ms, sizes in bytes; "index" is the bucket assigner's vertex (the
   * index state), "writer" the stream writer's (its synchronous part flushes the buffered records to log files).
   */
  record Completed(long id, double atSeconds, long endToEndMillis, long uploadedBytes, long stateBytes,
      long indexUploadedBytes, long indexStateBytes, long maxSyncMillis, long maxAsyncMillis, long maxAlignmentMillis,
      long maxStartDelayMillis, long indexSyncMillis, long indexAsyncMillis, long writerSyncMillis) {}

  private final Map<Long, Completed> completed = new ConcurrentSkipListMap<>();
  private volatile long failed;
  private volatile String pollError;

  /**
   * Reads the job's checkpoint statistics; a failed poll is remembered, not thrown (the next one
   * retries). Returns the checkpoints completed since the last poll.
   */
  List<Completed> poll(MiniCluster cluster, JobID job, long startNanos) {
    List<Completed> added = new ArrayList<>();
    try {
      AccessExecutionGraph graph = cluster.getExecutionGraph(job).get(30, TimeUnit.SECONDS);
      CheckpointStatsSnapshot snapshot = graph.getCheckpointStatsSnapshot();
      if (snapshot == null) {
        return added;
      }
      failed = snapshot.getCounts().getNumberOfFailedCheckpoints();
      JobVertexID index = null;
      JobVertexID writer = null;
      for (Map.Entry<JobVertexID, ? extends AccessExecutionJobVertex> v : graph.getAllVertices().entrySet()) {
        if (v.getValue().getName().contains("bucket-assigner")) {
          index = v.getKey();
        }
        if (v.getValue().getName().contains("stream-writer")) {
          writer = v.getKey();
        }
      }
      long startMillis = System.currentTimeMillis() - (System.nanoTime() - startNanos) / 1_000_000;
      for (AbstractCheckpointStats c : snapshot.getHistory().getCheckpoints()) {
        if (c.getStatus() != CheckpointStatsStatus.COMPLETED || completed.containsKey(c.getCheckpointId())) {
          continue;
        }
        long sync = 0;
        long async = 0;
        long alignment = 0;
        long startDelay = 0;
        for (TaskStateStats task : c.getAllTaskStateStats()) {
          var summary = task.getSummaryStats();
          sync = Math.max(sync, summary.getSyncCheckpointDurationStats().getMaximum());
          async = Math.max(async, summary.getAsyncCheckpointDurationStats().getMaximum());
          alignment = Math.max(alignment, summary.getAlignmentDurationStats().getMaximum());
          startDelay = Math.max(startDelay, summary.getCheckpointStartDelayStats().getMaximum());
        }
        TaskStateStats indexStats = index == null ? null : c.getTaskStateStats(index);
        TaskStateStats writerStats = writer == null ? null : c.getTaskStateStats(writer);
        Completed done = new Completed(c.getCheckpointId(),
            (c.getTriggerTimestamp() - startMillis) / 1000.0, c.getEndToEndDuration(), c.getCheckpointedSize(),
            c.getStateSize(), indexStats == null ? -1 : indexStats.getCheckpointedSize(),
            indexStats == null ? -1 : indexStats.getStateSize(), sync, async, alignment, startDelay,
            indexStats == null ? -1 : indexStats.getSummaryStats().getSyncCheckpointDurationStats().getMaximum(),
            indexStats == null ? -1 : indexStats.getSummaryStats().getAsyncCheckpointDurationStats().getMaximum(),
            writerStats == null ? -1 : writerStats.getSummaryStats().getSyncCheckpointDurationStats().getMaximum());
        completed.put(c.getCheckpointId(), done);
        added.add(done);
      }
      pollError = null;
    } catch (Exception e) {
      pollError = e.toString();
    }
    return added;
  }

  List<Completed> completed() {
    return new ArrayList<>(completed.values());
  }

  long failed() {
    return failed;
  }

  /** The last poll's error, if it failed. */
  String pollError() {
    return pollError;
  }
}
