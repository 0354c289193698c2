package io.riverbed.format.log;

import java.util.Map;
import java.util.Optional;

/**
 * One block of a log file. Blocks built for writing have no {@link #location()}; blocks returned
 * by {@link LogFileReader} do, and decode their content only when asked.
 */
public sealed interface LogBlock permits AvroDataBlock, DeleteBlock, CommandBlock, CorruptBlock, UndecodedBlock {

  BlockType type();

  /** Header entries with known keys (unmodifiable); empty for corrupt blocks. */
  Map<HeaderKey, String> header();

  /** Where this block was read from; empty for blocks built in memory. */
  Optional<BlockLocation> location();

  /** The {@code INSTANT_TIME} header, or {@code null} (corrupt blocks). */
  default String instantTime() {
    return header().get(HeaderKey.INSTANT_TIME);
  }

  /** Human-readable position for error messages. */
  default String describe() {
    return type() + location().map(l -> " in " + l).orElse(" (in memory)");
  }
}
