package io.riverbed.flink.read;

import io.riverbed.format.query.ColumnPredicate;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The bounded Flink source of a Riverbed/Hudi table (FLIP-27): its enumerator plans the query with
 * the core's planner on the JobManager and hands out file slices on demand; its readers read them
 * into rows of {@code rowType}, columns matched to the table's by name, skipping the base files and
 * row groups whose statistics rule out every row of a pushed-down filter.
 */
public final class HudiSource implements Source<RowData, FileSliceSplit, PendingSplits> {
  private static final long serialVersionUID = 1L;

  private final TableToRead table;
  private final ReadQuery query;
  private final RowType rowType;
  private final List<Map<String, String>> partitions;
  private final long limit;
  private final ColumnPredicate filter;

  /**
   * @param partitions the partitions to read (column values as Flink's partition specs); null: all
   * @param limit rows each reader emits at most; {@code Long.MAX_VALUE} for no limit
   * @param filter the pushed-down filter readers skip base files and row groups by; null: none
   */
  public HudiSource(TableToRead table, ReadQuery query, RowType rowType, List<Map<String, String>> partitions, long limit,
      ColumnPredicate filter) {
    this.table = table;
    this.query = query;
    this.rowType = rowType;
    this.partitions = partitions == null ? null : List.copyOf(partitions);
    this.limit = limit;
    this.filter = filter;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.BOUNDED;
  }

  @Override
  public SourceReader<RowData, FileSliceSplit> createReader(SourceReaderContext readerContext) {
    return new FileSliceReader(readerContext, table, rowType, limit, false, Optional.ofNullable(filter));
  }

  @Override
  public SplitEnumerator<FileSliceSplit, PendingSplits> createEnumerator(SplitEnumeratorContext<FileSliceSplit> context) {
    return restoreEnumerator(context, PendingSplits.notPlanned());
  }

  @Override
  public SplitEnumerator<FileSliceSplit, PendingSplits> restoreEnumerator(SplitEnumeratorContext<FileSliceSplit> context,
      PendingSplits checkpoint) {
    return new FileSliceEnumerator(context,
        () -> SlicePlanner.plan(table, query, Optional.ofNullable(partitions).map(HashSet::new)), checkpoint);
  }

  @Override
  public SimpleVersionedSerializer<FileSliceSplit> getSplitSerializer() {
    return FileSliceSplitSerializer.INSTANCE;
  }

  @Override
  public SimpleVersionedSerializer<PendingSplits> getEnumeratorCheckpointSerializer() {
    return PendingSplitsSerializer.INSTANCE;
  }
}
