package io.riverbed.format.write;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.TableException;
import io.riverbed.format.record.AvroBinaryRecord;
import io.riverbed.format.record.MetaFields;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Copies a user record into the writer schema (meta fields first) and fills the five meta fields;
 * or, for a record an engine encoded itself ({@link AvroBinaryRecord}), writes the writer-schema
 * record's Avro binary directly: the meta fields' encoding followed by the record's bytes.
 */
final class MetaRecords {
  private static final int META_COUNT = MetaFields.ALL.size();

  private MetaRecords() {}

  /**
   * {@code data} as a record of {@code writerSchema}: user fields copied by name (fields the record
   * lacks are left null), meta fields set to the given values. A file's writer passes the values
   * every record of the file shares (commit time, partition path, file name) as one Avro
   * {@code Utf8} each, so that Parquet encodes them once and compares their bytes for its dictionary.
   */
  static GenericRecord withMetaFields(Schema writerSchema, GenericRecord data, CharSequence commitTime, String seqNo,
      String recordKey, CharSequence partitionPath, CharSequence fileName) {
    var out = new GenericData.Record(writerSchema);
    out.put(0, commitTime);
    out.put(1, seqNo);
    out.put(2, recordKey);
    out.put(3, partitionPath);
    out.put(4, fileName);
    Schema dataSchema = data.getSchema();
    List<Schema.Field> fields = writerSchema.getFields();
    for (int i = META_COUNT; i < fields.size(); i++) {
      Schema.Field target = fields.get(i);
      Schema.Field source = dataSchema.getField(target.name());
      if (source != null) {
        out.put(i, data.get(source.pos()));
      } else if (!acceptsNull(target.schema())) {
        throw new InvalidRecordException("record with key '" + recordKey + "' in partition '" + partitionPath
            + "' has no field '" + target.name() + "', which the table schema requires");
      }
    }
    return out;
  }

  /**
   * The Avro binary encoding, in {@code writerSchema}, of {@code data} with the five meta fields set:
   * what Avro's {@code GenericDatumWriter} writes for {@link #withMetaFields}' record. Meta fields are
   * {@code ["null","string"]} (branch 1, then the string); the user fields' encoding is {@code data}'s
   * bytes, which is valid only when {@code data}'s schema is the writer schema's user part
   * ({@link #encodesAsWriterSchema}).
   */
  static byte[] encodeWithMetaFields(Encoding encoding, String commitTime, String seqNo, String recordKey,
      String partitionPath, String fileName, AvroBinaryRecord data) {
    encoding.buffer.reset();
    BinaryEncoder out = encoding.encoder = EncoderFactory.get().directBinaryEncoder(encoding.buffer, encoding.encoder);
    try {
      for (String value : new String[] {commitTime, seqNo, recordKey, partitionPath, fileName}) {
        out.writeIndex(1);
        out.writeString(value);
      }
      out.writeFixed(data.bytes());
      out.flush();
    } catch (IOException e) {
      throw new TableException("cannot encode the record with key '" + recordKey + "' in partition '" + partitionPath
          + "'", e);
    }
    return encoding.buffer.toByteArray();
  }

  /**
   * True if a record of {@code recordSchema} encodes as the user fields of {@code writerSchema} ({@link
   * io.riverbed.format.record.TableSchemas#addMetaFields} of the table schema): the same fields in the same order.
   */
  static boolean encodesAsWriterSchema(Schema writerSchema, Schema recordSchema) {
    List<Schema.Field> writerFields = writerSchema.getFields();
    List<Schema.Field> fields = recordSchema.getFields();
    if (writerFields.size() != META_COUNT + fields.size()) {
      return false;
    }
    for (int i = 0; i < META_COUNT; i++) {
      Schema meta = writerFields.get(i).schema();
      if (!writerFields.get(i).name().equals(MetaFields.ALL.get(i)) || meta.getType() != Schema.Type.UNION
          || meta.getTypes().size() != 2 || meta.getTypes().get(0).getType() != Schema.Type.NULL
          || meta.getTypes().get(1).getType() != Schema.Type.STRING) {
        return false;
      }
    }
    for (int i = 0; i < fields.size(); i++) {
      Schema.Field target = writerFields.get(META_COUNT + i);
      if (!target.name().equals(fields.get(i).name()) || !target.schema().equals(fields.get(i).schema())) {
        return false;
      }
    }
    return true;
  }

  /** A reusable buffer and encoder for {@link #encodeWithMetaFields}; one per handle call. */
  static final class Encoding {
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(256);
    private BinaryEncoder encoder;
  }

  private static boolean acceptsNull(Schema schema) {
    return schema.getType() == Schema.Type.NULL || (schema.getType() == Schema.Type.UNION
        && schema.getTypes().stream().anyMatch(s -> s.getType() == Schema.Type.NULL));
  }
}
