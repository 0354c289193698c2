package io.riverbed.format.write.batch;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.record.OrderingValueCodec;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.write.WriteRecord;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * A {@link WriteRecord} in bytes, so that it travels between an engine's tasks (a Spark shuffle):
 * key, partition path, the ordering value ({@link OrderingValueCodec}), the record as Avro binary
 * in the write schema (null for a delete), and the change's position in the batch, which breaks
 * ordering ties as the later change wins ({@link #precombine}). A class, not a record: Spark's Kryo
 * serializer, which many sessions use for shuffles, cannot build records.
 */
public final class EncodedChange implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String recordKey;
  private final String partitionPath;
  private final byte[] ordering;
  private final byte[] data;
  private final long sequence;

  /**
   * @param ordering the ordering value, {@link OrderingValueCodec#encode encoded}
   * @param data the record as Avro binary, null for a delete
   * @param sequence the change's position in the batch
   */
  public EncodedChange(String recordKey, String partitionPath, byte[] ordering, byte[] data, long sequence) {
    this.recordKey = recordKey;
    this.partitionPath = partitionPath;
    this.ordering = ordering;
    this.data = data;
    this.sequence = sequence;
  }

  public String recordKey() {
    return recordKey;
  }

  public String partitionPath() {
    return partitionPath;
  }

  public boolean isDelete() {
    return data == null;
  }

  /** Bytes the change holds, for memory bounds. */
  public long size() {
    return recordKey.length() + partitionPath.length() + ordering.length + (data == null ? 0 : data.length) + 16L;
  }

  /**
   * Writes the change in its binary form, which {@link #readFrom} reads back: what an engine's
   * shuffle serializer writes, so that a change crosses tasks without a general-purpose serializer.
   */
  public void writeTo(DataOutput out) throws IOException {
    writeString(out, recordKey);
    writeString(out, partitionPath);
    writeBytes(out, ordering);
    writeBytes(out, data);
    out.writeLong(sequence);
  }

  /** Reads a change {@link #writeTo} wrote. */
  public static EncodedChange readFrom(DataInput in) throws IOException {
    return new EncodedChange(readString(in), readString(in), readBytes(in), readBytes(in), in.readLong());
  }

  /**
   * A string, null allowed, as the binary form writes one: its UTF-8 bytes after their length
   * (-1: null), with no limit on the length.
   */
  public static void writeString(DataOutput out, String value) throws IOException {
    writeBytes(out, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
  }

  /** Reads a string {@link #writeString} wrote. */
  public static String readString(DataInput in) throws IOException {
    byte[] bytes = readBytes(in);
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  private static void writeBytes(DataOutput out, byte[] value) throws IOException {
    if (value == null) {
      out.writeInt(-1);
      return;
    }
    out.writeInt(value.length);
    out.write(value);
  }

  private static byte[] readBytes(DataInput in) throws IOException {
    int length = in.readInt();
    if (length < -1) {
      throw new IOException("a change's field has the length " + length + ": the bytes are not a change's binary form");
    }
    if (length == -1) {
      return null;
    }
    byte[] value = new byte[length];
    in.readFully(value);
    return value;
  }

  /**
   * The change that survives two changes of one key of the batch, as {@link io.riverbed.format.write.BatchPrecombiner}
   * decides: the larger ordering value, the later change on a tie (whichever order they are given in).
   */
  public static EncodedChange precombine(EncodedChange a, EncodedChange b) {
    EncodedChange earlier = a.sequence <= b.sequence ? a : b;
    EncodedChange later = earlier == a ? b : a;
    return OrderingValues.laterLoses(OrderingValueCodec.decode(earlier.ordering), OrderingValueCodec.decode(later.ordering))
        ? earlier : later;
  }

  /** Encodes and decodes the changes of one write schema; not thread-safe (one per task). */
  public static final class Codec {
    private final Schema schema;
    private final GenericDatumWriter<GenericRecord> writer;
    private final GenericDatumReader<GenericRecord> reader;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private BinaryEncoder encoder;
    private BinaryDecoder decoder;

    /** @param schema the write schema (no meta fields) the records are in */
    public Codec(Schema schema) {
      this.schema = schema;
      this.writer = new GenericDatumWriter<>(schema);
      this.reader = new GenericDatumReader<>(schema);
    }

    public EncodedChange encode(WriteRecord change, long sequence) {
      byte[] data = null;
      if (!change.isDelete()) {
        buffer.reset();
        encoder = EncoderFactory.get().binaryEncoder(buffer, encoder);
        try {
          writer.write(change.data(), encoder);
          encoder.flush();
        } catch (IOException | RuntimeException e) {
          throw new InvalidRecordException("cannot encode the record with key '" + change.recordKey() + "' in "
              + "partition '" + change.partitionPath() + "' in schema " + schema.getFullName() + ": " + e.getMessage(), e);
        }
        data = buffer.toByteArray();
      }
      return new EncodedChange(change.recordKey(), change.partitionPath(),
          OrderingValueCodec.encode(change.orderingValue()), data, sequence);
    }

    public WriteRecord decode(EncodedChange change) {
      Comparable<?> ordering = OrderingValueCodec.decode(change.ordering);
      if (change.isDelete()) {
        return WriteRecord.delete(change.recordKey, change.partitionPath, ordering);
      }
      decoder = DecoderFactory.get().binaryDecoder(change.data, decoder);
      try {
        return WriteRecord.upsert(change.recordKey, change.partitionPath, reader.read(null, decoder), ordering);
      } catch (IOException e) {
        throw new InvalidRecordException("cannot decode the record with key '" + change.recordKey + "': " + e.getMessage(), e);
      }
    }
  }
}
