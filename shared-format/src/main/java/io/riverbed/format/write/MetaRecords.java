package io.riverbed.format.write;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.record.MetaFields;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** Copies a user record into the writer schema (meta fields first) and fills the five meta fields. */
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

  private static boolean acceptsNull(Schema schema) {
    return schema.getType() == Schema.Type.NULL || (schema.getType() == Schema.Type.UNION
        && schema.getTypes().stream().anyMatch(s -> s.getType() == Schema.Type.NULL));
  }
}
