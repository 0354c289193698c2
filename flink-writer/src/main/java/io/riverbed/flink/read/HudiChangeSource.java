package io.riverbed.flink.read;

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
 * The unbounded Flink source of a Riverbed/Hudi table (FLIP-27): the changes of every commit, as
 * upserts and deletes of keys, each commit's once and in commit order per key, positions in
 * checkpoints so that a restored job neither repeats nor loses a change.
 */
public final class HudiChangeSource implements Source<RowData, FileSliceSplit, ChangeStreamState> {
  private static final long serialVersionUID = 1L;

  private final TableToRead table;
  private final StreamingRead read;
  private final RowType rowType;

  public HudiChangeSource(TableToRead table, StreamingRead read, RowType rowType) {
    this.table = table;
    this.read = read;
    this.rowType = rowType;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<RowData, FileSliceSplit> createReader(SourceReaderContext readerContext) {
    return new FileSliceReader(readerContext, table, rowType, Long.MAX_VALUE, true);
  }

  @Override
  public SplitEnumerator<FileSliceSplit, ChangeStreamState> createEnumerator(
      SplitEnumeratorContext<FileSliceSplit> context) {
    return restoreEnumerator(context, ChangeStreamState.initial());
  }

  @Override
  public SplitEnumerator<FileSliceSplit, ChangeStreamState> restoreEnumerator(
      SplitEnumeratorContext<FileSliceSplit> context, ChangeStreamState checkpoint) {
    return new ChangeEnumerator(context, table, read, checkpoint);
  }

  @Override
  public SimpleVersionedSerializer<FileSliceSplit> getSplitSerializer() {
    return FileSliceSplitSerializer.INSTANCE;
  }

  @Override
  public SimpleVersionedSerializer<ChangeStreamState> getEnumeratorCheckpointSerializer() {
    return ChangeStreamStateSerializer.INSTANCE;
  }
}
