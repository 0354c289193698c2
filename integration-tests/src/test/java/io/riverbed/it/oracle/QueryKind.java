package io.riverbed.it.oracle;

/** The query kinds of Hudi's Spark datasource (HUDI_TABLE_V6.md §6). */
public enum QueryKind {
  SNAPSHOT,
  READ_OPTIMIZED,
  INCREMENTAL,
  TIME_TRAVEL
}
