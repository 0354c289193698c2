package io.riverbed.format.write.commit;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.CompactionScheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schedules a compaction of a MERGE_ON_READ table when its {@link Policy} says one is due, as a
 * {@link PostCommitAction}: Hudi's trigger strategies ({@code compaction.trigger.strategy}), over
 * the delta commits completed since the last compaction (the newest compaction instant in any
 * state, or the newest completed commit) and the time elapsed since it (or, before the first
 * compaction, since the first completed delta commit). Plans only ({@link CompactionScheduler},
 * which also refuses while a write that is older than the plan would be is pending); who runs the
 * plan is the engine's business, told through {@code scheduled}.
 *
 * <p>Nothing is scheduled without a delta commit since the last compaction, whatever the
 * strategy: there would be no log file to compact.
 */
public final class CompactionTrigger implements PostCommitAction {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionTrigger.class);

  /** Hudi's {@code CompactionTriggerStrategy} values the Flink writer offers. */
  public enum Strategy {
    /** At least {@code deltaCommits} delta commits since the last compaction (Hudi's default). */
    NUM_COMMITS,
    /** At least {@code deltaTime} since the last compaction. */
    TIME_ELAPSED,
    /** Both {@link #NUM_COMMITS} and {@link #TIME_ELAPSED}. */
    NUM_AND_TIME,
    /** Either {@link #NUM_COMMITS} or {@link #TIME_ELAPSED}. */
    NUM_OR_TIME;

    /**
     * The strategy Hudi names {@code name} ({@code num_commits}, {@code time_elapsed},
     * {@code num_and_time}, {@code num_or_time}; any case).
     *
     * @throws IllegalArgumentException naming the strategies there are
     */
    public static Strategy parse(String name) {
      String n = name == null ? "" : name.trim().toUpperCase(Locale.ROOT);
      for (Strategy s : values()) {
        if (s.name().equals(n)) {
          return s;
        }
      }
      throw new IllegalArgumentException("unknown compaction trigger strategy '" + name + "': use num_commits, "
          + "time_elapsed, num_and_time or num_or_time");
    }

    /** The name as Hudi's options spell it. */
    public String optionValue() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * When a compaction is due.
   *
   * @param strategy which of the two thresholds must be reached
   * @param deltaCommits delta commits since the last compaction ({@code compaction.delta_commits})
   * @param deltaTime time since the last compaction ({@code compaction.delta_seconds})
   */
  public record Policy(Strategy strategy, int deltaCommits, Duration deltaTime) {
    /** Hudi's {@code compaction.delta_seconds} default: one hour. */
    public static final Duration DEFAULT_DELTA_TIME = Duration.ofHours(1);

    public Policy {
      Objects.requireNonNull(strategy, "strategy");
      Objects.requireNonNull(deltaTime, "deltaTime");
      if (deltaCommits <= 0) {
        throw new IllegalArgumentException("delta commits per compaction must be > 0, got " + deltaCommits);
      }
      if (deltaTime.isNegative() || deltaTime.isZero()) {
        throw new IllegalArgumentException("time between compactions must be > 0, got " + deltaTime);
      }
    }

    /** {@link Strategy#NUM_COMMITS}: every {@code deltaCommits} delta commits. */
    public static Policy everyDeltaCommits(int deltaCommits) {
      return new Policy(Strategy.NUM_COMMITS, deltaCommits, DEFAULT_DELTA_TIME);
    }

    /** Whether a compaction is due after {@code deltaCommitsSince} delta commits and {@code elapsed} since the last one. */
    public boolean isDue(long deltaCommitsSince, Duration elapsed) {
      boolean enoughCommits = deltaCommitsSince >= deltaCommits;
      boolean enoughTime = elapsed.compareTo(deltaTime) >= 0;
      return switch (strategy) {
        case NUM_COMMITS -> enoughCommits;
        case TIME_ELAPSED -> enoughTime;
        case NUM_AND_TIME -> enoughCommits && enoughTime;
        case NUM_OR_TIME -> enoughCommits || enoughTime;
      };
    }

    @Override
    public String toString() {
      return switch (strategy) {
        case NUM_COMMITS -> "every " + deltaCommits + " delta commits";
        case TIME_ELAPSED -> "every " + deltaTime.toSeconds() + " s";
        case NUM_AND_TIME -> deltaCommits + " delta commits and " + deltaTime.toSeconds() + " s";
        case NUM_OR_TIME -> deltaCommits + " delta commits or " + deltaTime.toSeconds() + " s";
      };
    }
  }

  private final CompactionOptions options;
  private final Policy policy;
  private final Consumer<String> scheduled;
  private final Clock clock;

  private CompactionTrigger(CompactionOptions options, Policy policy, Consumer<String> scheduled, Clock clock) {
    this.options = Objects.requireNonNull(options);
    this.policy = Objects.requireNonNull(policy);
    this.scheduled = Objects.requireNonNull(scheduled);
    this.clock = Objects.requireNonNull(clock);
  }

  /**
   * A trigger that plans with {@code options} when {@code policy} says a compaction is due and
   * hands each scheduled compaction's instant time to {@code scheduled}.
   */
  public static CompactionTrigger of(CompactionOptions options, Policy policy, Consumer<String> scheduled) {
    return new CompactionTrigger(options, policy, scheduled, Clock.systemUTC());
  }

  /** A trigger that plans after every {@code deltaCommits} delta commits ({@link Strategy#NUM_COMMITS}). */
  public static CompactionTrigger of(CompactionOptions options, int deltaCommits, Consumer<String> scheduled) {
    return of(options, Policy.everyDeltaCommits(deltaCommits), scheduled);
  }

  /** This trigger, telling the time by {@code clock} (the elapsed-time strategies); default: the system clock. */
  public CompactionTrigger clock(Clock clock) {
    return new CompactionTrigger(options, policy, scheduled, clock);
  }

  public Policy policy() {
    return policy;
  }

  @Override
  public void afterCommit(Table table, Instant committed, CommitMetadata metadata) {
    scheduleIfDue(table).ifPresent(scheduled);
  }

  /** Schedules a compaction of {@code table} if one is due; its instant time. */
  public Optional<String> scheduleIfDue(Table table) {
    Optional<Due> due = due(table);
    if (due.isEmpty()) {
      return Optional.empty();
    }
    var result = CompactionScheduler.of(table).options(options).execute();
    LOG.info("Compaction of {} after {} delta commits and {} s since {} (policy: {}): {}", table.basePath(),
        due.get().deltaCommits(), due.get().elapsed().toSeconds(), due.get().since(), policy, result.reason());
    return result.instantTime();
  }

  /**
   * Whether the policy says a compaction of {@code table} is due, without planning one: a writer
   * that may only plan once its open instants are committed asks this first.
   */
  public boolean isDue(Table table) {
    return due(table).isPresent();
  }

  private record Due(int deltaCommits, Duration elapsed, String since) {}

  private Optional<Due> due(Table table) {
    if (table.type() != TableType.MERGE_ON_READ) {
      return Optional.empty();
    }
    Timeline timeline = table.timeline();
    Optional<String> lastCompaction = timeline.writeTimeline().filter(i -> i.action() == Action.COMPACTION
        || (i.action() == Action.COMMIT && i.isCompleted())).last().map(Instant::time);
    List<Instant> deltaCommits = timeline.ofAction(Action.DELTA_COMMIT).completed().instants().stream()
        .filter(i -> lastCompaction.isEmpty() || i.time().compareTo(lastCompaction.get()) > 0).toList();
    if (deltaCommits.isEmpty()) {
      return Optional.empty();
    }
    String since = lastCompaction.orElse(deltaCommits.get(0).time());
    LocalDateTime now = LocalDateTime.now(clock.withZone(table.config().timelineTimezone().zoneId()));
    Duration elapsed = Duration.between(InstantTime.parseToDateTime(since), now);
    return policy.isDue(deltaCommits.size(), elapsed) ? Optional.of(new Due(deltaCommits.size(), elapsed, since))
        : Optional.empty();
  }

  @Override
  public String toString() {
    return "compaction trigger (" + policy + ")";
  }
}
