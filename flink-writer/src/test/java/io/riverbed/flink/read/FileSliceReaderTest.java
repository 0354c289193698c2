package io.riverbed.flink.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.query.ColumnPredicate;
import io.riverbed.format.query.QueryType;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.NewFileGroupCommits;
import io.riverbed.format.testing.Orders;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.util.UserCodeClassLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source reader's protocol step by step, without a cluster: it asks for splits, reads them,
 * and a reader restored from its checkpointed state (through the split serializer) emits exactly
 * the rows the first one had not emitted.
 */
class FileSliceReaderTest {
  private static final RowType ROW = RowType.of(new org.apache.flink.table.types.logical.LogicalType[] {
      new VarCharType(VarCharType.MAX_LENGTH), new BigIntType()}, new String[] {"id", "ts"});

  private static TableToRead ordersTable(Path dir, int rows) throws Exception {
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(dir.resolve("orders").toUri());
    Table table = Table.create(base.getFileSystem(new org.apache.hadoop.conf.Configuration()), base,
        Orders.config(TableType.COPY_ON_WRITE));
    List<GenericRecord> records = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      GenericRecord r = new GenericData.Record(Orders.SCHEMA);
      r.put("id", "k" + i);
      r.put("name", "n" + i);
      r.put("ts", (long) i);
      r.put("dt", Orders.DAYS.get(i % 2));
      records.add(r);
    }
    NewFileGroupCommits.commit(table, Orders.SCHEMA, records);
    return new TableToRead(base.toString(), Map.of());
  }

  @Test
  void aReaderRestoredFromItsCheckpointEmitsExactlyTheRowsNotYetEmitted(@TempDir Path dir) throws Exception {
    TableToRead table = ordersTable(dir, 40);
    List<FileSliceSplit> splits = SlicePlanner.plan(table, new ReadQuery(QueryType.SNAPSHOT, null, null), Optional.empty());
    assertThat(splits).as("one slice per day").hasSize(2);

    CountingContext firstContext = new CountingContext();
    FileSliceReader first = new FileSliceReader(firstContext, table, ROW, Long.MAX_VALUE, false);
    first.start();
    assertThat(firstContext.splitRequests).isEqualTo(1);
    first.addSplits(splits);
    Rows emitted = new Rows();
    for (int i = 0; i < 25; i++) {
      assertThat(first.pollNext(emitted)).isEqualTo(InputStatus.MORE_AVAILABLE);
    }
    List<byte[]> state = new ArrayList<>();
    for (FileSliceSplit s : first.snapshotState(1)) {
      state.add(FileSliceSplitSerializer.INSTANCE.serialize(s));
    }
    first.close();

    CountingContext secondContext = new CountingContext();
    FileSliceReader second = new FileSliceReader(secondContext, table, ROW, Long.MAX_VALUE, false);
    List<FileSliceSplit> restored = new ArrayList<>();
    for (byte[] bytes : state) {
      restored.add(FileSliceSplitSerializer.INSTANCE.deserialize(FileSliceSplitSerializer.INSTANCE.getVersion(), bytes));
    }
    second.addSplits(restored);
    second.start();
    InputStatus status;
    while ((status = second.pollNext(emitted)) == InputStatus.MORE_AVAILABLE) {
      assertThat(emitted.ids).hasSizeLessThanOrEqualTo(40);
    }
    assertThat(status).as("no more rows until the enumerator answers").isEqualTo(InputStatus.NOTHING_AVAILABLE);
    assertThat(second.isAvailable()).isNotDone();
    second.notifyNoMoreSplits();
    assertThat(second.isAvailable()).isDone();
    assertThat(second.pollNext(emitted)).isEqualTo(InputStatus.END_OF_INPUT);
    second.close();

    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      expected.add("k" + i + "|" + i);
    }
    assertThat(emitted.ids).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aPushedDownLimitEndsTheReaderAfterThatManyRows(@TempDir Path dir) throws Exception {
    TableToRead table = ordersTable(dir, 10);
    FileSliceReader reader = new FileSliceReader(new CountingContext(), table, ROW, 3, false);
    reader.start();
    reader.addSplits(SlicePlanner.plan(table, new ReadQuery(QueryType.SNAPSHOT, null, null), Optional.empty()));
    Rows emitted = new Rows();
    while (reader.pollNext(emitted) == InputStatus.MORE_AVAILABLE) {
      assertThat(emitted.ids).hasSizeLessThanOrEqualTo(3);
    }
    reader.close();
    assertThat(emitted.ids).hasSize(3);
  }

  /** Collects the emitted rows as {@code id|ts}. */
  @Test
  void aFilterSkipsTheBaseFilesWhoseStatisticsRuleOutEveryRowAndKeepsEveryMatchingRow(@TempDir Path dir) throws Exception {
    TableToRead table = OrdersInSeveralBaseFiles.write(dir);
    List<FileSliceSplit> splits = SlicePlanner.plan(table, new ReadQuery(QueryType.SNAPSHOT, null, null), Optional.empty());
    assertThat(splits).as("a base file per commit and day").hasSize(8);
    ColumnPredicate filter = new ColumnPredicate.Or(new ColumnPredicate.Comparison("ts", ColumnPredicate.Operator.LT, 3L),
        new ColumnPredicate.Comparison("ts", ColumnPredicate.Operator.GT_EQ, 35L));

    FileSliceReader reader = new FileSliceReader(new CountingContext(), table, ROW, Long.MAX_VALUE, false, Optional.of(filter));
    reader.addSplits(splits);
    reader.notifyNoMoreSplits();
    Rows emitted = new Rows();
    while (reader.pollNext(emitted) != InputStatus.END_OF_INPUT) {
      // reads every split
    }
    reader.close();

    assertThat(reader.pruningCounts().baseFilesSkipped()).as("files of ts 10..29").isEqualTo(4);
    assertThat(reader.pruningCounts().baseFilesRead()).isEqualTo(4);
    assertThat(reader.pruningCounts().rowGroupsSkipped()).isEqualTo(4);
    assertThat(emitted.ids).as("whole files are read: rows of ts 0..9 and 30..39").hasSize(20)
        .contains("k0|0", "k1|1", "k2|2", "k35|35", "k36|36", "k37|37", "k38|38", "k39|39");
  }

  private static final class Rows implements ReaderOutput<RowData> {
    final List<String> ids = new ArrayList<>();

    @Override
    public void collect(RowData row) {
      ids.add(row.getString(0) + "|" + row.getLong(1));
    }

    @Override
    public void collect(RowData row, long timestamp) {
      collect(row);
    }

    @Override
    public void emitWatermark(Watermark watermark) {}

    @Override
    public void markIdle() {}

    @Override
    public void markActive() {}

    @Override
    public SourceOutput<RowData> createOutputForSplit(String splitId) {
      return this;
    }

    @Override
    public void releaseOutputForSplit(String splitId) {}
  }

  /** Counts the reader's split requests. */
  private static final class CountingContext implements SourceReaderContext {
    int splitRequests;

    @Override
    public SourceReaderMetricGroup metricGroup() {
      return UnregisteredMetricsGroup.createSourceReaderMetricGroup();
    }

    @Override
    public Configuration getConfiguration() {
      return new Configuration();
    }

    @Override
    public String getLocalHostName() {
      return "localhost";
    }

    @Override
    public int getIndexOfSubtask() {
      return 0;
    }

    @Override
    public void sendSplitRequest() {
      splitRequests++;
    }

    @Override
    public void sendSourceEventToCoordinator(SourceEvent sourceEvent) {}

    @Override
    public UserCodeClassLoader getUserCodeClassLoader() {
      throw new UnsupportedOperationException("not used by the reader");
    }

    @Override
    public int currentParallelism() {
      return 1;
    }
  }
}
