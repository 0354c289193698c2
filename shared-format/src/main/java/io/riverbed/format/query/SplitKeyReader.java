package io.riverbed.format.query;

import io.riverbed.format.TableException;
import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.base.BaseFileRows;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.log.LogEntry;
import io.riverbed.format.log.MergedLogRecords;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.OrderingValueCodec;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * The record keys a snapshot {@link Split} holds, read without the data columns: what an index
 * bootstrap needs (key → file group). It answers exactly as {@link SplitReader} would for the
 * same split, key by key:
 *
 * <ul>
 *   <li>a base-only split reads only the {@code _hoodie_record_key} column of its Parquet file (and
 *       the ordering column for {@link #forEachVersion}), the keys as Parquet values, not records;
 *   <li>a split with logs merges the logs decoded into a projection (record key, ordering field,
 *       {@code _hoodie_is_deleted}, {@code _hoodie_operation}), reads the base file's key and
 *       ordering columns, decides each base key against its log entry with the table's payload rule
 *       ({@link PayloadMergeRule#combineWithBase}), then adds the keys only the logs hold unless
 *       their merged entry is a delete.
 * </ul>
 *
 * {@link #forEachKey} never reports deleted keys; {@link #forEachVersion} reports them as tombstones
 * with their ordering value. Incremental ranges are not applied (bootstrap reads snapshots).
 */
public final class SplitKeyReader {
  private final SliceMerge merge;
  private final Table table;
  private final Schema keySchema;
  private final Schema baseKeySchema;

  private SplitKeyReader(SliceMerge merge) {
    this.merge = merge;
    this.table = merge.table();
    Schema tableSchema = merge.tableSchema();
    String orderingField = merge.orderingField();
    List<String> mergeFields = new ArrayList<>();
    mergeFields.add(MetaFields.RECORD_KEY);
    if (orderingField != null) {
      mergeFields.add(orderingField);
    }
    mergeFields.add(MetaFields.IS_DELETED);
    mergeFields.add(MetaFields.OPERATION);
    this.keySchema = project(tableSchema, mergeFields);
    this.baseKeySchema = project(tableSchema, orderingField == null
        ? List.of(MetaFields.RECORD_KEY) : List.of(MetaFields.RECORD_KEY, orderingField));
  }

  /** A key reader for the splits of {@code plan}; the plan must have a schema (a table with data). */
  public static SplitKeyReader of(QueryPlan plan, ReadSettings settings) {
    return new SplitKeyReader(SliceMerge.of(plan, settings));
  }

  /**
   * Gives every live record key of {@code split} to {@code keys}, each once.
   *
   * @return the number of keys given
   */
  public long forEachKey(Split split, Consumer<String> keys) {
    long[] n = {0};
    scan(split, false, (key, ordering, deleted) -> {
      keys.accept(key);
      n[0]++;
    });
    return n[0];
  }

  /**
   * Gives every record key of {@code split} to {@code versions} with its ordering value
   * ({@linkplain OrderingValueCodec#normalize normalized}; {@link OrderingValues#NATURAL_ORDER} when
   * the table has no ordering field): the live keys, and the keys the slice's logs delete (a
   * tombstone carrying the delete's ordering value), each once.
   */
  public void forEachVersion(Split split, KeyVersionConsumer versions) {
    scan(split, true, versions);
  }

  /** One key of a split: its ordering value and whether the split's logs delete it. */
  @FunctionalInterface
  public interface KeyVersionConsumer {
    void accept(String recordKey, Comparable<?> orderingValue, boolean deleted);
  }

  private void scan(Split split, boolean withVersions, KeyVersionConsumer out) {
    FileSlice slice = split.slice();
    if (!slice.hasLogs()) {
      var base = slice.baseFile().orElseThrow(() -> new TableException("empty file slice " + slice.fileGroupId()
          + " of table " + table.basePath()));
      if (!withVersions) {
        String file = base.path().toString();
        BaseFileRows.forEachKey(table.fs().getConf(), base.path(), MetaFields.RECORD_KEY, key -> {
          if (key == null) {
            throw missingKey(file);
          }
          out.accept(key, OrderingValues.NATURAL_ORDER, false);
        });
        return;
      }
      try (CloseableIterator<GenericRecord> records = BaseFileReader.records(table.fs().getConf(), base.path(),
          baseKeySchema)) {
        while (records.hasNext()) {
          GenericRecord record = records.next();
          String key = keyOf(record, base.path().toString());
          out.accept(key, orderingOf(record, key), false);
        }
      }
      return;
    }
    try (MergedLogRecords logs = scanLogs(split)) {
      Set<String> mergedKeys = new HashSet<>();
      if (slice.baseFile().isPresent()) {
        var base = slice.baseFile().get();
        try (CloseableIterator<GenericRecord> records = BaseFileReader.records(table.fs().getConf(), base.path(),
            baseKeySchema)) {
          while (records.hasNext()) {
            GenericRecord record = records.next();
            String key = keyOf(record, base.path().toString());
            var entry = logs.get(key);
            GenericRecord winner = record;
            if (entry.isPresent()) {
              mergedKeys.add(key);
              var merged = merge.combine(key, record, entry.get());
              if (merged.isEmpty()) {
                if (withVersions) {
                  out.accept(key, OrderingValueCodec.normalize(entry.get().orderingValue()), true);
                }
                continue;
              }
              winner = merged.get();
            }
            out.accept(key, withVersions ? orderingOf(winner, key) : OrderingValues.NATURAL_ORDER, false);
          }
        }
      }
      for (LogEntry entry : logs) {
        if (mergedKeys.contains(entry.recordKey())) {
          continue;
        }
        if (!entry.isDelete()) {
          out.accept(entry.recordKey(), OrderingValueCodec.normalize(entry.orderingValue()), false);
        } else if (withVersions) {
          out.accept(entry.recordKey(), OrderingValueCodec.normalize(entry.orderingValue()), true);
        }
      }
    }
  }

  private Comparable<?> orderingOf(GenericRecord record, String key) {
    String field = merge.orderingField();
    return field == null ? OrderingValues.NATURAL_ORDER
        : OrderingValueCodec.normalize(OrderingValues.ofLogRecord(record, field, key));
  }

  private MergedLogRecords scanLogs(Split split) {
    return merge.scanLogs(split, keySchema);
  }

  private String keyOf(GenericRecord record, String file) {
    Object key = record.get(MetaFields.RECORD_KEY);
    if (key == null) {
      throw missingKey(file);
    }
    return key.toString();
  }

  private TableException missingKey(String file) {
    return new TableException("record without " + MetaFields.RECORD_KEY + " in base file " + file + " of table "
        + table.basePath());
  }

  /** The fields of {@code schema} named in {@code names} that it has, under the same record name. */
  private static Schema project(Schema schema, List<String> names) {
    List<Schema.Field> fields = new ArrayList<>();
    for (String name : names) {
      Schema.Field f = schema.getField(name);
      if (f != null) {
        fields.add(new Schema.Field(f.name(), f.schema(), f.doc(), f.defaultVal()));
      }
    }
    Schema projected = Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false);
    projected.setFields(fields);
    return projected;
  }
}
