package io.riverbed.flink.commit;

import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.service.AsyncTableServices;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.write.commit.PostCommitAction;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The write coordinator's metrics, in the job manager's metric group of the writer operator's
 * coordinator: commits, how long the last one took and how long ago it completed, the compactions
 * pending as of the last commit, and how long the last clean and archival took. A post-commit
 * action, first of the committer's, so that a commit's duration ends at its commit point.
 */
final class CoordinatorMetrics implements PostCommitAction {
  static final String COMMITS = "numCommits";
  static final String LAST_COMMIT_DURATION = "lastCommitDurationMs";
  static final String TIME_SINCE_LAST_COMMIT = "timeSinceLastCommitMs";
  static final String PENDING_COMPACTION_PLANS = "pendingCompactionPlans";
  static final String PENDING_COMPACTION_OPERATIONS = "pendingCompactionOperations";
  static final String LAST_CLEAN_DURATION = "lastCleanDurationMs";
  static final String LAST_ARCHIVE_DURATION = "lastArchiveDurationMs";

  private final LongSupplier clockMillis;
  private final Counter commits;
  private volatile long commitStartedAt;
  private volatile long lastCommitDuration;
  /** When the last commit completed; the coordinator's start until then. */
  private volatile long lastCommitAt;
  private volatile int pendingPlans;
  private volatile int pendingOperations;

  CoordinatorMetrics(MetricGroup group, Optional<AsyncTableServices> services, LongSupplier clockMillis) {
    this.clockMillis = clockMillis;
    this.lastCommitAt = clockMillis.getAsLong();
    this.commits = group.counter(COMMITS);
    group.gauge(LAST_COMMIT_DURATION, () -> lastCommitDuration);
    group.gauge(TIME_SINCE_LAST_COMMIT, () -> clockMillis.getAsLong() - lastCommitAt);
    group.gauge(PENDING_COMPACTION_PLANS, () -> pendingPlans);
    group.gauge(PENDING_COMPACTION_OPERATIONS, () -> pendingOperations);
    group.gauge(LAST_CLEAN_DURATION, () -> lastDuration(services, "clean"));
    group.gauge(LAST_ARCHIVE_DURATION, () -> lastDuration(services, "archive"));
  }

  /** A commit starts now. */
  void committing() {
    commitStartedAt = clockMillis.getAsLong();
  }

  @Override
  public void afterCommit(Table table, Instant committed, CommitMetadata metadata) {
    long now = clockMillis.getAsLong();
    lastCommitDuration = now - commitStartedAt;
    lastCommitAt = now;
    commits.inc();
    var timeline = table.timeline();
    pendingPlans = timeline.pendingCompactions().instants().size();
    pendingOperations = pendingPlans == 0 ? 0
        : FileSystemViewLoader.pendingCompactions(table.timelineStore(), timeline).size();
  }

  private static long lastDuration(Optional<AsyncTableServices> services, String name) {
    return services.map(s -> s.lastDurationMillis(name).orElse(0)).orElse(0L);
  }
}
