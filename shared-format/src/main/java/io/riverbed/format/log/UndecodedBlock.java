package io.riverbed.format.log;

import java.util.Map;
import java.util.Optional;

/**
 * A well-framed block of a kind Riverbed does not decode ({@link BlockType#HFILE_DATA_BLOCK},
 * {@link BlockType#PARQUET_DATA_BLOCK}, {@link BlockType#CDC_DATA_BLOCK}). The reader returns it
 * so that scans can apply timeline rules to it; a scan fails if it would have to merge its records.
 */
public record UndecodedBlock(BlockType type, Map<HeaderKey, String> header, BlockLocation span) implements LogBlock {
  public UndecodedBlock {
    header = Map.copyOf(header);
  }

  @Override
  public Optional<BlockLocation> location() {
    return Optional.of(span);
  }
}
