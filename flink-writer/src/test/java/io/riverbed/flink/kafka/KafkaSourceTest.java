package io.riverbed.flink.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
  void aBadRecordNamesItsPartitionAndOffset() {
    broker.createTopic("bad", 1);
    broker.send("bad", 0, List.of("{\"id\": \"a\", \"ts\": 1}", "{\"id\": \"b\", \"ts\": \"soon\"}"));
    assertThatThrownBy(() -> read("bad", "g2", BadRecordPolicy.FAIL))
        .rootCause().hasMessage("bad record at offset 1 of Kafka partition bad-0: field 'ts': expected an integer, "
            + "got \"soon\" (use --on-bad-record skip to skip such records)");
  }
}
