package io.riverbed.flink.read;

import io.riverbed.format.record.MetaFields;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;

/** The Avro record a read needs of the table schema: the columns a query reads, in table order. */
final class Projections {
  private Projections() {}

  /**
   * The fields of {@code tableSchema} named in {@code columns}; a read of no stored column (a
   * {@code COUNT(*)}) reads the record key, so that every row still comes out.
   */
  static Schema of(Schema tableSchema, List<String> columns) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : tableSchema.getFields()) {
      if (columns.contains(f.name())) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    if (fields.isEmpty()) {
      Schema.Field key = tableSchema.getField(MetaFields.RECORD_KEY);
      fields.add(new Schema.Field(key, key.schema()));
    }
    Schema projected = Schema.createRecord(tableSchema.getName(), tableSchema.getDoc(), tableSchema.getNamespace(), false);
    projected.setFields(fields);
    return projected;
  }
}
