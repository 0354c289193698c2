package io.riverbed.flink.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.Orders;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming source emits every committed change exactly once across failures: a job reading a
 * MERGE_ON_READ table from its earliest commit fails in the middle of file slices, twice, and is
 * restored from its checkpoints while commits (inserts, deletes, a compaction) keep landing; the
 * rows it emitted, counted through Flink's checkpointed collect, are each commit's changes once.
 * The commits begin once the rows of the first one arrived, the table as of which the read starts.
 * Every commit touches keys no other commit touches, so the changes do not depend on how the
 * source's looks at the timeline group the commits.
 */
class ChangeSourceExactlyOnceTest {
  private static final RowType ROW = (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.STRING()),
      DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("ts", DataTypes.BIGINT()),
      DataTypes.FIELD("dt", DataTypes.STRING())).getLogicalType();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir
  Path dir;

  @AfterEach
  void disarm() {
    FaultInjection.reset();
  }

  @Test
  void failuresInTheMiddleOfSlicesNeitherRepeatNorLoseAChange() throws Exception {
    TableConfig config = Orders.config(TableType.MERGE_ON_READ);
    Table table = Table.create(FileSystem.getLocal(new org.apache.hadoop.conf.Configuration()),
        new org.apache.hadoop.fs.Path(dir.toUri().toString(), "orders"), config);
    SingleTaskEngine engine = new SingleTaskEngine(table, Orders.SCHEMA, WriteOptions.fromMap(Map.of()));
    RecordKeyer keyer = RecordKeyer.forTable(config);
    List<String> expected = new ArrayList<>();
    List<WriteRecord> initial = new ArrayList<>();
    for (int k = 0; k < 40; k++) {
      initial.add(keyer.toWriteRecord(order("k" + k, 1)));
      expected.add("+I(k" + k + ",n1,1," + day(k) + ")");
    }
    engine.write(WriteOperationType.UPSERT, initial, Map.of());

    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    StreamingRead read = new StreamingRead(ReadQuery.EARLIEST, Duration.ofSeconds(1), false, null);
    HudiChangeSource source = new HudiChangeSource(new TableToRead(table.basePath().toString(), Map.of()), read, ROW);
    FaultInjection.arm(FaultInjection.SOURCE_DURING_SPLIT, 2, 7);

    int commits = 8;
    for (int c = 0; c < commits; c++) {
      expected.addAll(expectedOf(c));
    }
    List<String> emitted = new ArrayList<>();
    try (CloseableIterator<RowData> rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders changes")
        .executeAndCollect("change source exactly once")) {
      CompletableFuture<Void> reading = CompletableFuture.runAsync(() -> {
        while (emitted.size() < expected.size() && rows.hasNext()) {
          RowData r = rows.next();
          synchronized (emitted) {
            emitted.add(r.getRowKind().shortString() + "(" + r.getString(0) + "," + (r.isNullAt(1) ? "" : r.getString(1))
                + "," + (r.isNullAt(2) ? "" : r.getLong(2)) + "," + r.getString(3) + ")");
          }
        }
      });
      awaitEmitted(emitted, initial.size()); // the read placed itself at the first commit: its snapshot is that commit
      for (int c = 0; c < commits; c++) {
        write(engine, keyer, c);
        if (c == 4) {
          String compaction = CompactionScheduler.of(table.reload()).options(CompactionOptions.defaults().withThresholds(1, 0))
              .execute().instantTime().orElseThrow();
          CompactionRunner.of(table.reload(), compaction).execute();
        }
        Thread.sleep(300);
      }
      try {
        reading.get(3, TimeUnit.MINUTES);
      } catch (java.util.concurrent.TimeoutException e) {
        synchronized (emitted) {
          List<String> missing = new ArrayList<>(expected);
          emitted.forEach(missing::remove);
          List<String> extra = new ArrayList<>(emitted);
          expected.forEach(extra::remove);
          throw new AssertionError("after 3 minutes " + emitted.size() + " of " + expected.size() + " changes; missing "
              + missing + ", not expected " + extra, e);
        }
      }
    }
    assertThat(FaultInjection.fired(FaultInjection.SOURCE_DURING_SPLIT)).isEqualTo(2);
    assertThat(emitted).containsExactlyInAnyOrderElementsOf(expected);
  }

  private static void awaitEmitted(List<String> emitted, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (true) {
      synchronized (emitted) {
        if (emitted.size() >= n) {
          return;
        }
      }
      assertThat(System.nanoTime()).as("%s rows of the first commit within two minutes", n).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  /** Commit {@code c}: even commits insert four new keys, odd ones delete four keys of the first commit. */
  private static void write(SingleTaskEngine engine, RecordKeyer keyer, int c) {
    List<WriteRecord> batch = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      if (c % 2 == 0) {
        batch.add(keyer.toWriteRecord(order("n" + c + "_" + i, c + 2)));
      } else {
        int k = c * 4 + i;
        batch.add(WriteRecord.delete("k" + k, day(k), 0));
      }
    }
    engine.write(c % 2 == 0 ? WriteOperationType.UPSERT : WriteOperationType.DELETE, batch, Map.of());
  }

  private static List<String> expectedOf(int c) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      if (c % 2 == 0) {
        String id = "n" + c + "_" + i;
        out.add("+I(" + id + ",n" + (c + 2) + "," + (c + 2) + "," + day(id) + ")");
      } else {
        int k = c * 4 + i;
        out.add("-D(k" + k + ",,," + day(k) + ")");
      }
    }
    return out;
  }

  private static String day(int k) {
    return Orders.DAYS.get(k % 2);
  }

  private static String day(String id) {
    return Orders.DAYS.get(Math.floorMod(id.hashCode(), 2));
  }

  private static GenericRecord order(String id, long ts) {
    GenericRecord r = new GenericData.Record(Orders.SCHEMA);
    r.put("id", id);
    r.put("name", "n" + ts);
    r.put("ts", ts);
    r.put("dt", id.startsWith("k") ? day(Integer.parseInt(id.substring(1))) : day(id));
    return r;
  }
}
