package io.riverbed.format.write;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.record.OrderingValues;
import java.util.Objects;
import org.apache.avro.generic.GenericRecord;

/**
 * One change to write: an upsert (record key, partition path, the user record in the table schema
 * without meta fields, ordering value) or a delete (key, partition path, ordering value).
 *
 * <p>The ordering value is the record's precombine value; {@link OrderingValues#NATURAL_ORDER}
 * ({@code Integer 0}) when the table has none. It is never null.
 */
public record WriteRecord(String recordKey, String partitionPath, GenericRecord data, Comparable<?> orderingValue) {

  public WriteRecord {
    if (recordKey == null || recordKey.isEmpty()) {
      throw new InvalidRecordException("record key is null or empty for a record in partition '" + partitionPath
          + "': " + data);
    }
    Objects.requireNonNull(partitionPath, "partitionPath");
    if (orderingValue == null) {
      throw new InvalidRecordException("ordering value is null for record key '" + recordKey + "' in partition '"
          + partitionPath + "' (Hudi readers fail on null ordering values)");
    }
  }

  /** An insert or update of {@code data}. */
  public static WriteRecord upsert(String recordKey, String partitionPath, GenericRecord data, Comparable<?> orderingValue) {
    Objects.requireNonNull(data, "data");
    return new WriteRecord(recordKey, partitionPath, data, orderingValue);
  }

  /** A delete; {@code orderingValue} null means natural order ({@code Integer 0}). */
  public static WriteRecord delete(String recordKey, String partitionPath, Comparable<?> orderingValue) {
    return new WriteRecord(recordKey, partitionPath, null,
        orderingValue == null ? OrderingValues.NATURAL_ORDER : orderingValue);
  }

  public boolean isDelete() {
    return data == null;
  }
}
