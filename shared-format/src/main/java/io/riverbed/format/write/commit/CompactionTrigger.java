package io.riverbed.format.write.commit;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.CompactionScheduler;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schedules a compaction of a MERGE_ON_READ table once enough delta commits completed since the
 * last compaction (Hudi's {@code NUM_COMMITS} trigger), as a {@link PostCommitAction}. Plans only
 * ({@link CompactionScheduler}, which also refuses while a write that is older than the plan would
 * be is pending); who runs the plan is the engine's business, told through {@code scheduled}.
 */
public final class CompactionTrigger implements PostCommitAction {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionTrigger.class);

  private final CompactionOptions options;
  private final int deltaCommits;
  private final Consumer<String> scheduled;

  private CompactionTrigger(CompactionOptions options, int deltaCommits, Consumer<String> scheduled) {
    if (deltaCommits <= 0) {
      throw new IllegalArgumentException("delta commits per compaction must be > 0, got " + deltaCommits);
    }
    this.options = Objects.requireNonNull(options);
    this.deltaCommits = deltaCommits;
    this.scheduled = Objects.requireNonNull(scheduled);
  }

  /**
   * A trigger that plans with {@code options} after every {@code deltaCommits} delta commits and
   * hands each scheduled compaction's instant time to {@code scheduled}.
   */
  public static CompactionTrigger of(CompactionOptions options, int deltaCommits, Consumer<String> scheduled) {
    return new CompactionTrigger(options, deltaCommits, scheduled);
  }

  @Override
  public void afterCommit(Table table, Instant committed, CommitMetadata metadata) {
    scheduleIfDue(table).ifPresent(scheduled);
  }

  /** Schedules a compaction of {@code table} if one is due; its instant time. */
  public Optional<String> scheduleIfDue(Table table) {
    if (table.type() != TableType.MERGE_ON_READ) {
      return Optional.empty();
    }
    Timeline timeline = table.timeline();
    String lastCompaction = timeline.writeTimeline().filter(i -> i.action() == Action.COMPACTION
        || (i.action() == Action.COMMIT && i.isCompleted())).last().map(Instant::time).orElse("");
    long since = timeline.ofAction(Action.DELTA_COMMIT).completed().instants().stream()
        .filter(i -> i.time().compareTo(lastCompaction) > 0).count();
    if (since < deltaCommits) {
      return Optional.empty();
    }
    var result = CompactionScheduler.of(table).options(options).execute();
    LOG.info("Compaction of {} after {} delta commits: {}", table.basePath(), since, result.reason());
    return result.instantTime();
  }

  @Override
  public String toString() {
    return "compaction trigger (every " + deltaCommits + " delta commits)";
  }
}
