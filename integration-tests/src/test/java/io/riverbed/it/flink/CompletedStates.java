package io.riverbed.it.flink;

import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * What a query must answer as of a completed instant of a table no longer written, read by Apache
 * Hudi 0.15's Spark reader with time travel (the oracle), each state read once and cached. Rows
 * come without the layout-dependent meta columns, as {@link ReaderLoop} keeps its answers.
 */
final class CompletedStates {
  private final Path table;
  private final Map<String, Rows> snapshots = new HashMap<>();
  private final Map<String, Rows> readOptimized = new HashMap<>();
  private int reads;

  CompletedStates(Path table) {
    this.table = table;
  }

  /** The table as of {@code instant}. */
  Rows snapshot(String instant) {
    return snapshots.computeIfAbsent(instant, i -> read(Map.of("hoodie.datasource.query.type", "snapshot",
        "as.of.instant", i)));
  }

  /** The base files as of the compaction {@code instant}; before any compaction (empty) nothing. */
  Rows readOptimized(Optional<String> compaction) {
    return compaction.map(c -> readOptimized.computeIfAbsent(c, i -> read(Map.of(
        "hoodie.datasource.query.type", "read_optimized", "as.of.instant", i)))).orElse(Rows.ofJsonLines(java.util.List.of()));
  }

  /** The changes of {@code (begin, end]}: the rows of the table as of {@code end} committed after {@code begin}. */
  Rows incremental(String begin, String end) {
    return snapshot(end).filter(r -> r.get("_hoodie_commit_time").asText().compareTo(begin) > 0);
  }

  /** The expected answer of {@code query} (snapshot or incremental) as of {@code instant}. */
  Rows answer(Query query, String instant) {
    return switch (query.kind()) {
      case SNAPSHOT -> snapshot(instant);
      case INCREMENTAL -> incremental(query.beginExclusive(), instant);
      default -> throw new IllegalArgumentException("no state by a write instant for " + query);
    };
  }

  /** How many times Hudi was asked. */
  int reads() {
    return reads;
  }

  private Rows read(Map<String, String> options) {
    reads++;
    Dataset<Row> frame = SparkOracle.spark().read().format(SparkOracle.HUDI_SOURCE).options(options)
        .load(table.toUri().toString());
    return SparkOracle.canonicalRows(frame.drop(Rows.PHYSICAL_META_COLUMNS.toArray(String[]::new)));
  }
}
