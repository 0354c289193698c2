package io.riverbed.flink.compact;

import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.CompactionRunner;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Async compaction of MERGE_ON_READ tables ({@code compaction.async.enabled}): the coordinator
 * schedules (plan file only, the core's {@link io.riverbed.format.write.commit.CompactionTrigger})
 * when {@code compaction.delta_commits} delta commits completed since the last compaction and no
 * write instant is pending; writer subtask 0 runs the plan.
 *
 * <p>Public for the write coordinator (it sends the pending compactions to writer subtask 0) and
 * the stream writer (it runs them), which live in packages of their own.
 */
public final class FlinkCompaction {
  private static final Logger LOG = LoggerFactory.getLogger(FlinkCompaction.class);

  private FlinkCompaction() {}

  /** Compactions scheduled and not completed. */
  public static List<String> pending(Table table) {
    return table.refreshTimeline().pendingCompactions().instants().stream()
        .map(Instant::time).toList();
  }

  /** Runs the scheduled compaction {@code instant} of {@code table} and commits it. */
  public static void run(Table table, String instant, FlinkWriteOptions options) {
    CompactionRunner.of(table, instant).options(CompactionOptions.fromMap(options.raw()))
        .afterEachFileGroup(() -> FaultInjection.check(FaultInjection.COMPACTOR_DURING_COMPACTION))
        .execute();
    LOG.info("Compaction {} of {} completed", instant, table.basePath());
  }
}
