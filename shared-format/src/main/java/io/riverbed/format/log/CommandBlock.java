package io.riverbed.format.log;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * A command block: empty content. The only command is rollback: {@code INSTANT_TIME} is the
 * rollback instant, {@code TARGET_INSTANT_TIME} the instant whose blocks are cancelled.
 */
public record CommandBlock(Map<HeaderKey, String> header, Optional<BlockLocation> location) implements LogBlock {

  public CommandBlock {
    header = Map.copyOf(header);
  }

  /** A rollback command block written by {@code rollbackInstant} cancelling {@code targetInstant}. */
  public static CommandBlock rollback(String rollbackInstant, String targetInstant) {
    var header = new EnumMap<HeaderKey, String>(HeaderKey.class);
    header.put(HeaderKey.INSTANT_TIME, rollbackInstant);
    header.put(HeaderKey.TARGET_INSTANT_TIME, targetInstant);
    header.put(HeaderKey.COMMAND_BLOCK_TYPE, LogFormat.ROLLBACK_COMMAND);
    return new CommandBlock(header, Optional.empty());
  }

  @Override
  public BlockType type() {
    return BlockType.COMMAND_BLOCK;
  }

  /** True if this is a rollback command (the only command Hudi defines). */
  public boolean isRollback() {
    return LogFormat.ROLLBACK_COMMAND.equals(header.get(HeaderKey.COMMAND_BLOCK_TYPE));
  }

  /** The rolled-back instant, or {@code null}. */
  public String targetInstantTime() {
    return header.get(HeaderKey.TARGET_INSTANT_TIME);
  }
}
