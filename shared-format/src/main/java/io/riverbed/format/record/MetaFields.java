package io.riverbed.format.record;

import java.util.List;

/**
 * The five meta columns every Hudi record carries first, in this order, plus the optional
 * operation column and the soft-delete flag users may add.
 */
public final class MetaFields {
  public static final String COMMIT_TIME = "_hoodie_commit_time";
  public static final String COMMIT_SEQNO = "_hoodie_commit_seqno";
  public static final String RECORD_KEY = "_hoodie_record_key";
  public static final String PARTITION_PATH = "_hoodie_partition_path";
  public static final String FILE_NAME = "_hoodie_file_name";

  /** Optional sixth meta column ({@code I}, {@code -U}, {@code U}, {@code D}); {@code D} is a delete. */
  public static final String OPERATION = "_hoodie_operation";

  /** User column: {@code true} marks the record as deleted (soft delete in the payload). */
  public static final String IS_DELETED = "_hoodie_is_deleted";

  /** The five meta columns in storage order. */
  public static final List<String> ALL = List.of(COMMIT_TIME, COMMIT_SEQNO, RECORD_KEY, PARTITION_PATH, FILE_NAME);

  private MetaFields() {}

  public static boolean isMetaField(String name) {
    return ALL.contains(name) || OPERATION.equals(name);
  }
}
