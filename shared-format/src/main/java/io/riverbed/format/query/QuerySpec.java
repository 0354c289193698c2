package io.riverbed.format.query;

import io.riverbed.format.TableException;
import io.riverbed.format.consumer.Consumer;
import io.riverbed.format.timeline.InstantTime;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a query asks of a table, with Hudi's option names: the query type, the time-travel
 * instant, the incremental range, what to do about incomplete instants inside it and whether a
 * range reaching before the active timeline (or files its commits wrote that were cleaned) falls
 * back to a full table scan ({@value #FALLBACK_FULL_TABLE_SCAN}); and, for an incremental read,
 * the registered consumer it reads for ({@value #CONSUMER_ID}, Paimon's name), whose stored
 * position is the begin instant when none is given ({@link QueryPlanner}).
 */
public record QuerySpec(QueryType type, Optional<String> asOfInstant, Optional<String> beginInstant,
    Optional<String> endInstant, HolesPolicy holesPolicy, boolean fallbackToFullTableScan,
    Optional<String> consumerId) {

  public static final String QUERY_TYPE = "hoodie.datasource.query.type";
  public static final String BEGIN_INSTANT = "hoodie.datasource.read.begin.instanttime";
  public static final String END_INSTANT = "hoodie.datasource.read.end.instanttime";
  public static final String AS_OF_INSTANT = "as.of.instant";
  public static final String HOLES_POLICY = "hoodie.read.timeline.holes.resolution.policy";
  public static final String FALLBACK_FULL_TABLE_SCAN = "hoodie.datasource.read.incr.fallback.fulltablescan.enable";
  public static final String CONSUMER_ID = "consumer-id";

  /** How an incremental query treats an incomplete instant older than a completed one in its range. */
  public enum HolesPolicy {
    /** Refuse the query (Hudi's default). */
    FAIL,
    /** Read only up to the instant before the first incomplete one. */
    BLOCK;

    static HolesPolicy fromOption(String value) {
      return Arrays.stream(values()).filter(p -> p.name().equalsIgnoreCase(value.trim())).findFirst()
          .orElseThrow(() -> new TableException(HOLES_POLICY + "='" + value + "' is not one of "
              + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "))));
    }
  }

  public QuerySpec {
    if (consumerId.isPresent()) {
      if (type != QueryType.INCREMENTAL) {
        throw new TableException(CONSUMER_ID + " is for incremental queries; set " + QUERY_TYPE + "=incremental");
      }
      try {
        Consumer.checkId(consumerId.get());
      } catch (IllegalArgumentException e) {
        throw new TableException(CONSUMER_ID + ": " + e.getMessage(), e);
      }
    }
    if (type == QueryType.INCREMENTAL && beginInstant.isEmpty() && consumerId.isEmpty()) {
      throw new TableException(BEGIN_INSTANT + " is required for an incremental query (or " + CONSUMER_ID
          + " of a registered consumer, which reads from its position)");
    }
    if (type == QueryType.INCREMENTAL && asOfInstant.isPresent()) {
      throw new TableException(AS_OF_INSTANT + " cannot be combined with an incremental query");
    }
  }

  public static QuerySpec snapshot() {
    return new QuerySpec(QueryType.SNAPSHOT, Optional.empty(), Optional.empty(), Optional.empty(), HolesPolicy.FAIL,
        false, Optional.empty());
  }

  public static QuerySpec readOptimized() {
    return new QuerySpec(QueryType.READ_OPTIMIZED, Optional.empty(), Optional.empty(), Optional.empty(), HolesPolicy.FAIL,
        false, Optional.empty());
  }

  public static QuerySpec asOf(String instant) {
    return new QuerySpec(QueryType.SNAPSHOT, Optional.of(InstantTime.parseQueryInstant(instant)),
        Optional.empty(), Optional.empty(), HolesPolicy.FAIL, false, Optional.empty());
  }

  /**
   * An incremental read of the writes in {@code (beginExclusive, endInclusive]} by requested time
   * ({@code endInclusive} null: the latest); on a table version 8 both are completion times and both
   * inclusive, as Hudi 1.0.2 takes them ({@link CompletionTimeRange}).
   */
  public static QuerySpec incremental(String beginExclusive, String endInclusive) {
    return new QuerySpec(QueryType.INCREMENTAL, Optional.empty(), Optional.of(beginExclusive),
        Optional.ofNullable(endInclusive), HolesPolicy.FAIL, false, Optional.empty());
  }

  /**
   * An incremental read for consumer {@code consumerId}: from {@code beginExclusive}, or from the
   * consumer's stored position when it is null, to {@code endInclusive} (null: the latest).
   */
  public static QuerySpec incrementalFor(String consumerId, String beginExclusive, String endInclusive) {
    return new QuerySpec(QueryType.INCREMENTAL, Optional.empty(), Optional.ofNullable(beginExclusive),
        Optional.ofNullable(endInclusive), HolesPolicy.FAIL, false, Optional.of(consumerId));
  }

  /** The same query from {@code beginExclusive}. */
  public QuerySpec withBeginInstant(String beginExclusive) {
    return new QuerySpec(type, asOfInstant, Optional.of(beginExclusive), endInstant, holesPolicy,
        fallbackToFullTableScan, consumerId);
  }

  /** The same query, falling back to a full table scan ({@value #FALLBACK_FULL_TABLE_SCAN}) or not. */
  public QuerySpec withFallbackToFullTableScan(boolean fallback) {
    return new QuerySpec(type, asOfInstant, beginInstant, endInstant, holesPolicy, fallback, consumerId);
  }

  /** Reads the spec from reader options keyed by Hudi's names. */
  public static QuerySpec fromOptions(Map<String, String> options) {
    QueryType type = Optional.ofNullable(options.get(QUERY_TYPE)).map(QueryType::fromOption).orElse(QueryType.SNAPSHOT);
    Optional<String> asOf = Optional.ofNullable(options.get(AS_OF_INSTANT)).map(InstantTime::parseQueryInstant);
    Optional<String> begin = Optional.ofNullable(options.get(BEGIN_INSTANT)).map(String::trim);
    Optional<String> end = Optional.ofNullable(options.get(END_INSTANT)).map(InstantTime::parseQueryInstant);
    HolesPolicy holes = Optional.ofNullable(options.get(HOLES_POLICY)).map(HolesPolicy::fromOption).orElse(HolesPolicy.FAIL);
    boolean fallback = Optional.ofNullable(options.get(FALLBACK_FULL_TABLE_SCAN)).map(QuerySpec::parseBoolean).orElse(false);
    Optional<String> consumer = Optional.ofNullable(options.get(CONSUMER_ID)).map(String::trim);
    return new QuerySpec(type, asOf, begin, end, holes, fallback, consumer);
  }

  private static boolean parseBoolean(String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new TableException(FALLBACK_FULL_TABLE_SCAN + "='" + value + "' is not true or false");
    };
  }
}
