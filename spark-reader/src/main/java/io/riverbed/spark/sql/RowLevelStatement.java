package io.riverbed.spark.sql;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One {@code UPDATE}, {@code DELETE FROM} or {@code MERGE INTO} on a Hudi table, as the changes it
 * makes: rows of the table's data columns, each an upsert of its key or, where {@link #deleteFlag}
 * is true, a delete of it. The changes are written in one instant of {@link #operation}.
 */
public interface RowLevelStatement {
  /** The table the statement changes. */
  StatementTarget target();

  /** Hudi's write operation the instant records ({@code upsert}, {@code delete}). */
  default String operation() {
    return "upsert";
  }

  /** The boolean column of {@link #changes} that marks a delete, or null when the operation decides. */
  default String deleteFlag() {
    return null;
  }

  /**
   * The changes, computed lazily by Spark when the write runs.
   *
   * @throws RefusedStatementException when the statement is one Riverbed does not run, before anything is written
   */
  Dataset<Row> changes(SparkSession spark);
}
