package io.riverbed.format.table;

/** The two Hudi table types, named as {@code hoodie.table.type} stores them. */
public enum TableType {
  /** Every write rewrites base files; the timeline writes {@code commit}. */
  COPY_ON_WRITE,
  /** Writes append log files to file slices; the timeline writes {@code deltacommit}. */
  MERGE_ON_READ
}
