package io.riverbed.flink.sink;

import static io.riverbed.flink.sink.WriterFixtures.assertTableHolds;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.expected;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.WriterFixtures.Change;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.WriteStat;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write job's metrics, read from Flink's in-memory reporter after each job: what the writer
 * tasks count equals what the job's commits record, the coordinator counts the commits, and a
 * second job on the table reports its index bootstrap.
 */
class WriteJobMetricsTest {
  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2)
          .setConfiguration(REPORTER.addToConfiguration(new Configuration())).build());

  @TempDir
  Path dir;

  @Test
  void writerCoordinatorAndBootstrapMetricsMatchWhatTheJobsCommitted() throws Exception {
    List<List<Change>> stream = changes(31, 2400, 6, 0.4, 0.1, 0.0);
    var options = WriterFixtures.options(dir, "MERGE_ON_READ");
    options.put(FlinkWriteOptions.INDEX_BOOTSTRAP, "true");

    JobID first = write("metrics-1", stream.subList(0, 3), options, 2, 0, 1).getJobID();
    Table table = table(options);
    Set<String> before = Set.copyOf(table.refreshTimeline().commitsTimeline().completed().times());
    int liveKeys = expected(stream.subList(0, 3)).size();
    assertCommittedEqualsCounted(table, first, Set.of());

    JobID second = write("metrics-2", stream.subList(3, 6), options, 2, 0, 1).getJobID();
    assertTableHolds(table, stream);
    assertCommittedEqualsCounted(table, second, before);
    assertThat(sum(second, "indexBootstrapKeysLoaded")).as("keys the second job's index bootstrap loaded")
        .isEqualTo(liveKeys);
    assertThat(sum(second, "indexBootstrapSlicesLoaded")).isEqualTo(sum(second, "indexBootstrapSlicesTotal"))
        .isPositive();
    assertThat(sum(second, "timeSinceLastCommitMs")).isNotNegative();
    assertThat(sum(second, "pendingCompactionPlans")).isNotNegative();
  }

  /** The job's write stats (its commits, those not in {@code earlier}) equal what its writers and coordinator counted. */
  private static void assertCommittedEqualsCounted(Table table, JobID job, Set<String> earlier) {
    long records = 0;
    long deletes = 0;
    long bytes = 0;
    long files = 0;
    long commits = 0;
    var store = table.timelineStore();
    for (Instant i : table.refreshTimeline().commitsTimeline().completed().instants()) {
      if (earlier.contains(i.time())) {
        continue;
      }
      CommitMetadata m = CommitMetadata.fromJson(store.read(i), i.toString());
      if (m.compacted()) {
        continue;
      }
      commits++;
      for (WriteStat s : m.writeStats()) {
        records += s.numWrites();
        deletes += s.numDeletes();
        bytes += s.totalWriteBytes();
        files++;
      }
    }
    assertThat(sum(job, "numRecordsWritten")).as("records written").isEqualTo(records).isPositive();
    assertThat(sum(job, "numRecordsDeleted")).as("records deleted").isEqualTo(deletes).isPositive();
    assertThat(sum(job, "numBytesWritten")).as("bytes written").isEqualTo(bytes);
    assertThat(sum(job, "numFilesWritten")).as("files written").isEqualTo(files);
    assertThat(sum(job, "numCommits")).as("commits counted by the coordinator").isEqualTo(commits).isPositive();
    assertThat(sum(job, "lastCommitDurationMs")).isNotNegative();
  }

  /** The sum of the job's metrics named {@code name} (counters, or gauges of numbers) over all subtasks. */
  private static long sum(JobID job, String name) {
    long total = 0;
    int found = 0;
    for (var group : REPORTER.getMetricsByGroup().entrySet()) {
      Metric metric = group.getValue().get(name);
      if (metric != null && job.toString().equals(group.getKey().getAllVariables().get("<job_id>"))) {
        total += number(metric);
        found++;
      }
    }
    assertThat(found).as("metrics named %s", name).isPositive();
    return total;
  }

  private static long number(Metric metric) {
    if (metric instanceof Counter c) {
      return c.getCount();
    }
    return ((Number) ((Gauge<?>) metric).getValue()).longValue();
  }
}
