package io.riverbed.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.job.CollectingTableSink;
import io.riverbed.flink.job.WriteJobEndToEndTest;
import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableDefinition;
import io.riverbed.format.table.TableType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.time.Duration;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** DDL and INSERT through the planner: option resolution, validation, what reaches the writer. */
class HudiTableFactoryTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  private static TableEnvironment tEnv;

  @BeforeAll
  static void tableEnvironment() {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(1);
    tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage();
  }

  @Test
  void primaryKeyAndPartitionedByBecomeRecordKeyAndPartitionFields() throws Exception {
    CollectingTableSink sink = new CollectingTableSink("pk");
    CollectingHudiTableFactory.current = sink;
    tEnv.executeSql("""
        CREATE TABLE orders (id STRING, ts BIGINT, amount DOUBLE, region STRING, PRIMARY KEY (id) NOT ENFORCED)
        PARTITIONED BY (region)
        WITH ('connector' = 'hudi-collect', 'path' = 'file:/lake/orders', 'table.type' = 'merge_on_read',
              'hoodie.datasource.write.recordkey.field' = 'ignored', 'compaction.delta_commits' = '3')""");
    tEnv.executeSql("INSERT INTO orders VALUES ('o1', 1, 2.5, 'eu'), ('o2', 2, 3.5, 'us')").await();
    tEnv.executeSql("INSERT INTO orders PARTITION (region = 'apac') SELECT 'o3', CAST(3 AS BIGINT), 1.0").await();
    assertThat(sink.rows()).containsExactly("+I(o1,1,2.5,eu)", "+I(o2,2,3.5,us)", "+I(o3,3,1.0,apac)");
    assertThat(sink.rowType().asSummaryString()).isEqualTo("ROW<`id` STRING NOT NULL, `ts` BIGINT, `amount` DOUBLE, `region` STRING> NOT NULL");
    assertThat(sink.options())
        .containsEntry("path", "file:/lake/orders")
        .containsEntry("table.type", "MERGE_ON_READ")
        .containsEntry("hoodie.table.name", "orders")
        .containsEntry("hoodie.datasource.write.recordkey.field", "id")
        .containsEntry("hoodie.datasource.write.partitionpath.field", "region")
        .containsEntry("precombine.field", "ts")
        .containsEntry("write.operation", "upsert")
        .containsEntry("compaction.delta_commits", "3")
        .doesNotContainKey("connector");
  }

  @Test
  void updatesAndDeletesOfAChangelogReachTheWriter() throws Exception {
    CollectingTableSink sink = new CollectingTableSink("changelog");
    CollectingHudiTableFactory.current = sink;
    tEnv.executeSql("""
        CREATE TABLE totals (region STRING, n BIGINT, PRIMARY KEY (region) NOT ENFORCED)
        WITH ('connector' = 'hudi-collect', 'path' = 'file:/lake/totals', 'precombine.field' = 'no_precombine')""");
    tEnv.executeSql("""
        INSERT INTO totals SELECT region, COUNT(*) FROM (VALUES ('eu'), ('eu'), ('us')) AS t(region) GROUP BY region""").await();
    assertThat(sink.rows()).contains("+I(us,1)").anyMatch(r -> r.equals("+U(eu,2)"));
    assertThat(sink.rows()).noneMatch(r -> r.startsWith("-U"));
    assertThat(sink.options()).containsEntry("table.type", "COPY_ON_WRITE").containsEntry("precombine.field", "no_precombine");
  }

  @Test
  void defaultOrderingFieldIsDroppedWhenTheTableHasNoTsColumn() {
    CollectingHudiTableFactory.current = new CollectingTableSink("nots");
    tEnv.executeSql("CREATE TABLE nots (uuid STRING, v INT) WITH ('connector' = 'hudi-collect', 'path' = '/x')");
    tEnv.explainSql("INSERT INTO nots VALUES ('a', 1)");
    assertThat(CollectingHudiTableFactory.current.options())
        .containsEntry("precombine.field", "no_precombine")
        .containsEntry("hoodie.datasource.write.recordkey.field", "uuid");
  }

  @Test
  void invalidOptionsFailWithClearErrors() {
    tEnv.executeSql("CREATE TABLE nopath (uuid STRING, ts BIGINT) WITH ('connector' = 'hudi')");
    assertThatThrownBy(() -> tEnv.explainSql("INSERT INTO nopath VALUES ('a', 1)"))
        .satisfies(e -> assertThat(rootMessage(e)).isEqualTo(
            "Table default_catalog.default_database.nopath: option 'path' (the table's base path) is required for 'connector' = 'hudi'"));

    tEnv.executeSql("CREATE TABLE badtype (uuid STRING, ts BIGINT) WITH ('connector' = 'hudi', 'path' = '/x', 'table.type' = 'MOR')");
    assertThatThrownBy(() -> tEnv.explainSql("INSERT INTO badtype VALUES ('a', 1)"))
        .satisfies(e -> assertThat(rootMessage(e)).isEqualTo(
            "Table default_catalog.default_database.badtype: option 'table.type' must be one of [COPY_ON_WRITE, MERGE_ON_READ], got 'MOR'"));

    tEnv.executeSql("CREATE TABLE nokey (id STRING, ts BIGINT) WITH ('connector' = 'hudi', 'path' = '/x')");
    assertThatThrownBy(() -> tEnv.explainSql("INSERT INTO nokey VALUES ('a', 1)"))
        .satisfies(e -> assertThat(rootMessage(e)).contains("record key field 'uuid' is not a column [id, ts]",
            "PRIMARY KEY (...) NOT ENFORCED"));

    tEnv.executeSql("CREATE TABLE badorder (uuid STRING, v BIGINT) WITH ('connector' = 'hudi', 'path' = '/x', 'precombine.field' = 'ts')");
    assertThatThrownBy(() -> tEnv.explainSql("INSERT INTO badorder VALUES ('a', 1)"))
        .satisfies(e -> assertThat(rootMessage(e)).contains("ordering field 'ts' (option 'precombine.field') is not a column"));

    tEnv.executeSql("CREATE TABLE badop (uuid STRING, ts BIGINT) WITH ('connector' = 'hudi', 'path' = '/x', 'write.operation' = 'merge')");
    assertThatThrownBy(() -> tEnv.explainSql("INSERT INTO badop VALUES ('a', 1)"))
        .satisfies(e -> assertThat(rootMessage(e)).contains("option 'write.operation' must be one of [upsert, insert], got 'merge'"));
  }

  @Test
  void insertIntoAHudiTableWritesItAndUpsertsByPrimaryKey(@TempDir Path dir) throws Exception {
    Path table = dir.resolve("lake_orders");
    tEnv.executeSql("""
        CREATE TABLE lake_orders (id STRING, ts BIGINT, amount DOUBLE, region STRING, PRIMARY KEY (id) NOT ENFORCED)
        PARTITIONED BY (region)
        WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = 'MERGE_ON_READ',
              'hoodie.datasource.write.hive_style_partitioning' = 'true')""".formatted(table.toUri()));
    tEnv.executeSql("INSERT INTO lake_orders VALUES ('o1', 1, 10.0, 'eu'), ('o2', 1, 20.0, 'us'), ('o1', 3, 11.0, 'eu')").await();
    assertThat(WriteJobEndToEndTest.snapshot(table)).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        "o1", "11.0|3|region=eu", "o2", "20.0|1|region=us")));
  }

  @Test
  void aTableCreatedWithWriteTableVersion8IsWrittenInVersion8sLayoutByLaterJobs(@TempDir Path dir) throws Exception {
    Path table = dir.resolve("v8_orders");
    tEnv.executeSql("""
        CREATE TABLE v8_orders (id STRING, ts BIGINT, amount DOUBLE, region STRING, PRIMARY KEY (id) NOT ENFORCED)
        PARTITIONED BY (region)
        WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = 'MERGE_ON_READ',
              'hoodie.write.table.version' = '8')""".formatted(table.toUri()));
    tEnv.executeSql("INSERT INTO v8_orders VALUES ('o1', 1, 10.0, 'eu'), ('o2', 1, 20.0, 'us')").await();
    tEnv.executeSql("""
        CREATE TABLE v8_orders_again (id STRING, ts BIGINT, amount DOUBLE, region STRING, PRIMARY KEY (id) NOT ENFORCED)
        PARTITIONED BY (region) WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = 'MERGE_ON_READ')"""
        .formatted(table.toUri()));
    tEnv.executeSql("INSERT INTO v8_orders_again VALUES ('o1', 3, 11.0, 'eu')").await();

    assertThat(java.nio.file.Files.readString(table.resolve(".hoodie/hoodie.properties")))
        .contains("hoodie.table.version=8", "hoodie.timeline.layout.version=2");
    try (var timeline = java.nio.file.Files.list(table.resolve(".hoodie/timeline"))) {
      assertThat(timeline.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d{17}_\\d{17}\\.deltacommit")))
          .hasSize(2);
    }
    try (var logs = java.nio.file.Files.list(table.resolve("eu"))) {
      assertThat(logs.map(p -> p.getFileName().toString()).filter(n -> n.contains(".log.") && !n.endsWith(".crc")))
          .hasSize(2);
    }
    assertThat(WriteJobEndToEndTest.snapshot(table)).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        "o1", "11.0|3|eu", "o2", "20.0|1|us")));
  }

  @Test
  void aJobWritingATableWithGeneratedKeysIsRefusedAtBuildNamingTheTable(@TempDir Path dir) throws Exception {
    Path table = dir.resolve("nokey_events");
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(table.toUri());
    FileSystem fs = base.getFileSystem(new org.apache.hadoop.conf.Configuration());
    Schema schema = SchemaBuilder.record("nokey_events_record").fields().requiredString("id").requiredLong("ts")
        .endRecord();
    Table.create(fs, base, new TableDefinition("nokey_events", TableType.COPY_ON_WRITE,
        KeyGeneratorOptions.of(List.of(), List.of()), null, null, schema, 6).toConfig());
    tEnv.executeSql("""
        CREATE TABLE nokey_events (id STRING, ts BIGINT, PRIMARY KEY (id) NOT ENFORCED)
        WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = 'COPY_ON_WRITE')""".formatted(table.toUri()));
    assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO nokey_events VALUES ('a', CAST(1 AS BIGINT))"))
        .satisfies(e -> assertThat(rootMessage(e)).contains("has no record key field", "Flink writer writes by key"));
    assertThat(Table.open(fs, base).refreshTimeline().instants()).isEmpty();
  }

  @Test
  void scriptRunnerRunsDdlSetAndInsertInOrder() throws Exception {
    CollectingTableSink sink = new CollectingTableSink("script");
    CollectingHudiTableFactory.current = sink;
    StringBuilder out = new StringBuilder();
    new SqlScript(tEnv).run("""
        -- a script as riverbed-sql runs it
        CREATE TABLE scripted (uuid STRING, ts BIGINT, PRIMARY KEY (uuid) NOT ENFORCED)
          WITH ('connector' = 'hudi-collect', 'path' = '/x');
        SET 'pipeline.name' = 'scripted insert';
        INSERT INTO scripted VALUES ('a', 1), ('b', 2);
        SHOW TABLES;
        """, out);
    assertThat(sink.rows()).containsExactly("+I(a,1)", "+I(b,2)");
    assertThat(out.toString()).containsPattern("Job [0-9a-f]{32} started: INSERT INTO scripted").contains("finished", "+I[scripted]");
    assertThatThrownBy(() -> new SqlScript(tEnv).run("SHOW TABLES;\n\nINSERT INTO missing VALUES (1);", new StringBuilder()))
        .isInstanceOf(SqlScript.SqlScriptException.class)
        .hasMessageStartingWith("statement on line 3 failed:")
        .hasMessageContaining("missing");
  }
}
