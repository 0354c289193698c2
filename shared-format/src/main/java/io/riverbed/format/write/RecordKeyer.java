package io.riverbed.format.write;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.record.KeyGenerator;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.table.TableConfig;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Turns user records (table schema, no meta fields) into {@link WriteRecord}s with the table's key
 * generator and ordering field. A record with {@code _hoodie_is_deleted = true} becomes a delete.
 * Thread-safe.
 */
public final class RecordKeyer {
  private final KeyGenerator keyGenerator;
  private final String orderingField;

  private RecordKeyer(KeyGenerator keyGenerator, String orderingField) {
    this.keyGenerator = keyGenerator;
    this.orderingField = orderingField;
  }

  /** Key generator and precombine field as the table's config names them. */
  public static RecordKeyer forTable(TableConfig config) {
    return new RecordKeyer(KeyGenerator.fromMap(config.properties()), config.precombineField().orElse(null));
  }

  public static RecordKeyer of(KeyGenerator keyGenerator, String orderingFieldOrNull) {
    return new RecordKeyer(keyGenerator, orderingFieldOrNull);
  }

  /** The table's ordering field, or null if it has none. */
  public String orderingField() {
    return orderingField;
  }

  /**
   * The change {@code record} stands for.
   *
   * @throws InvalidRecordException naming the field and the record when a key field is missing or
   *     null, or naming the key when the ordering value is null
   */
  public WriteRecord toWriteRecord(GenericRecord record) {
    KeyGenerator.Key key = keyGenerator.key(record);
    Comparable<?> ordering = orderingValue(record, key.recordKey());
    if (isDeleted(record)) {
      return WriteRecord.delete(key.recordKey(), key.partitionPath(), ordering);
    }
    return WriteRecord.upsert(key.recordKey(), key.partitionPath(), record, ordering);
  }

  /**
   * The insert {@code record} stands for in a table whose keys are generated: {@code recordKey} is
   * the generated key, the partition path is the key generator's; the ordering field is ignored,
   * as Hudi ignores it for such tables (no two records share a key).
   */
  public WriteRecord toWriteRecord(GenericRecord record, String recordKey) {
    String partitionPath = keyGenerator.partitionPath(record);
    if (isDeleted(record)) {
      return WriteRecord.delete(recordKey, partitionPath, OrderingValues.NATURAL_ORDER);
    }
    return WriteRecord.upsert(recordKey, partitionPath, record, OrderingValues.NATURAL_ORDER);
  }

  private Comparable<?> orderingValue(GenericRecord record, String recordKey) {
    if (orderingField == null) {
      return OrderingValues.NATURAL_ORDER;
    }
    Schema.Field field = record.getSchema().getField(orderingField);
    if (field == null) {
      throw new InvalidRecordException("ordering field '" + orderingField + "' is not in the schema of the record"
          + " with key '" + recordKey + "'");
    }
    return OrderingValues.ofLogRecord(record, orderingField, recordKey);
  }

  private static boolean isDeleted(GenericRecord record) {
    Schema.Field deleted = record.getSchema().getField(MetaFields.IS_DELETED);
    return deleted != null && Boolean.TRUE.equals(record.get(deleted.pos()));
  }
}
