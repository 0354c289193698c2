package io.riverbed.flink.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.job.JobCheckpointFolders;
import io.riverbed.flink.job.TableSinkBuilder;
import io.riverbed.flink.job.WriteJob;
import io.riverbed.flink.job.WriteJobArguments;
import io.riverbed.flink.job.WriteJobConfig;
import io.riverbed.flink.job.WriteJobEndToEndTest;
import io.riverbed.flink.source.BadRecordPolicy;
import io.riverbed.flink.source.JsonLineSources;
import io.riverbed.flink.source.JsonLineSources.StartingOffsets;
import io.riverbed.flink.source.JsonLineToRow;
import io.riverbed.flink.source.JsonRowConverter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The job's Kafka source against a real KRaft broker (child JVM), into a collect sink. */
class KafkaSourceTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir static Path work;
  static KafkaBroker broker;

  private static final RowType ROW = (RowType) DataTypes.ROW(
      DataTypes.FIELD("id", DataTypes.STRING().notNull()), DataTypes.FIELD("ts", DataTypes.BIGINT())).getLogicalType();

  @BeforeAll
  static void startBroker() throws Exception {
    broker = KafkaBroker.start(work.resolve("kafka"));
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  private static List<String> read(String topic, String group, BadRecordPolicy policy) throws Exception {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(300));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    var rows = env.fromSource(JsonLineSources.kafka(broker.bootstrapServers(), topic, group, StartingOffsets.COMMITTED, true),
            WatermarkStrategy.noWatermarks(), "kafka")
        .flatMap(new JsonLineToRow(JsonRowConverter.of(ROW), policy, RowKind.INSERT), InternalTypeInfo.of(ROW));
    List<String> out = new ArrayList<>();
    try (CloseableIterator<RowData> it = rows.executeAndCollect("read " + topic)) {
      it.forEachRemaining(r -> out.add(r.getRowKind().shortString() + "(" + r.getString(0) + "," + r.getLong(1) + ")"));
    }
    return out;
  }

  @Test
  void readsJsonValuesOfEveryPartitionUpToTheLatestOffsets() throws Exception {
    broker.createTopic("orders", 2);
    broker.send("orders", 0, List.of("{\"id\": \"a\", \"ts\": 1}", "{\"id\": \"b\", \"ts\": 2}"));
    broker.send("orders", 1, List.of("{\"id\": \"c\", \"ts\": 3}", "not json", ""));
    assertThat(read("orders", "g1", BadRecordPolicy.SKIP)).containsExactlyInAnyOrder("+I(a,1)", "+I(b,2)", "+I(c,3)");
  }

  @Test
  void writeJobFromAKafkaTopicIntoAMergeOnReadTable() throws Exception {
    broker.createTopic("trips", 2);
    broker.send("trips", 0, List.of("{\"id\": \"t1\", \"ts\": 1, \"amount\": 5.0, \"region\": \"eu\"}",
        "{\"id\": \"t1\", \"ts\": 2, \"amount\": 6.0, \"region\": \"eu\"}"));
    broker.send("trips", 1, List.of("{\"id\": \"t2\", \"ts\": 1, \"amount\": 7.0, \"region\": \"us\"}"));
    Path schema = java.nio.file.Files.writeString(work.resolve("trips.avsc"), """
        {"type": "record", "name": "trip", "fields": [{"name": "id", "type": "string"}, {"name": "ts", "type": "long"},
          {"name": "amount", "type": ["null", "double"]}, {"name": "region", "type": ["null", "string"]}]}""");
    Path table = work.resolve("trips");
    WriteJobConfig config = WriteJobArguments.parse("--source", "kafka", "--bootstrap-servers", broker.bootstrapServers(),
        "--topic", "trips", "--group-id", "trips-writer", "--bounded", "--schema", schema.toString(),
        "--table-path", table.toString(), "--table-name", "trips", "--table-type", "MERGE_ON_READ",
        "--record-key", "id", "--precombine", "ts", "--partition-path", "region",
        "--checkpoint-interval", "300ms", "--parallelism", "2",
        "--checkpoint-dir", JobCheckpointFolders.create("kafka").toString());
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(WriteJob.flinkConfiguration(config));
    WriteJob.run(config, env, TableSinkBuilder.tableWriter());
    assertThat(WriteJobEndToEndTest.snapshot(table)).containsExactlyEntriesOf(new java.util.TreeMap<>(java.util.Map.of(
        "t1", "6.0|2|eu", "t2", "7.0|1|us")));
  }

  /** Waits (up to a minute) until the table's snapshot equals {@code expected}. */
  private static void awaitSnapshot(Path table, java.util.Map<String, String> expected) throws Exception {
    java.util.concurrent.atomic.AtomicReference<java.util.Map<String, String>> seen =
        new java.util.concurrent.atomic.AtomicReference<>(java.util.Map.of());
    io.riverbed.format.testing.Await.await("the table's snapshot", java.time.Duration.ofMinutes(1))
        .every(java.time.Duration.ofMillis(200))
        .within(() -> {
          if (java.nio.file.Files.exists(table.resolve(".hoodie").resolve("hoodie.properties"))) {
            seen.set(WriteJobEndToEndTest.snapshot(table));
          }
          return seen.get().equals(expected);
        });
    assertThat(seen.get()).as("table snapshot").containsExactlyInAnyOrderEntriesOf(expected);
  }

  @Test
  void anUnboundedJobCancelledAndRestoredFromTheLatestCheckpointContinues() throws Exception {
    broker.createTopic("resume", 1);
    broker.send("resume", 0, List.of("{\"id\": \"r1\", \"ts\": 1, \"amount\": 1.0, \"region\": \"eu\"}",
        "{\"id\": \"r2\", \"ts\": 1, \"amount\": 2.0, \"region\": \"eu\"}"));
    Path schema = java.nio.file.Files.writeString(work.resolve("resume.avsc"), """
        {"type": "record", "name": "r", "fields": [{"name": "id", "type": "string"}, {"name": "ts", "type": "long"},
          {"name": "amount", "type": ["null", "double"]}, {"name": "region", "type": ["null", "string"]}]}""");
    Path table = work.resolve("resume-table");
    List<String> args = new ArrayList<>(List.of("--source", "kafka", "--bootstrap-servers", broker.bootstrapServers(),
        "--topic", "resume", "--schema", schema.toString(), "--starting-offsets", "earliest",
        "--table-path", table.toString(), "--table-name", "resume", "--table-type", "MERGE_ON_READ",
        "--record-key", "id", "--precombine", "ts", "--partition-path", "region",
        "--checkpoint-interval", "300ms", "--checkpoint-dir", JobCheckpointFolders.create("kafka").toString(), "--parallelism", "1"));

    WriteJobConfig first = WriteJobArguments.parse(args.toArray(new String[0]));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(WriteJob.flinkConfiguration(first));
    WriteJob.build(first, env, TableSinkBuilder.tableWriter());
    var job = env.executeAsync("first");
    awaitSnapshot(table, java.util.Map.of("r1", "1.0|1|eu", "r2", "2.0|1|eu"));
    job.cancel().get();

    broker.send("resume", 0, List.of("{\"id\": \"r2\", \"ts\": 2, \"amount\": 20.0, \"region\": \"eu\"}",
        "{\"id\": \"r3\", \"ts\": 1, \"amount\": 3.0, \"region\": \"us\"}"));
    args.addAll(List.of("--restore", "latest"));
    WriteJobConfig second = WriteJobArguments.parse(args.toArray(new String[0]));
    var conf = WriteJob.flinkConfiguration(second);
    assertThat(conf.get(org.apache.flink.configuration.StateRecoveryOptions.SAVEPOINT_PATH)).contains("chk-");
    StreamExecutionEnvironment env2 = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    WriteJob.build(second, env2, TableSinkBuilder.tableWriter());
    var job2 = env2.executeAsync("second");
    awaitSnapshot(table, java.util.Map.of("r1", "1.0|1|eu", "r2", "20.0|2|eu", "r3", "3.0|1|us"));
    job2.cancel().get();
  }

  /**
   * Two bounded runs of the same group with starting offsets {@code committed}, no restore: the
   * second writes only the records sent after the first ended, never the first run's again (a
   * replay rewrites old values over newer ones), with two threads loading the CPU throughout.
   */
  @Test
  void aSecondBoundedRunContinuesAfterWhatTheFirstCommittedToTheTable() throws Exception {
    broker.createTopic("rerun", 2);
    List<String> batch1 = new ArrayList<>();
    List<String> batch2 = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      batch1.add("{\"id\": \"k" + i + "\", \"ts\": 1, \"amount\": 1.0, \"region\": \"eu\"}");
      if (i % 3 == 0) {
        batch2.add("{\"id\": \"k" + i + "\", \"ts\": 2, \"amount\": 2.0, \"region\": \"eu\"}");
      }
    }
    Path schema = java.nio.file.Files.writeString(work.resolve("rerun.avsc"), """
        {"type": "record", "name": "r", "fields": [{"name": "id", "type": "string"}, {"name": "ts", "type": "long"},
          {"name": "amount", "type": ["null", "double"]}, {"name": "region", "type": ["null", "string"]}]}""");
    Path table = work.resolve("rerun-table");
    String[] args = {"--source", "kafka", "--bootstrap-servers", broker.bootstrapServers(), "--topic", "rerun",
        "--group-id", "rerun-writer", "--bounded", "--schema", schema.toString(), "--table-path", table.toString(),
        "--table-name", "rerun", "--table-type", "MERGE_ON_READ", "--record-key", "id", "--precombine", "no_precombine",
        "--partition-path", "region", "--checkpoint-interval", "100ms", "--parallelism", "2",
        "--checkpoint-dir", JobCheckpointFolders.create("kafka-rerun").toString()};
    try (var load = io.riverbed.format.testing.CpuLoad.start(2)) {
      broker.send("rerun", 0, batch1.subList(0, 150));
      broker.send("rerun", 1, batch1.subList(150, 300));
      runBounded(args);
      var afterFirst = WriteJobEndToEndTest.completedCommits(table);
      broker.send("rerun", 0, batch2.subList(0, 50));
      broker.send("rerun", 1, batch2.subList(50, 100));
      runBounded(args);
      long written = WriteJobEndToEndTest.recordsWrittenAfter(table, afterFirst);
      assertThat(written).as("records the second run wrote (batch 2 only)").isEqualTo(batch2.size());
    }
    var snapshot = WriteJobEndToEndTest.snapshot(table);
    assertThat(snapshot).hasSize(300);
    assertThat(snapshot.values().stream().filter(v -> v.startsWith("2.0|2|")).count()).isEqualTo(100);
  }

  private static void runBounded(String[] args) throws Exception {
    WriteJobConfig config = WriteJobArguments.parse(args);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(WriteJob.flinkConfiguration(config));
    WriteJob.run(config, env, TableSinkBuilder.tableWriter());
  }

  @Test
  void aBadRecordNamesItsPartitionAndOffset() {
    broker.createTopic("bad", 1);
    broker.send("bad", 0, List.of("{\"id\": \"a\", \"ts\": 1}", "{\"id\": \"b\", \"ts\": \"soon\"}"));
    assertThatThrownBy(() -> read("bad", "g2", BadRecordPolicy.FAIL))
        .rootCause().hasMessage("bad record at offset 1 of Kafka partition bad-0: field 'ts': expected an integer, "
            + "got \"soon\" (use --on-bad-record skip to skip such records)");
  }
}
