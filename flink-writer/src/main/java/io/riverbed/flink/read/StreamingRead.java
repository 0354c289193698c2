package io.riverbed.flink.read;

import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.format.TableException;
import io.riverbed.format.consumer.Consumer;
import io.riverbed.format.query.QueryType;
import io.riverbed.format.timeline.InstantTime;
import java.io.Serializable;
import java.time.Duration;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;

/**
 * What a streaming {@code SELECT} of a {@code hudi} table asks for, with the option names of Hudi's
 * Flink source: where the changelog starts, how often the timeline is looked at, whether compaction
 * commits are planned at all, and the consumer the read registers as.
 *
 * @param startCommit the first commit read (inclusive); {@value ReadQuery#EARLIEST}: the whole table
 *     first, then every later commit; null: only commits after the latest completed one
 * @param checkInterval time between two looks at the timeline
 * @param skipCompaction plan no reads for a range of compaction commits alone
 * @param consumer the consumer registered at each completed checkpoint; null for none
 */
public record StreamingRead(String startCommit, Duration checkInterval, boolean skipCompaction, String consumer)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The consumer the read registers as, if any. */
  public Optional<String> consumerId() {
    return Optional.ofNullable(consumer);
  }

  /** The streaming read the options ask for; null if they ask for a batch read. */
  public static StreamingRead fromOptions(Configuration conf) {
    if (!conf.get(HudiConnectorOptions.READ_STREAMING_ENABLED)) {
      conf.getOptional(HudiConnectorOptions.CONSUMER_ID).ifPresent(id -> {
        throw new TableException("option '" + HudiConnectorOptions.CONSUMER_ID.key() + "' is for streaming reads; set '"
            + HudiConnectorOptions.READ_STREAMING_ENABLED.key() + "' = 'true'");
      });
      return null;
    }
    String type = conf.get(HudiConnectorOptions.QUERY_TYPE);
    if (QueryType.fromOption(type) != QueryType.SNAPSHOT) {
      throw new TableException("option '" + HudiConnectorOptions.QUERY_TYPE.key() + "' = '" + type + "' cannot be read as "
          + "a stream; a streaming read ('" + HudiConnectorOptions.READ_STREAMING_ENABLED.key() + "' = 'true') emits "
          + "the changes of every commit");
    }
    if (conf.getOptional(HudiConnectorOptions.READ_END_COMMIT).isPresent()) {
      throw new TableException("option '" + HudiConnectorOptions.READ_END_COMMIT.key() + "' ends a read; a streaming read "
          + "('" + HudiConnectorOptions.READ_STREAMING_ENABLED.key() + "' = 'true') never ends");
    }
    String start = conf.getOptional(HudiConnectorOptions.READ_START_COMMIT).map(String::trim).map(s -> {
      if (s.equalsIgnoreCase(ReadQuery.EARLIEST)) {
        return ReadQuery.EARLIEST;
      }
      try {
        return InstantTime.parseQueryInstant(s);
      } catch (RuntimeException e) {
        throw new TableException("option '" + HudiConnectorOptions.READ_START_COMMIT.key() + "' = '" + s
            + "' is not an instant (yyyyMMddHHmmss[SSS]) nor 'earliest'", e);
      }
    }).orElse(null);
    int seconds = conf.get(HudiConnectorOptions.READ_STREAMING_CHECK_INTERVAL);
    if (seconds < 1) {
      throw new TableException("option '" + HudiConnectorOptions.READ_STREAMING_CHECK_INTERVAL.key()
          + "' must be at least 1 (seconds), got " + seconds);
    }
    Optional<String> consumer = conf.getOptional(HudiConnectorOptions.CONSUMER_ID).map(String::trim);
    consumer.ifPresent(id -> {
      try {
        Consumer.checkId(id);
      } catch (IllegalArgumentException e) {
        throw new TableException("option '" + HudiConnectorOptions.CONSUMER_ID.key() + "': " + e.getMessage(), e);
      }
    });
    return new StreamingRead(start, Duration.ofSeconds(seconds),
        conf.get(HudiConnectorOptions.READ_STREAMING_SKIP_COMPACTION), consumer.orElse(null));
  }
}
