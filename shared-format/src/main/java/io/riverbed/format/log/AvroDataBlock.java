package io.riverbed.format.log;

import io.riverbed.format.CorruptFileException;
import io.riverbed.format.record.AvroBinaryCheck;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * An Avro data block: content version 3, {@code int count}, then per record {@code int length}
 * and the record's Avro binary encoding with the {@code SCHEMA} header as writer schema.
 *
 * <p>Built for writing with {@link #of}; returned by the reader with its content still on disk,
 * decoded only by {@link #forEachRecord} / {@link #records}.
 */
public final class AvroDataBlock implements LogBlock {

  private final Map<HeaderKey, String> header;
  private final List<GenericRecord> recordsToWrite;
  private final List<byte[]> encodedRecordsToWrite;
  private final Schema schemaToWrite;
  private final BlockContent content;
  private final BlockLocation location;

  private AvroDataBlock(Map<HeaderKey, String> header, Schema schemaToWrite, List<GenericRecord> recordsToWrite,
      List<byte[]> encodedRecordsToWrite, BlockContent content, BlockLocation location) {
    this.header = header;
    this.schemaToWrite = schemaToWrite;
    this.recordsToWrite = recordsToWrite;
    this.encodedRecordsToWrite = encodedRecordsToWrite;
    this.content = content;
    this.location = location;
  }

  /**
   * A block to write: {@code records} (all of {@code schema}, which must include the meta fields)
   * written by {@code instantTime}. Headers are {@code INSTANT_TIME} and {@code SCHEMA}.
   */
  public static AvroDataBlock of(String instantTime, Schema schema, List<? extends GenericRecord> records) {
    var header = new EnumMap<HeaderKey, String>(HeaderKey.class);
    header.put(HeaderKey.INSTANT_TIME, instantTime);
    header.put(HeaderKey.SCHEMA, schema.toString());
    return new AvroDataBlock(Map.copyOf(header), schema, List.copyOf(records), null, null, null);
  }

  /**
   * A block to write whose records are already encoded: each element of {@code encodedRecords} is
   * one record's Avro binary encoding in {@code schema} (which must include the meta fields), the
   * bytes Avro's {@code GenericDatumWriter} writes for it. The block copies them as they are.
   * Headers as {@link #of}.
   */
  public static AvroDataBlock ofEncoded(String instantTime, Schema schema, List<byte[]> encodedRecords) {
    var header = new EnumMap<HeaderKey, String>(HeaderKey.class);
    header.put(HeaderKey.INSTANT_TIME, instantTime);
    header.put(HeaderKey.SCHEMA, schema.toString());
    return new AvroDataBlock(Map.copyOf(header), schema, null, List.copyOf(encodedRecords), null, null);
  }

  /**
   * A block whose only header is {@code SCHEMA}: what Hudi's archiver writes into archived
   * timeline files, whose records belong to many instants.
   */
  public static AvroDataBlock withSchemaOnly(Schema schema, List<? extends GenericRecord> records) {
    var header = new EnumMap<HeaderKey, String>(HeaderKey.class);
    header.put(HeaderKey.SCHEMA, schema.toString());
    return new AvroDataBlock(Map.copyOf(header), schema, List.copyOf(records), null, null, null);
  }

  static AvroDataBlock read(Map<HeaderKey, String> header, BlockContent content, BlockLocation location) {
    return new AvroDataBlock(Map.copyOf(header), null, null, null, content, location);
  }

  @Override
  public BlockType type() {
    return BlockType.AVRO_DATA_BLOCK;
  }

  @Override
  public Map<HeaderKey, String> header() {
    return header;
  }

  @Override
  public Optional<BlockLocation> location() {
    return Optional.ofNullable(location);
  }

  /** The writer schema: the one given to {@link #of}, or parsed from the {@code SCHEMA} header. */
  public Schema writerSchema() {
    if (schemaToWrite != null) {
      return schemaToWrite;
    }
    String json = header.get(HeaderKey.SCHEMA);
    if (json == null) {
      throw new CorruptFileException("Avro data block without SCHEMA header: " + describe());
    }
    try {
      return new Schema.Parser().setValidateDefaults(false).parse(json);
    } catch (RuntimeException e) {
      throw new CorruptFileException("Unparseable SCHEMA header of " + describe(), e);
    }
  }

  /** Records given to {@link #of}; {@code null} for blocks read from a file or built by {@link #ofEncoded}. */
  List<GenericRecord> recordsToWrite() {
    return recordsToWrite;
  }

  /** Encoded records given to {@link #ofEncoded}; {@code null} otherwise. */
  List<byte[]> encodedRecordsToWrite() {
    return encodedRecordsToWrite;
  }

  /**
   * Decodes the records with Avro schema resolution from the writer schema to {@code readerSchema}
   * and hands each to {@code action}, streaming from the file. Each record is a fresh object.
   *
   * @throws CorruptFileException if the content does not decode
   */
  public void forEachRecord(Schema readerSchema, Consumer<? super GenericRecord> action) {
    if (recordsToWrite != null && readerSchema.equals(schemaToWrite)) {
      recordsToWrite.forEach(action);
      return;
    }
    BlockContent source = content != null ? content : new BlockContent.InMemory(BlockEncoder.encodeContentOf(this));
    Schema writer = writerSchema();
    var datumReader = new GenericDatumReader<GenericRecord>(writer, readerSchema);
    try (DataInputStream in = source.open()) {
      long remaining = source.length() - 8;
      int version = in.readInt();
      int count = in.readInt();
      if (version != LogFormat.BLOCK_CONTENT_VERSION) {
        throw new CorruptFileException("Unsupported Avro data block content version " + version + ": " + describe());
      }
      if (count < 0 || remaining < 4L * count) {
        throw new CorruptFileException("Invalid record count " + count + " in " + describe());
      }
      byte[] buffer = new byte[256];
      BinaryDecoder decoder = null;
      for (int i = 0; i < count; i++) {
        int length = in.readInt();
        remaining -= 4;
        if (length < 0 || length > remaining) {
          throw new CorruptFileException("Record " + i + " has invalid length " + length + " in " + describe());
        }
        if (buffer.length < length) {
          buffer = new byte[Math.max(length, buffer.length * 2)];
        }
        in.readFully(buffer, 0, length);
        remaining -= length;
        decoder = DecoderFactory.get().binaryDecoder(buffer, 0, length, decoder);
        GenericRecord record;
        try {
          AvroBinaryCheck.check(writer, buffer, 0, length);
          record = datumReader.read(null, decoder);
        } catch (IOException | RuntimeException e) {
          throw new CorruptFileException("Cannot decode record " + i + " of " + describe(), e);
        }
        action.accept(record);
      }
    } catch (IOException e) {
      throw new CorruptFileException("Cannot read records of " + describe(), e);
    }
  }

  /** All records, decoded as by {@link #forEachRecord}. */
  public List<GenericRecord> records(Schema readerSchema) {
    var result = new ArrayList<GenericRecord>();
    forEachRecord(readerSchema, result::add);
    return result;
  }

  @Override
  public String toString() {
    return "AvroDataBlock{" + instantTime() + ", " + location().map(Object::toString).orElse("in memory") + "}";
  }
}
