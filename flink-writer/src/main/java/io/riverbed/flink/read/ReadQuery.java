package io.riverbed.flink.read;

import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.format.TableException;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.QueryType;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.Timeline;
import java.io.Serializable;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;

/**
 * What a batch {@code SELECT} of a {@code hudi} table asks for, with the option names of Hudi's
 * Flink source: the query type, and the commits {@code read.start-commit} to
 * {@code read.end-commit}, both inclusive as in Hudi's Flink reader. On a snapshot or
 * read-optimized query {@code read.end-commit} alone is time travel.
 *
 * @param type the query type
 * @param startCommit the first commit an incremental query reads; {@value #EARLIEST} for all; null for other queries
 * @param endCommit the last commit read; for snapshot and read-optimized queries the instant read as of; null: the latest
 */
public record ReadQuery(QueryType type, String startCommit, String endCommit) implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final String EARLIEST = "earliest";

  /** The query the connector options ask for; unknown or contradictory settings fail naming the option. */
  public static ReadQuery fromOptions(Configuration conf) {
    QueryType type = QueryType.fromOption(conf.get(HudiConnectorOptions.QUERY_TYPE));
    Optional<String> start = conf.getOptional(HudiConnectorOptions.READ_START_COMMIT).map(String::trim)
        .map(s -> s.equalsIgnoreCase(EARLIEST) ? EARLIEST : instant(HudiConnectorOptions.READ_START_COMMIT.key(), s));
    Optional<String> end = conf.getOptional(HudiConnectorOptions.READ_END_COMMIT).map(String::trim)
        .map(s -> instant(HudiConnectorOptions.READ_END_COMMIT.key(), s));
    if (type == QueryType.INCREMENTAL && start.isEmpty()) {
      throw new TableException("option '" + HudiConnectorOptions.READ_START_COMMIT.key() + "' is required for "
          + HudiConnectorOptions.QUERY_TYPE.key() + " = 'incremental' (a commit instant, or 'earliest')");
    }
    if (type != QueryType.INCREMENTAL && start.isPresent()) {
      throw new TableException("option '" + HudiConnectorOptions.READ_START_COMMIT.key() + "' is for "
          + HudiConnectorOptions.QUERY_TYPE.key() + " = 'incremental', not '" + type.optionValue()
          + "'; use '" + HudiConnectorOptions.READ_END_COMMIT.key() + "' alone to read the table as of an instant");
    }
    if (start.isPresent() && end.isPresent() && !start.get().equals(EARLIEST) && start.get().compareTo(end.get()) > 0) {
      throw new TableException("option '" + HudiConnectorOptions.READ_START_COMMIT.key() + "' = '" + start.get()
          + "' is after '" + HudiConnectorOptions.READ_END_COMMIT.key() + "' = '" + end.get() + "'");
    }
    return new ReadQuery(type, start.orElse(null), end.orElse(null));
  }

  private static String instant(String option, String value) {
    try {
      return InstantTime.parseQueryInstant(value);
    } catch (RuntimeException e) {
      throw new TableException("option '" + option + "' = '" + value + "' is not an instant (yyyyMMddHHmmss[SSS])", e);
    }
  }

  /**
   * The core's query over {@code activeTimeline}. The inclusive start commit becomes the core's
   * exclusive begin: the latest instant of the timeline before it (none: the start of time), so
   * that exactly the commits from the start commit on fall in the range.
   */
  public QuerySpec spec(Timeline activeTimeline) {
    Optional<String> endCommit = Optional.ofNullable(this.endCommit);
    return switch (type) {
      case SNAPSHOT -> endCommit.map(QuerySpec::asOf).orElseGet(QuerySpec::snapshot);
      case READ_OPTIMIZED -> endCommit.map(e -> new QuerySpec(QueryType.READ_OPTIMIZED, Optional.of(e), Optional.empty(),
          Optional.empty(), QuerySpec.HolesPolicy.FAIL, false, Optional.empty())).orElseGet(QuerySpec::readOptimized);
      case INCREMENTAL -> QuerySpec.incremental(exclusiveBegin(activeTimeline), this.endCommit);
    };
  }

  private String exclusiveBegin(Timeline activeTimeline) {
    return exclusiveBegin(activeTimeline, startCommit);
  }

  /**
   * The core's exclusive begin for the inclusive start commit {@code start}: the latest instant of
   * the timeline before it (none: the start of time), or the start of time for {@value #EARLIEST}.
   */
  static String exclusiveBegin(Timeline activeTimeline, String start) {
    if (start.equals(EARLIEST)) {
      return InstantTime.INIT;
    }
    return activeTimeline.instants().stream().map(Instant::time).filter(t -> t.compareTo(start) < 0)
        .reduce((a, b) -> b.compareTo(a) > 0 ? b : a).orElse(InstantTime.INIT);
  }
}
