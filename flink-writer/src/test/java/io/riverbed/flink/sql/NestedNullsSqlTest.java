package io.riverbed.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.table.Table;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Null array elements, map values and nested row fields through {@code INSERT INTO} a {@code hudi} table. */
class NestedNullsSqlTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  private static TableEnvironment tEnv;

  @TempDir
  Path dir;

  /** Restarts without end: a failure Flink took for recoverable would never end the job. */
  @BeforeAll
  static void tableEnvironment() {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Integer.MAX_VALUE);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(1);
    tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
  }

  private void createTable(String name, String tableType, String extraOptions) {
    tEnv.executeSql("""
        CREATE TABLE %s (id STRING, ts BIGINT, tags ARRAY<INT>, attrs MAP<STRING, STRING>,
          address ROW<city STRING, zip STRING>, PRIMARY KEY (id) NOT ENFORCED)
        WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = '%s'%s)"""
        .formatted(name, dir.resolve(name).toUri(), tableType, extraOptions));
  }

  private List<String> read(String name) throws Exception {
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(dir.resolve(name).toUri());
    Table t = Table.open(base.getFileSystem(new org.apache.hadoop.conf.Configuration()), base);
    List<String> out = new ArrayList<>();
    for (GenericRecord r : TableReads.read(t, QuerySpec.snapshot())) {
      out.add(r.get("id") + " " + r.get("tags") + " " + r.get("attrs") + " " + r.get("address"));
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void aNullArrayElementFailsTheJobOnceNamingTheRecordAndField(String tableType) {
    String name = "two_level_" + tableType.toLowerCase(java.util.Locale.ROOT);
    createTable(name, tableType, "");
    assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO " + name
        + " VALUES ('o1', 1, ARRAY[1, 2], MAP['a', 'x'], ROW('Oslo', '0150')),"
        + " ('o2', 1, ARRAY[1, CAST(NULL AS INT), 3], MAP['a', 'x'], ROW('Oslo', '0150'))").await(5, TimeUnit.MINUTES))
        .rootCause()
        .hasMessageContaining("record key 'o2'")
        .hasMessageContaining("field tags[1] is a null array element")
        .hasMessageContaining("parquet.avro.write-old-list-structure=false");
  }

  /** Writes one row of {@code values} into a new table {@code name} and reads the table back. */
  private List<String> writeAndRead(String name, String tableType, String extraOptions, String values) throws Exception {
    createTable(name, tableType, extraOptions);
    tEnv.executeSql("INSERT INTO " + name + " VALUES " + values).await(5, TimeUnit.MINUTES);
    return read(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void nullMapValuesAndNullRowFieldsAreWritten(String tableType) throws Exception {
    assertThat(writeAndRead("nulls_" + tableType.toLowerCase(java.util.Locale.ROOT), tableType, "",
        "('o1', 1, ARRAY[1, 3], MAP['a', CAST(NULL AS STRING)], ROW('Oslo', CAST(NULL AS STRING)))"))
        .containsExactly("o1 [1, 3] {a=null} {\"city\": \"Oslo\", \"zip\": null}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void threeLevelListsHoldNullElements(String tableType) throws Exception {
    assertThat(writeAndRead("three_level_" + tableType.toLowerCase(java.util.Locale.ROOT), tableType,
        ", 'parquet.avro.write-old-list-structure' = 'false'",
        "('o1', 1, ARRAY[1, CAST(NULL AS INT), 3], MAP['a', 'x'], ROW('Oslo', '0150'))"))
        .containsExactly("o1 [1, null, 3] {a=x} {\"city\": \"Oslo\", \"zip\": \"0150\"}");
  }
}
