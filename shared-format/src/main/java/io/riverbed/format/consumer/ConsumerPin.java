package io.riverbed.format.consumer;

import io.riverbed.format.options.DurationOption;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the registered consumers of a table hold back: the live consumer (not expired) with the
 * oldest position, and the first completed write instant after that position, which is the oldest
 * commit any live consumer's next incremental read returns. Cleaning treats it as a bound on the
 * earliest instant to retain (so the file slices holding that commit's files and every later one's
 * stay), archival keeps it and every later instant active.
 *
 * @param consumer the live consumer with the oldest position
 * @param firstNeeded the first completed write (commit, deltacommit, replacecommit, compaction) after
 *     its position
 */
public record ConsumerPin(Consumer consumer, Instant firstNeeded) {
  private static final Logger LOG = LoggerFactory.getLogger(ConsumerPin.class);

  /**
   * The pin of the consumers registered on {@code table} as of {@code now}, over {@code timeline}.
   * Empty when no consumer is live, or when no completed write follows the oldest live position
   * (its next read has nothing yet that a clean could delete or an archival move).
   */
  public static Optional<ConsumerPin> find(Table table, Timeline timeline, java.time.Instant now,
      ConsumerOptions options) {
    List<Consumer> consumers = ConsumerRegistry.of(table).list();
    if (consumers.isEmpty()) {
      return Optional.empty();
    }
    for (Consumer c : consumers) {
      if (c.isExpired(now, options.expiration())) {
        LOG.debug("Consumer {} of table {} (position {}, recorded {}) expired after {}: it holds nothing back", c.id(),
            table.basePath(), c.position(), c.advancedAt(), DurationOption.format(options.expiration()));
      }
    }
    Optional<Consumer> oldest = consumers.stream().filter(c -> !c.isExpired(now, options.expiration()))
        .min(Comparator.comparing(Consumer::position).thenComparing(Consumer::id));
    if (oldest.isEmpty()) {
      return Optional.empty();
    }
    String position = oldest.get().position();
    return timeline.writeTimeline().completed().instants().stream()
        .filter(i -> i.time().compareTo(position) > 0).findFirst()
        .map(first -> new ConsumerPin(oldest.get(), first));
  }

  /** For logs: the consumer, its position and when it was recorded. */
  public String describe() {
    return "consumer " + consumer.id() + " (position " + consumer.position() + ", recorded " + consumer.advancedAt()
        + ")";
  }
}
