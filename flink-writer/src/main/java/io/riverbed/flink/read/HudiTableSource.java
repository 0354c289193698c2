package io.riverbed.flink.read;

import io.riverbed.format.TableException;
import io.riverbed.format.query.ColumnPredicate;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLimitPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsPartitionPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The scan side of a {@code hudi} table in Flink SQL: a bounded {@link HudiSource} reading only the
 * columns the query uses, only the partitions its partition filters keep (the planner evaluates
 * them on the partition values this source lists from the table's partition paths), and per
 * reader no more rows than a pushed-down {@code LIMIT}. Pushed-down filters that translate to the
 * core's {@link ColumnPredicate} let readers skip base files and Parquet row groups by their
 * statistics; every filter stays with Flink, which evaluates it on each row read. Columns are the declared ones: Hudi's meta
 * columns are read only when the DDL declares them, as in Hudi's Flink source. In a lookup join it
 * is the dimension table ({@link HudiLookupFunction}).
 */
public final class HudiTableSource implements ScanTableSource, LookupTableSource, SupportsProjectionPushDown,
    SupportsLimitPushDown, SupportsPartitionPushDown, SupportsFilterPushDown {
  private final TableToRead table;
  private final ReadQuery query;
  private final List<String> partitionKeys;
  private final Integer parallelism;
  private final String name;
  private final Duration lookupRefresh;
  private RowType rowType;
  private List<Map<String, String>> partitions;
  private long limit = Long.MAX_VALUE;
  private ColumnPredicate filter;

  /**
   * @param partitionKeys the DDL's {@code PARTITIONED BY} columns
   * @param parallelism the read tasks ({@code read.tasks}), null for the job's parallelism
   * @param lookupRefresh the longest time a lookup join goes without looking for a newer commit
   */
  public HudiTableSource(TableToRead table, ReadQuery query, RowType rowType, List<String> partitionKeys, Integer parallelism,
      String name, Duration lookupRefresh) {
    this.table = table;
    this.query = query;
    this.rowType = rowType;
    this.partitionKeys = List.copyOf(partitionKeys);
    this.parallelism = parallelism;
    this.name = name;
    this.lookupRefresh = lookupRefresh;
  }

  @Override
  public ChangelogMode getChangelogMode() {
    return ChangelogMode.insertOnly();
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    return SourceProvider.of(new HudiSource(table, query, rowType, partitions, limit, filter), parallelism);
  }

  @Override
  public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
    int[] keys = new int[context.getKeys().length];
    for (int i = 0; i < keys.length; i++) {
      if (context.getKeys()[i].length != 1) {
        throw new TableException("Table " + name + ": a lookup join on a nested field is not supported; join on top-level "
            + "columns");
      }
      keys[i] = context.getKeys()[i][0];
    }
    return LookupFunctionProvider.of(new HudiLookupFunction(table, rowType, keys, lookupRefresh));
  }

  @Override
  public boolean supportsNestedProjection() {
    return false;
  }

  @Override
  public void applyProjection(int[][] projectedFields, DataType producedDataType) {
    this.rowType = (RowType) producedDataType.getLogicalType();
  }

  @Override
  public void applyLimit(long limit) {
    this.limit = limit;
  }

  /**
   * The table's partitions as values of the {@code PARTITIONED BY} columns, read from the partition
   * paths; the table must be partitioned by those columns, in that order.
   */
  @Override
  public Optional<List<Map<String, String>>> listPartitions() {
    Table opened = table.open();
    TableConfig config = opened.config();
    if (!config.partitionFields().equals(partitionKeys)) {
      throw new TableException("Table " + name + " is declared PARTITIONED BY " + partitionKeys + ", but the hudi table at '"
          + table.path() + "' is partitioned by " + config.partitionFields()
          + " (hoodie.table.partition.fields); declare the same columns");
    }
    List<Map<String, String>> out = new ArrayList<>();
    for (String partition : opened.listPartitions()) {
      out.add(SlicePlanner.partitionValues(config, partition));
    }
    return Optional.of(out);
  }

  @Override
  public void applyPartitions(List<Map<String, String>> remainingPartitions) {
    this.partitions = List.copyOf(remainingPartitions);
  }

  /**
   * Keeps the filters that translate to a {@link ColumnPredicate} for skipping by statistics, and
   * returns every filter as remaining: pruning narrows what is read, never what is returned.
   */
  @Override
  public Result applyFilters(List<ResolvedExpression> filters) {
    List<ResolvedExpression> accepted = new ArrayList<>();
    List<ColumnPredicate> translated = new ArrayList<>();
    for (ResolvedExpression f : filters) {
      PushedFilters.translate(f).ifPresent(p -> {
        accepted.add(f);
        translated.add(p);
      });
    }
    this.filter = translated.isEmpty() ? null : ColumnPredicate.allOf(translated);
    return Result.of(accepted, filters);
  }

  @Override
  public DynamicTableSource copy() {
    HudiTableSource copy = new HudiTableSource(table, query, rowType, partitionKeys, parallelism, name, lookupRefresh);
    copy.partitions = partitions;
    copy.limit = limit;
    copy.filter = filter;
    return copy;
  }

  @Override
  public String asSummaryString() {
    return "hudi(" + name + ", " + query.type().optionValue() + ")";
  }
}
