package io.riverbed.flink;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Async compaction of MERGE_ON_READ tables ({@code compaction.async.enabled}): the coordinator
 * schedules (plan file only) when {@code compaction.delta_commits} delta commits completed since
 * the last compaction and no write instant is pending; writer subtask 0 runs the plan.
 */
final class FlinkCompaction {
  private static final Logger LOG = LoggerFactory.getLogger(FlinkCompaction.class);

  private FlinkCompaction() {}

  /** Schedules a compaction if one is due; its instant time. */
  static Optional<String> scheduleIfDue(Table table, FlinkWriteOptions options) {
    if (table.type() != TableType.MERGE_ON_READ) {
      return Optional.empty();
    }
    Timeline timeline = TimelineStore.at(table.fs(), table.metaPath()).load();
    String lastCompaction = timeline.writeTimeline().filter(i -> i.action() == Action.COMPACTION
        || (i.action() == Action.COMMIT && i.isCompleted())).last().map(Instant::time).orElse("");
    long deltaCommits = timeline.ofAction(Action.DELTA_COMMIT).completed().instants().stream()
        .filter(i -> i.time().compareTo(lastCompaction) > 0).count();
    if (deltaCommits < options.compactionDeltaCommits()) {
      return Optional.empty();
    }
    var result = CompactionScheduler.of(table).options(CompactionOptions.fromMap(options.raw())).schedule();
    LOG.info("Compaction of {} after {} delta commits: {}", table.basePath(), deltaCommits, result.reason());
    return result.instantTime();
  }

  /** Compactions scheduled and not completed. */
  static List<String> pending(Table table) {
    return TimelineStore.at(table.fs(), table.metaPath()).load().pendingCompactions().instants().stream()
        .map(Instant::time).toList();
  }

  static void run(Table table, String instant, FlinkWriteOptions options) {
    CompactionRunner.of(table, instant).options(CompactionOptions.fromMap(options.raw()))
        .afterEachFileGroup(() -> FaultInjection.check(FaultInjection.COMPACTOR_DURING_COMPACTION))
        .run();
    LOG.info("Compaction {} of {} completed", instant, table.basePath());
  }
}
