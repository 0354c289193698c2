package io.riverbed.format.timeline;

import io.riverbed.format.record.AvroBinaryCheck;
import io.riverbed.format.CorruptFileException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * The Avro encoding of timeline files (plans, clean and rollback metadata): an Avro object
 * container file, null codec, writer schema embedded, exactly one record.
 */
public final class AvroTimelineFile {

  private AvroTimelineFile() {}

  /** One record as a container file with the null codec. */
  public static byte[] serialize(GenericRecord record) {
    var out = new ByteArrayOutputStream();
    try (var writer = new DataFileWriter<GenericRecord>(new GenericDatumWriter<>(record.getSchema()))) {
      writer.create(record.getSchema(), out);
      writer.append(record);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize " + record.getSchema().getFullName(), e);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "record does not match " + record.getSchema().getFullName() + ": " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  /**
   * Reads the single record of a container file, resolved to {@code readerSchema} (null: read with
   * the schema the file embeds). An empty file gives empty (Hudi writes empty requested/inflight files for some actions).
   *
   * @param source names the file in errors
   * @throws CorruptFileException if the bytes are not a container file with exactly one record
   */
  public static Optional<GenericRecord> deserialize(byte[] bytes, Schema readerSchema, String source) {
    if (bytes.length == 0) {
      return Optional.empty();
    }
    try {
      AvroBinaryCheck.checkContainer(bytes);
    } catch (RuntimeException e) {
      throw new CorruptFileException("cannot read " + nameOf(readerSchema) + " from " + source
          + ": not a well-formed Avro container: " + e.getMessage(), e);
    }
    try (var reader = new DataFileReader<GenericRecord>(
        new SeekableByteArrayInput(bytes), new GenericDatumReader<>(null, readerSchema))) {
      if (!reader.hasNext()) {
        throw new CorruptFileException(source + ": Avro container holds no " + nameOf(readerSchema) + " record");
      }
      GenericRecord record = reader.next();
      if (reader.hasNext()) {
        throw new CorruptFileException(source + ": Avro container holds more than one record");
      }
      return Optional.of(record);
    } catch (IOException | RuntimeException e) {
      if (e instanceof CorruptFileException corrupt) {
        throw corrupt;
      }
      throw new CorruptFileException(
          "cannot read " + nameOf(readerSchema) + " from " + source + ": " + e.getMessage(), e);
    }
  }

  private static String nameOf(Schema readerSchema) {
    return readerSchema == null ? "a record" : readerSchema.getName();
  }

  /** Like {@link #deserialize} but an empty file is an error. */
  public static GenericRecord deserializeRequired(byte[] bytes, Schema readerSchema, String source) {
    return deserialize(bytes, readerSchema, source).orElseThrow(
        () -> new CorruptFileException(source + " is empty; expected a " + nameOf(readerSchema) + " record"));
  }
}
