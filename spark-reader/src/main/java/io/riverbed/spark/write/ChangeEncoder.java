package io.riverbed.spark.write;

import io.riverbed.format.record.GeneratedRecordKeys;
import io.riverbed.format.record.KeyGenerator;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.WriteRecord;
import io.riverbed.format.write.batch.EncodedChange;
import java.util.Iterator;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * Turns one Spark partition of rows into encoded changes, on an executor: each row converted to
 * an Avro record of the write schema, keyed by the table's key generator, its ordering value read,
 * a delete when the write deletes, {@code _hoodie_is_deleted} is true or the row's delete flag column
 * (a SQL statement's changes) is true, and numbered by its
 * position (partition index, row index) so that ties between changes of one key go to the later.
 * In a table without record key fields each row is an insert under a key generated from the
 * instant and that position ({@link GeneratedRecordKeys}), or, for a statement's changes, an update or
 * delete of the key it was stored under.
 */
final class ChangeEncoder implements Function2<Integer, Iterator<InternalRow>, Iterator<EncodedChange>> {
  private static final long serialVersionUID = 1L;

  private final StructType rowType;
  private final String schemaJson;
  private final Map<String, String> keyProperties;
  private final String orderingField;
  private final boolean deletes;
  private final int deleteFlag;
  private final int storedKey;
  private final String generatedKeysInstant;

  /**
   * @param schema the schema records are converted to (the write schema; for deletes, the rows' own)
   * @param keyProperties the table's key generator settings ({@code hoodie.properties})
   * @param orderingField null when the table has none
   * @param deletes every row is a delete of its key
   * @param deleteFlag the ordinal of the boolean column that marks a row as a delete of its key, -1 for none
   * @param storedKey the ordinal of the column holding each row's stored record key ({@code _hoodie_record_key}),
   *     which it keeps in a table whose keys were generated; -1 for none
   * @param generatedKeysInstant the instant whose keys the rows get when the table has no record key
   *     field, null when it has
   */
  ChangeEncoder(StructType rowType, Schema schema, Map<String, String> keyProperties, String orderingField,
      boolean deletes, int deleteFlag, int storedKey, String generatedKeysInstant) {
    this.rowType = rowType;
    this.schemaJson = schema.toString();
    this.keyProperties = Map.copyOf(keyProperties);
    this.orderingField = orderingField;
    this.deletes = deletes;
    this.deleteFlag = deleteFlag;
    this.storedKey = storedKey;
    this.generatedKeysInstant = generatedKeysInstant;
  }

  @Override
  public Iterator<EncodedChange> call(Integer partition, Iterator<InternalRow> rows) {
    Schema schema = new Schema.Parser().parse(schemaJson);
    RowToAvro toAvro = new RowToAvro(rowType, schema);
    KeyGenerator keys = KeyGenerator.fromMap(keyProperties);
    RecordKeyer keyer = RecordKeyer.of(keys, orderingField);
    EncodedChange.Codec codec = new EncodedChange.Codec(schema);
    long first = (long) partition << 40;
    GeneratedRecordKeys generated = generatedKeysInstant == null ? null
        : GeneratedRecordKeys.of(generatedKeysInstant, partition);
    return new Iterator<>() {
      long n;

      @Override
      public boolean hasNext() {
        return rows.hasNext();
      }

      @Override
      public EncodedChange next() {
        InternalRow row = rows.next();
        GenericRecord record = toAvro.convert(row);
        WriteRecord change;
        boolean delete = deletes || deleteFlag >= 0 && !row.isNullAt(deleteFlag) && row.getBoolean(deleteFlag);
        if (storedKey >= 0) {
          String key = row.getUTF8String(storedKey).toString();
          change = delete ? WriteRecord.delete(key, keys.partitionPath(record), null) : keyer.toWriteRecord(record, key);
        } else if (generated != null) {
          change = keyer.toWriteRecord(record, generated.next());
        } else if (delete) {
          KeyGenerator.Key key = keys.key(record);
          change = WriteRecord.delete(key.recordKey(), key.partitionPath(), null);
        } else {
          change = keyer.toWriteRecord(record);
        }
        return codec.encode(change, first + n++);
      }
    };
  }
}
