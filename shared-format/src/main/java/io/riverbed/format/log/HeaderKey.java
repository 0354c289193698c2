package io.riverbed.format.log;

/**
 * Block header keys ({@code HoodieLogBlock.HeaderMetadataType} of Hudi 0.15, and the two Hudi 1.x
 * added); the ordinal is the on-disk key. Riverbed writes only the first four. The reader skips
 * ordinals it does not know.
 */
public enum HeaderKey {
  /** The instant that wrote the block; for a command block, the rollback instant. */
  INSTANT_TIME,
  /** The instant a rollback command block rolls back. */
  TARGET_INSTANT_TIME,
  /** Avro writer schema JSON, with meta fields. */
  SCHEMA,
  /** {@code "0"} = rollback, the only command. */
  COMMAND_BLOCK_TYPE,
  /** Instants merged by log compaction; read, never written. */
  COMPACTED_BLOCK_TIMES,
  /** 1.x record positions; read, never written. */
  RECORD_POSITIONS,
  /** Spark 0.14 {@code "<attempt>,<sequence>"}; read, never written. */
  BLOCK_IDENTIFIER,
  /** 1.x: {@code "true"} when the block holds partial updates (some columns only); such blocks are refused. */
  IS_PARTIAL,
  /** 1.x: the base file instant the {@link #RECORD_POSITIONS} refer to; read, never written. */
  BASE_FILE_INSTANT_TIME_OF_RECORD_POSITIONS;

  private static final HeaderKey[] VALUES = values();

  /** The key for an on-disk ordinal, or {@code null} if the ordinal is unknown. */
  static HeaderKey fromOrdinal(int ordinal) {
    return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
  }
}
