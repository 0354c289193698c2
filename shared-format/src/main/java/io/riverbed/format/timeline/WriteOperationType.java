package io.riverbed.format.timeline;

import java.util.Arrays;
import java.util.Optional;

/**
 * Hudi's {@code WriteOperationType}: the enum name is what commit metadata stores in
 * {@code operationType}; {@link #value()} is the lower-case form users pass as an option.
 */
public enum WriteOperationType {
  INSERT("insert"),
  INSERT_PREPPED("insert_prepped"),
  UPSERT("upsert"),
  UPSERT_PREPPED("upsert_prepped"),
  BULK_INSERT("bulk_insert"),
  BULK_INSERT_PREPPED("bulk_insert_prepped"),
  DELETE("delete"),
  DELETE_PREPPED("delete_prepped"),
  BOOTSTRAP("bootstrap"),
  INSERT_OVERWRITE("insert_overwrite"),
  CLUSTER("cluster"),
  DELETE_PARTITION("delete_partition"),
  INSERT_OVERWRITE_TABLE("insert_overwrite_table"),
  COMPACT("compact"),
  INDEX("index"),
  ALTER_SCHEMA("alter_schema"),
  LOG_COMPACT("logcompact"),
  UNKNOWN("unknown");

  private final String value;

  WriteOperationType(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  /**
   * False for operations that rewrite data without changing the table schema (clustering,
   * compaction, indexing, log compaction); schema resolution skips their commits.
   */
  public boolean canUpdateSchema() {
    return switch (this) {
      case CLUSTER, COMPACT, INDEX, LOG_COMPACT -> false;
      default -> true;
    };
  }

  /** True for the operations written as {@code replacecommit}. */
  public boolean isReplace() {
    return switch (this) {
      case INSERT_OVERWRITE, INSERT_OVERWRITE_TABLE, CLUSTER, DELETE_PARTITION -> true;
      default -> false;
    };
  }

  /** The operation for a user-facing value such as {@code bulk_insert}, case-insensitive. */
  public static Optional<WriteOperationType> fromValue(String value) {
    return Arrays.stream(values()).filter(t -> t.value.equalsIgnoreCase(value)).findFirst();
  }
}
