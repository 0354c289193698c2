package io.riverbed.it.scenario;

import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A table written by Hudi plus the expected model after each of its completed write instants
 * (commit, deltacommit, replacecommit; a compaction commit repeats the state before it).
 */
public final class ScenarioTable {

  /**
   * The table content expected once {@code instant} completed.
   *
   * @param operation what the scenario did ({@code bulk_insert}, {@code upsert}, ...,
   *     {@code compaction} for a compaction commit)
   */
  public record Commit(TimelineInstant instant, String operation, Map<String, ExpectedTable.Entry> state) {
    public String time() {
      return instant.time();
    }
  }

  private static final StructType MODEL_SCHEMA = new StructType()
      .add("_hoodie_commit_time", DataTypes.StringType)
      .add("_hoodie_record_key", DataTypes.StringType)
      .add("_hoodie_partition_path", DataTypes.StringType);

  private final Path path;
  private final TableSpec spec;
  private final List<Commit> commits;
  private final List<Map.Entry<String, ExpectedTable.Entry>> writtenVersions;

  public ScenarioTable(Path path, TableSpec spec, List<Commit> commits,
      List<Map.Entry<String, ExpectedTable.Entry>> writtenVersions) {
    this.path = path;
    this.spec = spec;
    this.commits = List.copyOf(commits);
    this.writtenVersions = List.copyOf(writtenVersions);
  }

  public Path path() {
    return path;
  }

  public TableSpec spec() {
    return spec;
  }

  public String name() {
    return spec.name();
  }

  public List<Commit> commits() {
    return commits;
  }

  /** The commits' instant times, oldest first. */
  public List<String> commitTimes() {
    return commits.stream().map(Commit::time).toList();
  }

  public Commit latest() {
    return commits.get(commits.size() - 1);
  }

  public Commit commit(String operation) {
    return commits.stream().filter(c -> c.operation().equals(operation)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(name() + " has no " + operation + " commit"));
  }

  /** Expected snapshot rows (meta columns except seqno and file name) after the latest commit. */
  public Rows expectedSnapshot() {
    return expectedRows(latest().state());
  }

  /** Expected rows of a time-travel query as of {@code instant}: the last commit at or before it. */
  public Rows expectedAsOf(String instant) {
    Commit last = null;
    for (Commit c : commits) {
      if (c.time().compareTo(instant) <= 0) {
        last = c;
      }
    }
    return last == null ? Rows.ofJsonLines(List.of()) : expectedRows(last.state());
  }

  /**
   * Expected rows of an incremental query over (begin, end]: the state as of {@code end} restricted
   * to records whose current version was written in the range.
   */
  public Rows expectedIncremental(String beginExclusive, String endInclusive) {
    Commit last = null;
    for (Commit c : commits) {
      if (c.time().compareTo(endInclusive) <= 0) {
        last = c;
      }
    }
    if (last == null) {
      return Rows.ofJsonLines(List.of());
    }
    var inRange = last.state().entrySet().stream()
        .filter(e -> e.getValue().commitTime().compareTo(beginExclusive) > 0
            && e.getValue().commitTime().compareTo(endInclusive) <= 0)
        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    return expectedRows(inRange);
  }

  /**
   * Every record version written in (begin, end], including versions that lost to a stored record
   * with a larger ordering value, as rows (a key may appear several times).
   */
  public Rows versionsWrittenIn(String beginExclusive, String endInclusive) {
    return rowsOf(writtenVersions.stream().filter(v -> v.getValue().commitTime().compareTo(beginExclusive) > 0
        && v.getValue().commitTime().compareTo(endInclusive) <= 0).toList());
  }

  /** A model state as canonical rows: data columns plus commit time, record key, partition path. */
  public Rows expectedRows(Map<String, ExpectedTable.Entry> state) {
    return rowsOf(state.entrySet());
  }

  private Rows rowsOf(java.util.Collection<? extends Map.Entry<String, ExpectedTable.Entry>> state) {
    var schema = MODEL_SCHEMA;
    for (var f : Trip.SCHEMA.fields()) {
      schema = schema.add(f);
    }
    var rows = new ArrayList<Row>(state.size());
    for (var e : state) {
      Trip t = e.getValue().trip();
      Row data = t.toRow();
      Object[] values = new Object[3 + data.size()];
      values[0] = e.getValue().commitTime();
      values[1] = e.getKey();
      values[2] = t.partitionPath(spec.hiveStylePartitioning());
      for (int i = 0; i < data.size(); i++) {
        values[3 + i] = data.get(i);
      }
      rows.add(RowFactory.create(values));
    }
    return SparkOracle.canonicalRows(SparkOracle.spark().createDataFrame(rows, schema));
  }

  @Override
  public String toString() {
    return name() + " at " + path;
  }
}
