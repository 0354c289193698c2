package io.riverbed.format.log;

import io.riverbed.format.CorruptFileException;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * A delete block: content version 3, {@code int payloadLength}, Avro binary of a
 * {@code HoodieDeleteRecordList}. Built for writing with {@link #of}; blocks returned by the
 * reader decode their entries only in {@link #deleteRecords()}.
 */
public final class DeleteBlock implements LogBlock {

  private final Map<HeaderKey, String> header;
  private final List<DeleteRecord> deletesToWrite;
  private final BlockContent content;
  private final BlockLocation location;

  private DeleteBlock(Map<HeaderKey, String> header, List<DeleteRecord> deletesToWrite, BlockContent content,
      BlockLocation location) {
    this.header = header;
    this.deletesToWrite = deletesToWrite;
    this.content = content;
    this.location = location;
  }

  /**
   * A block to write: {@code deletes} by {@code instantTime}. Like Hudi, the header also carries
   * the table schema ({@code SCHEMA}).
   */
  public static DeleteBlock of(String instantTime, Schema tableSchema, List<DeleteRecord> deletes) {
    var header = new EnumMap<HeaderKey, String>(HeaderKey.class);
    header.put(HeaderKey.INSTANT_TIME, instantTime);
    header.put(HeaderKey.SCHEMA, tableSchema.toString());
    return new DeleteBlock(Map.copyOf(header), List.copyOf(deletes), null, null);
  }

  static DeleteBlock read(Map<HeaderKey, String> header, BlockContent content, BlockLocation location) {
    return new DeleteBlock(Map.copyOf(header), null, content, location);
  }

  @Override
  public BlockType type() {
    return BlockType.DELETE_BLOCK;
  }

  @Override
  public Map<HeaderKey, String> header() {
    return header;
  }

  @Override
  public Optional<BlockLocation> location() {
    return Optional.ofNullable(location);
  }

  /**
   * The delete entries, decoded from the file on each call for blocks that were read.
   *
   * @throws CorruptFileException if the content is not a version-3 delete list
   */
  public List<DeleteRecord> deleteRecords() {
    if (deletesToWrite != null) {
      return deletesToWrite;
    }
    try (DataInputStream in = content.open()) {
      int version = in.readInt();
      if (version != LogFormat.BLOCK_CONTENT_VERSION) {
        throw new CorruptFileException("Unsupported delete block content version " + version
            + " (only 3 is read): " + describe());
      }
      int length = in.readInt();
      if (length < 0 || length > content.length() - 8) {
        throw new CorruptFileException("Invalid delete payload length " + length + " in " + describe());
      }
      byte[] payload = new byte[length];
      in.readFully(payload);
      return List.copyOf(DeleteRecordCodec.decode(payload));
    } catch (IOException | RuntimeException e) {
      if (e instanceof CorruptFileException corrupt) {
        throw corrupt;
      }
      throw new CorruptFileException("Cannot decode delete records of " + describe(), e);
    }
  }

  @Override
  public String toString() {
    return "DeleteBlock{" + instantTime() + ", " + location().map(Object::toString).orElse("in memory") + "}";
  }
}
