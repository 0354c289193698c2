package io.riverbed.format.log;

import java.util.Map;
import java.util.Optional;

/**
 * Bytes that do not frame as a valid block (bad magic, trailing length mismatch, truncated tail,
 * inconsistent internal lengths). Produced by the reader only, never written.
 */
public record CorruptBlock(BlockLocation span) implements LogBlock {
  @Override
  public BlockType type() {
    return BlockType.CORRUPT_BLOCK;
  }

  @Override
  public Map<HeaderKey, String> header() {
    return Map.of();
  }

  @Override
  public Optional<BlockLocation> location() {
    return Optional.of(span);
  }
}
