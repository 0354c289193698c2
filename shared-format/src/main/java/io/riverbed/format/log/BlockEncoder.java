package io.riverbed.format.log;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.TableException;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Serializes blocks into one reusable byte buffer: the complete block, magic to trailing long.
 * Keeps a datum writer per schema and one binary encoder, so encoding allocates nothing per
 * record beyond what Avro itself needs. Not thread-safe.
 */
final class BlockEncoder {

  private final Buffer buffer = new Buffer();
  private final DataOutputStream out = new DataOutputStream(buffer);
  private final Map<Schema, GenericDatumWriter<GenericRecord>> writers = new IdentityHashMap<>();
  private final DeleteRecordCodec deleteCodec = new DeleteRecordCodec();
  private BinaryEncoder encoder;

  /** Encodes {@code block}; the bytes are valid until the next call. */
  Buffer encode(LogBlock block) {
    buffer.reset();
    try {
      LogFormat.writeMagic(out);
      out.writeLong(0L); // blockSize, patched below
      out.writeInt(LogFormat.LOG_FORMAT_VERSION);
      out.writeInt(block.type().ordinal());
      LogFormat.writeMap(out, block.header());
      int contentLengthAt = buffer.size();
      out.writeLong(0L); // contentLength, patched below
      int contentStart = buffer.size();
      writeContent(block);
      buffer.putLong(contentLengthAt, buffer.size() - contentStart);
      LogFormat.writeMap(out, Map.of()); // footer: always empty
      long blockSize = buffer.size() + 8L - LogFormat.FRAME_PREFIX;
      buffer.putLong(LogFormat.MAGIC_LENGTH, blockSize);
      out.writeLong(blockSize + LogFormat.MAGIC_LENGTH);
    } catch (IOException e) {
      throw new TableException("Cannot encode " + block.describe(), e);
    }
    return buffer;
  }

  /** Content bytes alone of an in-memory data block (used to decode it with another schema). */
  static byte[] encodeContentOf(AvroDataBlock block) {
    var encoder = new BlockEncoder();
    try {
      encoder.writeContent(block);
    } catch (IOException e) {
      throw new TableException("Cannot encode " + block.describe(), e);
    }
    return encoder.buffer.toByteArray();
  }

  private void writeContent(LogBlock block) throws IOException {
    if (block instanceof AvroDataBlock data) {
      writeRecords(data);
    } else if (block instanceof DeleteBlock delete) {
      writeDeletes(delete);
    } else if (!(block instanceof CommandBlock)) { // command blocks have empty content
      throw new IllegalArgumentException("Cannot write a " + block.type() + ": " + block.describe());
    }
  }

  private void writeRecords(AvroDataBlock block) throws IOException {
    List<byte[]> encoded = block.encodedRecordsToWrite();
    if (encoded != null) {
      out.writeInt(LogFormat.BLOCK_CONTENT_VERSION);
      out.writeInt(encoded.size());
      for (byte[] record : encoded) {
        out.writeInt(record.length);
        out.write(record);
      }
      return;
    }
    List<GenericRecord> records = block.recordsToWrite();
    if (records == null) {
      throw new IllegalArgumentException("Blocks read from a file cannot be rewritten: " + block.describe());
    }
    Schema schema = block.writerSchema();
    GenericDatumWriter<GenericRecord> writer = writers.computeIfAbsent(schema, GenericDatumWriter::new);
    out.writeInt(LogFormat.BLOCK_CONTENT_VERSION);
    out.writeInt(records.size());
    encoder = EncoderFactory.get().directBinaryEncoder(buffer, encoder);
    for (int i = 0; i < records.size(); i++) {
      GenericRecord record = records.get(i);
      if (record.getSchema() != schema && !record.getSchema().equals(schema)) {
        throw new InvalidRecordException("Record " + i + " of the block of instant " + block.instantTime()
            + " does not have the block schema");
      }
      int lengthAt = buffer.size();
      out.writeInt(0);
      try {
        writer.write(record, encoder);
      } catch (RuntimeException e) {
        throw new InvalidRecordException("Record " + i + " of the block of instant " + block.instantTime()
            + " cannot be encoded with the block schema: " + e);
      }
      buffer.putInt(lengthAt, buffer.size() - lengthAt - 4);
    }
  }

  private void writeDeletes(DeleteBlock block) throws IOException {
    out.writeInt(LogFormat.BLOCK_CONTENT_VERSION);
    int lengthAt = buffer.size();
    out.writeInt(0);
    deleteCodec.encode(block.deleteRecords(), buffer);
    buffer.putInt(lengthAt, buffer.size() - lengthAt - 4);
  }

  /** A growable byte array whose content can be patched in place. */
  static final class Buffer extends OutputStream {
    private byte[] bytes = new byte[1 << 12];
    private int size;

    @Override
    public void write(int b) {
      ensure(1);
      bytes[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, bytes, size, len);
      size += len;
    }

    int size() {
      return size;
    }

    byte[] array() {
      return bytes;
    }

    byte[] toByteArray() {
      return Arrays.copyOf(bytes, size);
    }

    void reset() {
      size = 0;
    }

    void putInt(int at, int value) {
      for (int i = 3; i >= 0; i--) {
        bytes[at + 3 - i] = (byte) (value >>> (8 * i));
      }
    }

    void putLong(int at, long value) {
      for (int i = 7; i >= 0; i--) {
        bytes[at + 7 - i] = (byte) (value >>> (8 * i));
      }
    }

    private void ensure(int extra) {
      if (size + extra > bytes.length) {
        long wanted = Math.max((long) bytes.length * 2, (long) size + extra);
        if (wanted > Integer.MAX_VALUE - 8) {
          throw new TableException("Log block larger than 2 GB");
        }
        bytes = Arrays.copyOf(bytes, (int) wanted);
      }
    }
  }
}
