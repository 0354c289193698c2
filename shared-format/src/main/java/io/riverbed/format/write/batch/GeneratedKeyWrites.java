package io.riverbed.format.write.batch;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The batch writes to a table without record key fields, whose keys the writer generates (Apache
 * Hudi 0.14+'s key-less tables, {@link io.riverbed.format.record.GeneratedRecordKeys}): a write is
 * one when neither its options nor the table it appends to name a record key field; without an
 * operation it is a {@code bulk_insert}, as in Hudi; and it takes only the operations that never
 * find a stored record by its key.
 */
public final class GeneratedKeyWrites {
  /** The operations that add records or replace whole file groups, so no stored record's key is needed. */
  public static final Set<WriteOperationType> OPERATIONS = Set.of(WriteOperationType.INSERT,
      WriteOperationType.BULK_INSERT, WriteOperationType.INSERT_OVERWRITE, WriteOperationType.INSERT_OVERWRITE_TABLE,
      WriteOperationType.DELETE_PARTITION);

  private GeneratedKeyWrites() {}

  /**
   * True when the write generates its records' keys.
   *
   * @param options the write's options
   * @param appendedTo the table's config when the write adds to an existing table, empty when it creates one
   */
  public static boolean applies(Map<String, String> options, Optional<TableConfig> appendedTo) {
    boolean optionsNameKeys = !KeyGeneratorOptions.splitFields(
        Optional.ofNullable(options.get(KeyGeneratorOptions.RECORD_KEY_FIELD))
            .orElse(options.getOrDefault(KeyGeneratorOptions.TABLE_RECORD_KEY_FIELDS, ""))).isEmpty();
    return !optionsNameKeys && appendedTo.map(c -> c.recordKeyFields().isEmpty()).orElse(true);
  }

  /** {@code options}, with {@code bulk_insert} as the operation when they give none. */
  public static Map<String, String> withDefaultOperation(Map<String, String> options) {
    String operation = options.get(BatchWriteOptions.OPERATION);
    if (operation != null && !operation.isBlank()) {
      return options;
    }
    Map<String, String> out = new HashMap<>(options);
    out.put(BatchWriteOptions.OPERATION, WriteOperationType.BULK_INSERT.value());
    return out;
  }

  /**
   * Refuses what a write with generated keys cannot do.
   *
   * @param table the table's base path, named in the error
   * @throws InvalidTableException naming the operation or option
   */
  public static void requireSupported(BatchWriteOptions write, String table) {
    if (!OPERATIONS.contains(write.operation()) || write.deletesAll()) {
      String what = write.deletesAll() ? BatchWriteOptions.PAYLOAD_CLASS + "=" + BatchWriteOptions.EMPTY_PAYLOAD
          : BatchWriteOptions.OPERATION + "=" + write.operation().value();
      throw new InvalidTableException("hudi: " + what + " is not supported on the table at " + table + ": it has no "
          + "record key field, so its record keys are generated on insert (as Hudi 0.14+ does) and no stored record "
          + "can be found by key; Riverbed writes such tables with " + names() + " only (give "
          + KeyGeneratorOptions.RECORD_KEY_FIELD + " when creating a table to upsert or delete by key)");
    }
    if (write.operation() == WriteOperationType.DELETE_PARTITION && write.partitionsToDelete().isEmpty()) {
      throw new InvalidTableException("hudi: delete_partition on the table at " + table + " needs "
          + BatchWriteOptions.PARTITIONS_TO_DELETE + ": the table has no record key field, so the partitions are not "
          + "taken from the rows' keys");
    }
    if (write.bucketIndex()) {
      throw new InvalidTableException("hudi: " + BatchWriteOptions.INDEX_TYPE + "=BUCKET is not supported on the table "
          + "at " + table + ": it has no record key field to hash (its keys are generated)");
    }
  }

  private static String names() {
    return String.join(", ", OPERATIONS.stream().map(WriteOperationType::value).sorted().toList());
  }
}
