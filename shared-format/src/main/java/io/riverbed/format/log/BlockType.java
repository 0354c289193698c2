package io.riverbed.format.log;

/**
 * Log block types ({@code HoodieLogBlock.HoodieLogBlockType}); the ordinal is what is written on
 * disk as the block type int. Do not reorder.
 */
public enum BlockType {
  COMMAND_BLOCK,
  DELETE_BLOCK,
  /** Never written; the reader's placeholder for bytes that do not frame as a block. */
  CORRUPT_BLOCK,
  AVRO_DATA_BLOCK,
  /** Metadata-table blocks; framed but not decoded by Riverbed. */
  HFILE_DATA_BLOCK,
  /** Framed but not decoded by Riverbed yet. */
  PARQUET_DATA_BLOCK,
  /** CDC log files only; framed but not decoded by Riverbed. */
  CDC_DATA_BLOCK;

  private static final BlockType[] VALUES = values();

  /** The type for an on-disk ordinal, or {@code null} if the ordinal is unknown. */
  static BlockType fromOrdinal(int ordinal) {
    return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
  }
}
