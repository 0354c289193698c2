package io.riverbed.flink.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.format.consumer.ConsumerRegistry;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.timeline.Action;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline of two tables: one job streams the changes of table A into table B
 * ({@code INSERT INTO b SELECT ... FROM a} with {@code read.streaming.enabled}) while other jobs
 * keep writing A (inserts, updates, deletes) with compaction and cleaning on, and the streaming
 * job fails twice in the middle of reading file slices. B ends equal to A, row for row, and the
 * streaming read is recorded as a consumer of A.
 */
class StreamingPipelineTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(6).build());

  @TempDir
  Path dir;

  @AfterEach
  void disarm() {
    FaultInjection.reset();
  }

  private static StreamTableEnvironment environment(int parallelism, boolean restarts) {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    if (restarts) {
      conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
      conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
      conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(parallelism);
    return StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
  }

  private static String ddl(String name, Path path, String columns, String options) {
    return """
        CREATE TABLE %s (id STRING, ts BIGINT, fare DOUBLE, city STRING%s, PRIMARY KEY (id) NOT ENFORCED)
        PARTITIONED BY (city)
        WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = 'MERGE_ON_READ'%s)"""
        .formatted(name, columns, path.toUri(), options);
  }

  @Test
  void tableBFollowsTableAThroughCompactionCleaningAndFailures() throws Exception {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    StreamTableEnvironment writes = environment(1, false);
    writes.executeSql(ddl("a", a, ", _hoodie_is_deleted BOOLEAN", ", 'compaction.async.enabled' = 'true', "
        + "'compaction.delta_commits' = '2', 'clean.retain_commits' = '2'"));
    writes.executeSql("INSERT INTO a VALUES " + round(0)).await();

    StreamTableEnvironment pipeline = environment(2, true);
    pipeline.executeSql(ddl("a", a, "", ", 'read.streaming.enabled' = 'true', 'read.start-commit' = 'earliest', "
        + "'read.streaming.check-interval' = '1', 'consumer-id' = 'a-to-b', 'read.tasks' = '2'"));
    pipeline.executeSql(ddl("b", b, "", ", 'write.tasks' = '2'"));
    FaultInjection.arm(FaultInjection.SOURCE_DURING_SPLIT, 3, 9);
    JobClient job = pipeline.executeSql("INSERT INTO b SELECT id, ts, fare, city FROM a").getJobClient().orElseThrow();
    try {
      for (int r = 1; r <= 10; r++) {
        writes.executeSql("INSERT INTO a VALUES " + round(r)).await();
      }
      Map<String, String> expected = rows(a);
      awaitEqual(b, expected);
      assertThat(FaultInjection.fired(FaultInjection.SOURCE_DURING_SPLIT)).isEqualTo(2);
      Table tableA = open(a);
      assertThat(tableA.refreshTimeline().ofAction(Action.CLEAN).completed().instants()).as("A was cleaned").isNotEmpty();
      assertThat(tableA.refreshTimeline().ofAction(Action.COMMIT).completed().instants()).as("A was compacted")
          .isNotEmpty();
      assertThat(ConsumerRegistry.of(tableA).get("a-to-b")).as("the streaming read is A's consumer").isPresent();
    } finally {
      job.cancel().get(1, TimeUnit.MINUTES);
    }
  }

  /**
   * Round {@code r}'s rows of A: keys k0..k11; each round updates four keys, inserts new ones and
   * deletes one (with {@code _hoodie_is_deleted}) of an earlier round.
   */
  private static String round(int r) {
    StringBuilder sql = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      int key = (r * 3 + i) % 12;
      sql.append(sql.isEmpty() ? "" : ", ").append("('k").append(key).append("', ").append(r + 1).append(", ")
          .append(r * 10 + i).append(".5, '").append(key % 2 == 0 ? "x" : "y").append("', false)");
    }
    if (r >= 2) {
      int deleted = (r * 5) % 12;
      sql.append(", ('k").append(deleted).append("', ").append(r + 2).append(", 0.0, '").append(deleted % 2 == 0 ? "x" : "y")
          .append("', true)");
    }
    return sql.toString();
  }

  private static Table open(Path path) throws Exception {
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(path.toUri());
    return Table.open(base.getFileSystem(new org.apache.hadoop.conf.Configuration()), base);
  }

  /** The table's snapshot as key -> "ts,fare,city". */
  private static Map<String, String> rows(Path path) throws Exception {
    Map<String, String> out = new TreeMap<>();
    for (GenericRecord r : TableReads.read(open(path), QuerySpec.snapshot())) {
      out.put(r.get("id").toString(), r.get("ts") + "," + r.get("fare") + "," + r.get("city"));
    }
    return out;
  }

  private static void awaitEqual(Path b, Map<String, String> expected) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    Map<String, String> actual = Map.of();
    while (System.nanoTime() < deadline) {
      org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(b.toUri());
      if (Table.exists(base.getFileSystem(new org.apache.hadoop.conf.Configuration()), base)) {
        actual = rows(b);
        if (actual.equals(expected)) {
          return;
        }
      }
      Thread.sleep(500);
    }
    assertThat(actual).as("table B three minutes after A's last commit").isEqualTo(expected);
  }
}
