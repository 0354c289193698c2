package io.riverbed.flink.read;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The scan side of a {@code hudi} table read as a stream ({@code read.streaming.enabled}): an
 * upsert changelog keyed by the table's primary key, from a {@link HudiChangeSource} reading only
 * the columns the query uses. Flink turns it into a full changelog ({@code -U/+U}) where a query
 * needs one. Partitions are not pruned at planning (new ones appear while it runs).
 */
public final class HudiStreamingTableSource implements ScanTableSource, SupportsProjectionPushDown {
  private final TableToRead table;
  private final StreamingRead read;
  private final Integer parallelism;
  private final String name;
  private RowType rowType;

  /** @param parallelism the read tasks ({@code read.tasks}), null for the job's parallelism */
  public HudiStreamingTableSource(TableToRead table, StreamingRead read, RowType rowType, Integer parallelism, String name) {
    this.table = table;
    this.read = read;
    this.rowType = rowType;
    this.parallelism = parallelism;
    this.name = name;
  }

  @Override
  public ChangelogMode getChangelogMode() {
    return ChangelogMode.upsert();
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    return SourceProvider.of(new HudiChangeSource(table, read, rowType), parallelism);
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
  public DynamicTableSource copy() {
    return new HudiStreamingTableSource(table, read, rowType, parallelism, name);
  }

  @Override
  public String asSummaryString() {
    return "hudi(" + name + ", streaming)";
  }
}
