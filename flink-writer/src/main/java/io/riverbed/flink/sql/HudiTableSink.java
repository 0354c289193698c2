package io.riverbed.flink.sql;

import io.riverbed.flink.job.TableSinkBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The sink of a {@code hudi} table: hands the rows of an {@code INSERT} to the table writer.
 * Accepts an upsert changelog (INSERT, UPDATE_AFTER, DELETE; UPDATE_BEFORE is not needed as the
 * record key identifies the row). Static partitions of {@code INSERT ... PARTITION (p = 'x')}
 * need nothing here: the planner puts their values into the rows. The planner's upsert
 * materializer is taken off the input ({@link SinkMaterializerBypass}) unless
 * {@code table.exec.sink.upsert-materialize=FORCE}: it drops deletes of keys the job has not seen.
 */
final class HudiTableSink implements DynamicTableSink, SupportsPartitioning {
  private static final ChangelogMode UPSERT = ChangelogMode.newBuilder()
      .addContainedKind(RowKind.INSERT)
      .addContainedKind(RowKind.UPDATE_AFTER)
      .addContainedKind(RowKind.DELETE)
      .build();

  private final TableSinkBuilder writer;
  private final RowType rowType;
  private final Map<String, String> options;
  private final String tableName;
  private final boolean keepMaterializer;
  private Map<String, String> staticPartition = Map.of();

  HudiTableSink(TableSinkBuilder writer, RowType rowType, Map<String, String> options, String tableName,
      boolean keepMaterializer) {
    this.writer = writer;
    this.rowType = rowType;
    this.options = options;
    this.tableName = tableName;
    this.keepMaterializer = keepMaterializer;
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
    return UPSERT;
  }

  @Override
  public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
    return new WriterProvider(writer, rowType, Map.copyOf(options), keepMaterializer);
  }

  @Override
  public void applyStaticPartition(Map<String, String> partition) {
    this.staticPartition = new LinkedHashMap<>(partition);
  }

  Map<String, String> staticPartition() {
    return staticPartition;
  }

  Map<String, String> options() {
    return options;
  }

  @Override
  public DynamicTableSink copy() {
    HudiTableSink copy = new HudiTableSink(writer, rowType, options, tableName, keepMaterializer);
    copy.staticPartition = staticPartition;
    return copy;
  }

  @Override
  public String asSummaryString() {
    return "hudi(" + tableName + ")";
  }

  /** Attaches the writer to the planner's stream (a class, not a lambda: see STACK.md). */
  private static final class WriterProvider implements DataStreamSinkProvider {
    private final TableSinkBuilder writer;
    private final RowType rowType;
    private final Map<String, String> options;
    private final boolean keepMaterializer;

    WriterProvider(TableSinkBuilder writer, RowType rowType, Map<String, String> options, boolean keepMaterializer) {
      this.writer = writer;
      this.rowType = rowType;
      this.options = options;
      this.keepMaterializer = keepMaterializer;
    }

    @Override
    public DataStreamSink<?> consumeDataStream(ProviderContext providerContext, DataStream<RowData> dataStream) {
      DataStream<RowData> rows = keepMaterializer ? dataStream : SinkMaterializerBypass.upstreamOf(dataStream);
      return writer.build(rows, rowType, options);
    }
  }
}
