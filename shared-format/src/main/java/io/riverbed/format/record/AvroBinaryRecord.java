package io.riverbed.format.record;

import io.riverbed.format.InvalidRecordException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * A record held as its Avro binary encoding in one schema, as an engine encoded it straight from
 * its own rows: log blocks copy the bytes as they are, and the record is decoded into fields only
 * when something reads one (merges into base files, payload rules), so the common path of a
 * MERGE_ON_READ write builds no {@link GenericData.Record} per record.
 *
 * <p>Records come from a {@link Codec} (one per schema and task); the first field access decodes
 * them. Not thread-safe.
 */
public final class AvroBinaryRecord implements GenericRecord {
  private final Codec codec;
  private final byte[] bytes;
  private GenericRecord decoded;

  private AvroBinaryRecord(Codec codec, byte[] bytes) {
    this.codec = codec;
    this.bytes = bytes;
  }

  /** The record's Avro binary encoding in {@link #getSchema()}; not copied, do not modify. */
  public byte[] bytes() {
    return bytes;
  }

  @Override
  public Schema getSchema() {
    return codec.schema;
  }

  @Override
  public Object get(int i) {
    return decoded().get(i);
  }

  @Override
  public void put(int i, Object v) {
    decoded().put(i, v);
  }

  @Override
  public Object get(String key) {
    return decoded().get(key);
  }

  @Override
  public void put(String key, Object v) {
    decoded().put(key, v);
  }

  private GenericRecord decoded() {
    if (decoded == null) {
      decoded = codec.decode(bytes);
    }
    return decoded;
  }

  /** Equal to any record of the same schema with equal fields, as {@link GenericData.Record} compares. */
  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (o instanceof AvroBinaryRecord other && other.codec.schema.equals(codec.schema) && Arrays.equals(bytes, other.bytes)) {
      return true;
    }
    return o instanceof GenericRecord other && other.getSchema().equals(getSchema())
        && GenericData.get().compare(this, other, getSchema()) == 0;
  }

  @Override
  public int hashCode() {
    return GenericData.get().hashCode(this, getSchema());
  }

  @Override
  public String toString() {
    return decoded().toString();
  }

  /** Wraps and decodes the records of one schema; one per task (its decoder is reused). */
  public static final class Codec {
    private final Schema schema;
    private final GenericDatumReader<GenericRecord> reader;
    private BinaryDecoder decoder;

    public Codec(Schema schema) {
      this.schema = Objects.requireNonNull(schema, "schema");
      this.reader = new GenericDatumReader<>(schema);
    }

    public Schema schema() {
      return schema;
    }

    /** A record over {@code bytes}, the Avro binary encoding of one record of the schema (not copied). */
    public AvroBinaryRecord wrap(byte[] bytes) {
      return new AvroBinaryRecord(this, Objects.requireNonNull(bytes, "bytes"));
    }

    private GenericRecord decode(byte[] bytes) {
      decoder = DecoderFactory.get().binaryDecoder(bytes, decoder);
      try {
        return reader.read(null, decoder);
      } catch (IOException | RuntimeException e) {
        throw new InvalidRecordException("cannot decode a record of schema " + schema.getFullName() + " from its "
            + bytes.length + " bytes of Avro binary: " + e.getMessage(), e);
      }
    }
  }
}
