package io.riverbed.it.oracle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One read of a Hudi table through a Spark datasource, by Hudi's option names.
 *
 * @param kind query kind
 * @param beginExclusive incremental only: begin instant, exclusive (may be {@code "000"})
 * @param endInclusive incremental only: end instant, inclusive, or null for "latest"
 * @param asOfInstant time travel only: the {@code as.of.instant} value
 */
public record Query(QueryKind kind, String beginExclusive, String endInclusive, String asOfInstant) {

  public Query {
    Objects.requireNonNull(kind, "kind");
    if (kind == QueryKind.INCREMENTAL && beginExclusive == null) {
      throw new IllegalArgumentException("incremental query needs a begin instant");
    }
    if (kind == QueryKind.TIME_TRAVEL && asOfInstant == null) {
      throw new IllegalArgumentException("time travel query needs an instant");
    }
  }

  public static Query snapshot() {
    return new Query(QueryKind.SNAPSHOT, null, null, null);
  }

  public static Query readOptimized() {
    return new Query(QueryKind.READ_OPTIMIZED, null, null, null);
  }

  /** Instants in (beginExclusive, latest]. */
  public static Query incremental(String beginExclusive) {
    return new Query(QueryKind.INCREMENTAL, beginExclusive, null, null);
  }

  /** Instants in (beginExclusive, endInclusive]. */
  public static Query incremental(String beginExclusive, String endInclusive) {
    return new Query(QueryKind.INCREMENTAL, beginExclusive, endInclusive, null);
  }

  public static Query asOf(String instant) {
    return new Query(QueryKind.TIME_TRAVEL, null, null, instant);
  }

  /**
   * Every query the cross-engine tests run on a table with these commits (oldest first): snapshot,
   * read-optimized, time travel to each commit, incremental from the start, between consecutive
   * commits and from each commit on.
   */
  public static List<Query> everyKind(List<String> commitTimes) {
    List<Query> out = new ArrayList<>(List.of(snapshot(), readOptimized()));
    for (String time : commitTimes) {
      out.add(asOf(time));
    }
    out.add(incremental("000"));
    for (int i = 0; i + 1 < commitTimes.size(); i++) {
      out.add(incremental(commitTimes.get(i), commitTimes.get(i + 1)));
      out.add(incremental(commitTimes.get(i)));
    }
    return out;
  }

  /** The Hudi datasource read options for this query. */
  public Map<String, String> hudiOptions() {
    var options = new LinkedHashMap<String, String>();
    switch (kind) {
      case SNAPSHOT -> options.put("hoodie.datasource.query.type", "snapshot");
      case READ_OPTIMIZED -> options.put("hoodie.datasource.query.type", "read_optimized");
      case INCREMENTAL -> {
        options.put("hoodie.datasource.query.type", "incremental");
        options.put("hoodie.datasource.read.begin.instanttime", beginExclusive);
        if (endInclusive != null) {
          options.put("hoodie.datasource.read.end.instanttime", endInclusive);
        }
      }
      case TIME_TRAVEL -> {
        options.put("hoodie.datasource.query.type", "snapshot");
        options.put("as.of.instant", asOfInstant);
      }
    }
    return options;
  }

  /** Command-line form, parsed back by {@link #parse(String)} (used by the forked oracle). */
  public String encode() {
    return switch (kind) {
      case SNAPSHOT -> "snapshot";
      case READ_OPTIMIZED -> "read_optimized";
      case INCREMENTAL -> "incremental:" + beginExclusive + ":" + (endInclusive == null ? "" : endInclusive);
      case TIME_TRAVEL -> "as_of:" + asOfInstant;
    };
  }

  public static Query parse(String text) {
    if (text.startsWith("as_of:")) {
      return asOf(text.substring("as_of:".length())); // may itself hold colons (yyyy-MM-dd HH:mm:ss)
    }
    var parts = text.split(":", -1);
    return switch (parts[0]) {
      case "snapshot" -> snapshot();
      case "read_optimized" -> readOptimized();
      case "incremental" -> parts[2].isEmpty() ? incremental(parts[1]) : incremental(parts[1], parts[2]);
      default -> throw new IllegalArgumentException("unknown query: " + text);
    };
  }

  @Override
  public String toString() {
    return encode();
  }
}
