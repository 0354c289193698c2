package io.riverbed.flink.read;

import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.Split;
import io.riverbed.format.query.SplitReader;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Instant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.LookupFunction;
import org.apache.flink.table.types.logical.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dimension side of a lookup join ({@code JOIN t FOR SYSTEM_TIME AS OF ...}) on a {@code hudi}
 * table: each task holds the table's latest snapshot in memory by the join key, and at most every
 * refresh interval looks at the timeline; a newer commit makes it read the snapshot again, so a
 * join sees each commit within one interval of its completion.
 */
public final class HudiLookupFunction extends LookupFunction {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(HudiLookupFunction.class);

  private final TableToRead source;
  private final RowType rowType;
  private final int[] keyColumns;
  private final Duration refresh;
  private transient Table table;
  private transient RowData.FieldGetter[] rowKey;
  private transient RowData.FieldGetter[] lookupKey;
  private transient Map<List<Object>, List<RowData>> rows;
  private transient String loadedInstant;
  private transient long nextLookNanos;

  /** @param keyColumns the join key's columns, as positions in {@code rowType} */
  HudiLookupFunction(TableToRead source, RowType rowType, int[] keyColumns, Duration refresh) {
    this.source = source;
    this.rowType = rowType;
    this.keyColumns = keyColumns.clone();
    this.refresh = refresh;
  }

  @Override
  public void open(FunctionContext context) {
    table = source.open();
    rowKey = new RowData.FieldGetter[keyColumns.length];
    lookupKey = new RowData.FieldGetter[keyColumns.length];
    for (int i = 0; i < keyColumns.length; i++) {
      rowKey[i] = RowData.createFieldGetter(rowType.getTypeAt(keyColumns[i]), keyColumns[i]);
      lookupKey[i] = RowData.createFieldGetter(rowType.getTypeAt(keyColumns[i]), i);
    }
  }

  @Override
  public Collection<RowData> lookup(RowData keyRow) {
    if (rows == null || System.nanoTime() - nextLookNanos >= 0) {
      reloadIfNewer();
      nextLookNanos = System.nanoTime() + refresh.toNanos();
    }
    return rows.getOrDefault(key(keyRow, lookupKey), List.of());
  }

  private void reloadIfNewer() {
    String latest = table.refreshTimeline().commitsTimeline().completed().last().map(Instant::time).orElse(null);
    if (rows != null && Objects.equals(latest, loadedInstant)) {
      return;
    }
    Map<List<Object>, List<RowData>> loaded = new HashMap<>();
    if (latest != null) {
      QueryPlan plan = QueryPlanner.plan(table, QuerySpec.asOf(latest));
      if (plan.schema().isPresent()) {
        SplitReader reader = SplitReader.of(plan, ReadSettings.fromOptions(source.options()));
        Schema projection = TableSchemas.projection(reader.tableSchema(), rowType.getFieldNames());
        Map<Schema, AvroToRowData> converters = new IdentityHashMap<>();
        for (Split split : plan.splits()) {
          try (CloseableIterator<GenericRecord> records = reader.read(split, Optional.of(projection))) {
            while (records.hasNext()) {
              GenericRecord record = records.next();
              RowData row = converters.computeIfAbsent(record.getSchema(), s -> AvroToRowData.of(rowType, s)).convert(record);
              loaded.computeIfAbsent(key(row, rowKey), k -> new ArrayList<>(1)).add(row);
            }
          }
        }
      }
    }
    rows = loaded;
    LOG.info("Lookup table {}: {} keys as of commit {}", source.path(), loaded.size(), latest);
    loadedInstant = latest;
  }

  private static List<Object> key(RowData row, RowData.FieldGetter[] getters) {
    List<Object> key = new ArrayList<>(getters.length);
    for (RowData.FieldGetter getter : getters) {
      key.add(getter.getFieldOrNull(row));
    }
    return key;
  }
}
