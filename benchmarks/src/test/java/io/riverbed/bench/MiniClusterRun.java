package io.riverbed.bench;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * One benchmark job on a MiniCluster of its own (one task manager), sampled every second while it
 * runs (checkpoint statistics, memory) and once more after it ended, so that each Flink benchmark
 * measures its job the same way.
 *
 * @param job the job's id
 * @param result what the cluster reported when the job ended
 * @param submittedNanos {@link System#nanoTime()} just before the job was submitted
 * @param endedNanos {@link System#nanoTime()} when its result came
 * @param cpuSeconds process CPU from submission to the result
 */
record MiniClusterRun(JobID job, JobResult result, long submittedNanos, long endedNanos, double cpuSeconds) {

  /** Called every second while the job runs, and once after it ended. */
  @FunctionalInterface
  interface Sampler {
    void sample(MiniCluster cluster, JobID job, long submittedNanos);
  }

  /** Runs {@code graph} with {@code conf} on {@code slots} slots; {@code samplerThread} names the sampling thread. */
  static MiniClusterRun of(Configuration conf, JobGraph graph, int slots, String samplerThread, Sampler sampler)
      throws Exception {
    MiniClusterConfiguration clusterConf = new MiniClusterConfiguration.Builder().setConfiguration(conf)
        .setNumTaskManagers(1).setNumSlotsPerTaskManager(slots).build();
    ScheduledExecutorService sampling = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, samplerThread);
      t.setDaemon(true);
      return t;
    });
    try (MiniCluster cluster = new MiniCluster(clusterConf)) {
      cluster.start();
      long cpuStart = ProcessCpu.nanos();
      long submitted = System.nanoTime();
      JobID job = cluster.submitJob(graph).get().getJobID();
      sampling.scheduleWithFixedDelay(() -> sampler.sample(cluster, job, submitted), 1, 1, TimeUnit.SECONDS);
      JobResult result = cluster.requestJobResult(job).get();
      long ended = System.nanoTime();
      double cpuSeconds = (ProcessCpu.nanos() - cpuStart) / 1e9;
      sampling.shutdown();
      sampling.awaitTermination(1, TimeUnit.MINUTES);
      sampler.sample(cluster, job, submitted);
      return new MiniClusterRun(job, result, submitted, ended, cpuSeconds);
    } finally {
      sampling.shutdownNow();
    }
  }
}
