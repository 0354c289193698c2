package io.riverbed.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.job.WriteJobEndToEndTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A changelog of deletes only, through {@code INSERT INTO} a {@code hudi} table: the deletes are
 * committed whether the keys were written by the same job or by an earlier one, for both table
 * types and both index types.
 */
class ChangelogDeletesSqlTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir
  Path dir;

  private static StreamExecutionEnvironment executionEnvironment() {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(1);
    return env;
  }

  private static void createTable(StreamTableEnvironment tEnv, Path table, String tableType, String index) {
    String bucket = index.equals("BUCKET") ? ", 'index.type' = 'BUCKET', 'hoodie.bucket.index.num.buckets' = '2'" : "";
    tEnv.executeSql("""
        CREATE TABLE lake (id STRING, ts BIGINT, amount DOUBLE, region STRING, PRIMARY KEY (id) NOT ENFORCED)
        PARTITIONED BY (region)
        WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = '%s'%s)""".formatted(table.toUri(), tableType, bucket));
  }

  /** Runs a bounded job writing {@code rows} (a changelog) into the table. */
  private static void writeChangelog(Path table, String tableType, String index, Row... rows) throws Exception {
    writeChangelog(table, tableType, index, ExecutionConfigOptions.UpsertMaterialize.AUTO, rows);
  }

  private static void writeChangelog(Path table, String tableType, String index,
      ExecutionConfigOptions.UpsertMaterialize materialize, Row... rows) throws Exception {
    StreamExecutionEnvironment env = executionEnvironment();
    StreamTableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
    tEnv.getConfig().set(ExecutionConfigOptions.TABLE_EXEC_SINK_UPSERT_MATERIALIZE, materialize);
    createTable(tEnv, table, tableType, index);
    tEnv.createTemporaryView("changes", tEnv.fromChangelogStream(
        env.fromData(org.apache.flink.api.common.typeinfo.Types.ROW_NAMED(new String[] {"id", "ts", "amount", "region"},
            org.apache.flink.api.common.typeinfo.Types.STRING, org.apache.flink.api.common.typeinfo.Types.LONG,
            org.apache.flink.api.common.typeinfo.Types.DOUBLE, org.apache.flink.api.common.typeinfo.Types.STRING), rows)));
    tEnv.executeSql("INSERT INTO lake SELECT id, ts, amount, region FROM changes").await();
  }

  private static Row delete(String id) {
    return Row.ofKind(RowKind.DELETE, id, 5L, 0.0, "eu");
  }

  private static Row insert(String id, double amount) {
    return Row.ofKind(RowKind.INSERT, id, 1L, amount, "eu");
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"COPY_ON_WRITE, FLINK_STATE", "MERGE_ON_READ, FLINK_STATE", "COPY_ON_WRITE, BUCKET", "MERGE_ON_READ, BUCKET"})
  void deletesOfKeysAnEarlierJobWroteAreCommitted(String tableType, String index) throws Exception {
    Path table = dir.resolve("lake");
    writeChangelog(table, tableType, index, insert("o1", 10.0), insert("o2", 20.0), insert("o3", 30.0));
    int commitsBefore = WriteJobEndToEndTest.completedCommits(table).size();

    writeChangelog(table, tableType, index, delete("o1"), delete("o3"));

    // one commit per checkpoint the job took: a busy machine can fit one between the two deletes
    assertThat(WriteJobEndToEndTest.completedCommits(table)).hasSizeGreaterThan(commitsBefore);
    assertThat(WriteJobEndToEndTest.snapshot(table)).containsExactlyEntriesOf(Map.of("o2", "20.0|1|eu"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"COPY_ON_WRITE, FLINK_STATE", "MERGE_ON_READ, FLINK_STATE", "COPY_ON_WRITE, BUCKET", "MERGE_ON_READ, BUCKET"})
  void deletesAfterInsertsInTheSameJobAreCommitted(String tableType, String index) throws Exception {
    Path table = dir.resolve("lake");
    writeChangelog(table, tableType, index, insert("o1", 10.0), insert("o2", 20.0), insert("o3", 30.0),
        delete("o1"), delete("o3"));

    assertThat(WriteJobEndToEndTest.snapshot(table)).containsExactlyEntriesOf(Map.of("o2", "20.0|1|eu"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"COPY_ON_WRITE, FLINK_STATE", "MERGE_ON_READ, BUCKET"})
  void aForcedMaterializerKeepsFlinksDropOfDeletesOfKeysTheJobHasNotSeen(String tableType, String index)
      throws Exception {
    Path table = dir.resolve("lake");
    writeChangelog(table, tableType, index, insert("o1", 10.0), insert("o2", 20.0));

    writeChangelog(table, tableType, index, ExecutionConfigOptions.UpsertMaterialize.FORCE, delete("o1"));

    assertThat(WriteJobEndToEndTest.snapshot(table)).containsOnlyKeys("o1", "o2");
  }
}
