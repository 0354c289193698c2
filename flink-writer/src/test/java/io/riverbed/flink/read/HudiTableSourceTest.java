package io.riverbed.flink.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.config.OptimizerConfigOptions;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink SQL reads of tables Riverbed's own SQL sink wrote (several commits with updates and
 * deletes, on MERGE_ON_READ with logs and a compaction): every query type, time travel,
 * projection, partition pruning, limit, every stored type, and the errors a bad read gets.
 */
class HudiTableSourceTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  private static StreamExecutionEnvironment streamEnv;
  private static StreamTableEnvironment writes;
  private static TableEnvironment reads;

  @BeforeAll
  static void environments() {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    streamEnv = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    streamEnv.setParallelism(1);
    writes = StreamTableEnvironment.create(streamEnv, EnvironmentSettings.inStreamingMode());
    reads = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    reads.getConfig().set("parallelism.default", "2");
  }

  /** The trips table as the reads declare it, with {@code extraColumns} in front. */
  private static String tripsDdl(String name, Path path, String type, String extraOptions, String extraColumns) {
    return """
        CREATE TABLE %s (%sid STRING, ts BIGINT, fare DOUBLE, city STRING, PRIMARY KEY (id) NOT ENFORCED)
        PARTITIONED BY (city)
        WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = '%s', 'read.tasks' = '2'%s)"""
        .formatted(name, extraColumns, path.toUri(), type, extraOptions);
  }

  /** The trips table as the writes declare it: with Hudi's delete marker column {@code _hoodie_is_deleted}. */
  private static String tripsWriteDdl(String name, Path path, String type, String extraOptions) {
    return tripsDdl(name, path, type, extraOptions, "").replace("city STRING,", "city STRING, _hoodie_is_deleted BOOLEAN,");
  }

  private static List<String> deleteTrip(Path path, String table, String id, long ts, String city) throws Exception {
    return insert(path, "INSERT INTO " + table + " VALUES ('" + id + "', " + ts + ", 0.0, '" + city + "', true)");
  }

  private static List<String> select(String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = reads.executeSql(sql).collect()) {
      it.forEachRemaining(r -> rows.add(r.toString()));
    }
    return rows;
  }

  private static Table open(Path path) throws Exception {
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(path.toUri());
    return Table.open(base.getFileSystem(new org.apache.hadoop.conf.Configuration()), base);
  }

  /** Runs {@code sql} and returns the commits (deltacommits on MERGE_ON_READ) it completed, oldest first. */
  private static List<String> insert(Path path, String sql) throws Exception {
    List<String> before = writeCommits(path);
    writes.executeSql(sql).await();
    List<String> after = new ArrayList<>(writeCommits(path));
    after.removeAll(before);
    assertThat(after).as("commits of %s", sql).isNotEmpty();
    return after;
  }

  private static List<String> writeCommits(Path path) throws Exception {
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(path.toUri());
    if (!Table.exists(base.getFileSystem(new org.apache.hadoop.conf.Configuration()), base)) {
      return List.of();
    }
    Table table = open(path);
    Action write = table.type() == io.riverbed.format.table.TableType.MERGE_ON_READ ? Action.DELTA_COMMIT : Action.COMMIT;
    return table.refreshTimeline().ofAction(write).completed().times();
  }

  /** Rows of the core's own read, as Flink prints them, for the columns of the trips tables. */
  private static List<String> coreRows(Path path, QuerySpec spec) throws Exception {
    List<String> out = new ArrayList<>();
    for (GenericRecord r : TableReads.read(open(path), spec)) {
      out.add("+I[" + r.get("id") + ", " + r.get("ts") + ", " + r.get("fare") + ", " + r.get("city") + "]");
    }
    return out;
  }

  @Test
  void mergeOnReadTableReadsSnapshotReadOptimizedIncrementalAndTimeTravel(@TempDir Path dir) throws Exception {
    Path path = dir.resolve("trips_mor");
    writes.executeSql(tripsWriteDdl("trips_mor", path, "MERGE_ON_READ", ", 'compaction.async.enabled' = 'true', 'compaction.delta_commits' = '2'"));
    List<String> first = insert(path, "INSERT INTO trips_mor (id, ts, fare, city) VALUES ('a', 1, 10.0, 'x'), ('b', 1, 20.0, 'x'), "
        + "('c', 1, 30.0, 'y'), ('d', 1, 40.0, 'y')");
    insert(path, "INSERT INTO trips_mor (id, ts, fare, city) VALUES ('a', 2, 11.0, 'x'), ('b', 2, 21.0, 'x')");
    List<String> third = insert(path, "INSERT INTO trips_mor (id, ts, fare, city) VALUES ('c', 3, 31.0, 'y'), ('e', 3, 50.0, 'x')");
    deleteTrip(path, "trips_mor", "d", 4, "y");
    Timeline timeline = open(path).refreshTimeline();
    assertThat(timeline.ofAction(Action.COMMIT).completed().instants()).as("a completed compaction").isNotEmpty();
    assertThat(open(path).listPartitions()).hasSize(2);
    reads.executeSql(tripsDdl("trips_mor", path, "MERGE_ON_READ", "", ""));

    assertThat(select("SELECT * FROM trips_mor")).containsExactlyInAnyOrder(
        "+I[a, 2, 11.0, x]", "+I[b, 2, 21.0, x]", "+I[c, 3, 31.0, y]", "+I[e, 3, 50.0, x]");

    List<String> readOptimized = select("SELECT * FROM trips_mor /*+ OPTIONS('hoodie.datasource.query.type' = 'read_optimized') */");
    assertThat(readOptimized).containsExactlyInAnyOrderElementsOf(coreRows(path, QuerySpec.readOptimized()));

    assertThat(select("SELECT id, ts FROM trips_mor /*+ OPTIONS('hoodie.datasource.query.type' = 'incremental', "
        + "'read.start-commit' = '" + third.get(0) + "', 'read.end-commit' = '" + third.get(third.size() - 1) + "') */"))
        .containsExactlyInAnyOrder("+I[c, 3]", "+I[e, 3]");
    assertThat(select("SELECT id, ts FROM trips_mor /*+ OPTIONS('query.type' = 'incremental', "
        + "'read.start-commit' = '" + third.get(0) + "') */"))
        .containsExactlyInAnyOrder("+I[c, 3]", "+I[e, 3]");

    assertThat(select("SELECT * FROM trips_mor /*+ OPTIONS('read.end-commit' = '" + first.get(first.size() - 1) + "') */"))
        .containsExactlyInAnyOrder("+I[a, 1, 10.0, x]", "+I[b, 1, 20.0, x]", "+I[c, 1, 30.0, y]", "+I[d, 1, 40.0, y]");
  }

  @Test
  void copyOnWriteTableReadsWithProjectionPartitionPruningAndLimit(@TempDir Path dir) throws Exception {
    Path path = dir.resolve("trips_cow");
    writes.executeSql(tripsWriteDdl("trips_cow", path, "COPY_ON_WRITE", ""));
    List<String> first = insert(path, "INSERT INTO trips_cow (id, ts, fare, city) VALUES ('a', 1, 10.0, 'x'), ('b', 1, 20.0, 'x'), ('c', 1, 30.0, 'y')");
    List<String> second = insert(path, "INSERT INTO trips_cow (id, ts, fare, city) VALUES ('a', 2, 11.0, 'x'), ('d', 2, 40.0, 'y')");
    deleteTrip(path, "trips_cow", "b", 3, "x");
    reads.executeSql(tripsDdl("trips_cow", path, "COPY_ON_WRITE", "", "_hoodie_commit_time STRING, "));

    assertThat(select("SELECT id, ts, fare, city FROM trips_cow")).containsExactlyInAnyOrder(
        "+I[a, 2, 11.0, x]", "+I[c, 1, 30.0, y]", "+I[d, 2, 40.0, y]");
    assertThat(select("SELECT id, _hoodie_commit_time FROM trips_cow WHERE id = 'c'"))
        .singleElement().satisfies(r -> assertThat(first).anyMatch(c -> r.equals("+I[c, " + c + "]")));
    assertThat(select("SELECT id, ts FROM trips_cow /*+ OPTIONS('hoodie.datasource.query.type' = 'incremental', "
        + "'read.start-commit' = '" + second.get(0) + "', 'read.end-commit' = '" + second.get(second.size() - 1) + "') */"))
        .containsExactlyInAnyOrder("+I[a, 2]", "+I[d, 2]");

    String pruned = "SELECT id, fare FROM trips_cow WHERE city = 'y'";
    assertThat(reads.explainSql(pruned)).contains("partitions=[{city=y}]");
    assertThat(select(pruned)).containsExactlyInAnyOrder("+I[c, 30.0]", "+I[d, 40.0]");
    assertThat(select("SELECT city, COUNT(*) FROM trips_cow GROUP BY city")).containsExactlyInAnyOrder("+I[x, 1]", "+I[y, 2]");

    String limited = "SELECT id FROM trips_cow LIMIT 2";
    assertThat(reads.explainSql(limited)).contains("limit=[2]");
    assertThat(select(limited)).hasSize(2).allMatch(r -> r.matches("\\+I\\[[acd]]"));
  }

  @Test
  void pushedDownFiltersOnACopyOnWriteTableReturnTheRowsTheyMatch(@TempDir Path dir) throws Exception {
    TableToRead table = OrdersInSeveralBaseFiles.write(dir);
    reads.executeSql("CREATE TABLE orders_filtered (id STRING, name STRING, ts BIGINT, dt STRING, PRIMARY KEY (id) NOT "
        + "ENFORCED) PARTITIONED BY (dt) WITH ('connector' = 'hudi', 'path' = '" + table.path() + "')");
    Map<String, IntPredicate> filters = new LinkedHashMap<>();
    filters.put("ts = 35", i -> i == 35);
    filters.put("ts <> 3 AND ts < 8", i -> i != 3 && i < 8);
    filters.put("ts <= 2 OR 37 < ts", i -> i <= 2 || i > 37);
    filters.put("ts >= 38", i -> i >= 38);
    filters.put("ts IN (5, 26)", i -> i == 5 || i == 26);
    filters.put("NOT (ts >= 2)", i -> i < 2);
    filters.put("name IS NULL", i -> OrdersInSeveralBaseFiles.name(i) == null);
    filters.put("name IS NOT NULL AND ts < 10", i -> OrdersInSeveralBaseFiles.name(i) != null && i < 10);
    filters.put("name IN ('n01', 'n04', 'n33')", i -> i == 1 || i == 33);
    filters.put("name > 'n30' AND name <> 'n38'", i -> OrdersInSeveralBaseFiles.name(i) != null && i > 30 && i != 38);
    assertThat(reads.explainSql("SELECT id FROM orders_filtered WHERE ts = 35")).contains("filter=[");

    for (Map.Entry<String, IntPredicate> filter : filters.entrySet()) {
      List<String> expected = IntStream.range(0, OrdersInSeveralBaseFiles.ROWS).filter(filter.getValue())
          .mapToObj(i -> "+I[k" + i + "]").toList();
      assertThat(select("SELECT id FROM orders_filtered WHERE " + filter.getKey())).as(filter.getKey())
          .isNotEmpty().containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  private static final String EVENT_TIME = ", 'payload.class' = 'org.apache.hudi.common.model.EventTimeAvroPayload'";

  @Test
  void pushedDownFiltersOnAMergeOnReadTableWithLogsReturnTheSameRowsAsWithoutPushDown(@TempDir Path dir) throws Exception {
    Path path = dir.resolve("trips_mor_filtered");
    writes.executeSql(tripsWriteDdl("trips_mor_compacted", path, "MERGE_ON_READ",
        EVENT_TIME + ", 'compaction.async.enabled' = 'true', 'compaction.delta_commits' = '1'"));
    insert(path, "INSERT INTO trips_mor_compacted (id, ts, fare, city) VALUES ('a', 1, 10.0, 'x'), ('b', 1, 20.0, 'x'), "
        + "('c', 1, 30.0, 'x'), ('d', 1, 60.0, 'y'), ('e', 5, 10.0, 'x')");
    assertThat(open(path).refreshTimeline().ofAction(Action.COMMIT).completed().instants())
        .as("a compaction wrote base files").isNotEmpty();
    writes.executeSql(tripsWriteDdl("trips_mor_filtered", path, "MERGE_ON_READ", EVENT_TIME + ", 'compaction.delta_commits' = '10'"));
    insert(path, "INSERT INTO trips_mor_filtered (id, ts, fare, city) VALUES ('a', 2, 50.0, 'x'), ('c', 2, 5.0, 'x'), "
        + "('e', 1, 70.0, 'x')");
    deleteTrip(path, "trips_mor_filtered", "d", 3, "y");
    assertThat(open(path).refreshTimeline().ofAction(Action.COMMIT).completed().instants())
        .as("the updates stay in logs over the base files").hasSize(1);
    reads.executeSql(tripsDdl("trips_mor_filtered", path, "MERGE_ON_READ", "", ""));

    // no base row of city x passes; its slice has logs, so it is read and merged whole: a's raise comes out, e's older
    // log record loses to its base row (ts 5), d's delete holds
    String query = "SELECT id, fare FROM trips_mor_filtered WHERE fare > 45.0";
    List<String> pushedDown = select(query);
    reads.getConfig().set(OptimizerConfigOptions.TABLE_OPTIMIZER_SOURCE_PREDICATE_PUSHDOWN_ENABLED, false);
    List<String> notPushedDown;
    try {
      notPushedDown = select(query);
    } finally {
      reads.getConfig().set(OptimizerConfigOptions.TABLE_OPTIMIZER_SOURCE_PREDICATE_PUSHDOWN_ENABLED, true);
    }
    assertThat(pushedDown).as("a's raise is in a log, d's delete too").contains("+I[a, 50.0]").doesNotContain("+I[d, 60.0]", "+I[e, 70.0]")
        .containsExactlyInAnyOrderElementsOf(notPushedDown);
  }

  @Test
  void everyStoredTypeRoundTripsThroughWriteAndRead(@TempDir Path dir) throws Exception {
    for (String type : List.of("COPY_ON_WRITE", "MERGE_ON_READ")) {
      Path path = dir.resolve("types_" + type);
      String ddl = """
          CREATE TABLE types_%s (id STRING, ts BIGINT, b BOOLEAN, t TINYINT, s SMALLINT, i INT, f FLOAT, d DOUBLE,
            dec1 DECIMAL(10, 2), dec2 DECIMAL(30, 6), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ltz TIMESTAMP_LTZ(3),
            ltz6 TIMESTAMP_LTZ(6), dt DATE, tm TIME, bin BYTES, arr ARRAY<INT>, strs ARRAY<STRING>, m MAP<STRING, DOUBLE>,
            r ROW<x INT, y STRING, z ARRAY<BIGINT>>, PRIMARY KEY (id) NOT ENFORCED)
          WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = '%s')""".formatted(type, path.toUri(), type);
      writes.executeSql(ddl);
      reads.executeSql(ddl);
      String first = "('k1', 1, true, CAST(-7 AS TINYINT), CAST(300 AS SMALLINT), 70000, CAST(1.5 AS FLOAT), 2.25, "
          + "CAST(-12345678.91 AS DECIMAL(10, 2)), CAST('123456789012345678901234.123456' AS DECIMAL(30, 6)), "
          + "TIMESTAMP '2024-01-02 03:04:05.678', TIMESTAMP '1969-12-31 23:59:59.123456', "
          + "TO_TIMESTAMP_LTZ(1700000000123, 3), CAST(TIMESTAMP '2024-05-06 07:08:09.654321' AS TIMESTAMP_LTZ(6)), "
          + "DATE '1999-12-31', TIME '23:59:58', X'00FF10', ARRAY[1, 2, 3], ARRAY['a', 'b'], "
          + "MAP['p', 1.5, 'q', CAST(NULL AS DOUBLE)], ROW(5, 'five', ARRAY[CAST(9 AS BIGINT)]))";
      String nulls = "('k2', 1, CAST(NULL AS BOOLEAN), CAST(NULL AS TINYINT), CAST(NULL AS SMALLINT), CAST(NULL AS INT), "
          + "CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE), CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS DECIMAL(30, 6)), "
          + "CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS TIMESTAMP(6)), CAST(NULL AS TIMESTAMP_LTZ(3)), "
          + "CAST(NULL AS TIMESTAMP_LTZ(6)), CAST(NULL AS DATE), CAST(NULL AS TIME), CAST(NULL AS BYTES), "
          + "CAST(NULL AS ARRAY<INT>), CAST(NULL AS ARRAY<STRING>), CAST(NULL AS MAP<STRING, DOUBLE>), "
          + "CAST(NULL AS ROW<x INT, y STRING, z ARRAY<BIGINT>>))";
      writes.executeSql("INSERT INTO types_" + type + " VALUES " + first).await();
      writes.executeSql("INSERT INTO types_" + type + " VALUES " + nulls).await();
      List<String> expected = select("SELECT * FROM (VALUES " + first + ", " + nulls + ")");

      assertThat(select("SELECT * FROM types_" + type)).as(type).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @Test
  void badReadsFailWithAMessageNamingTheOptionOrPath(@TempDir Path dir) throws Exception {
    Path path = dir.resolve("errors");
    writes.executeSql(tripsWriteDdl("errors", path, "COPY_ON_WRITE", ""));
    insert(path, "INSERT INTO errors (id, ts, fare, city) VALUES ('a', 1, 10.0, 'x')");
    reads.executeSql(tripsDdl("errors", path, "COPY_ON_WRITE", "", ""));
    reads.executeSql(tripsDdl("nowhere", dir.resolve("nowhere"), "COPY_ON_WRITE", "", ""));

    assertThatThrownBy(() -> select("SELECT * FROM nowhere"))
        .rootCause().hasMessage("option 'path' = '" + dir.resolve("nowhere").toUri() + "' holds no hudi table (no .hoodie/hoodie.properties there)");
    assertThatThrownBy(() -> select("SELECT * FROM errors /*+ OPTIONS('hoodie.datasource.query.type' = 'latest') */"))
        .rootCause().hasMessage("hoodie.datasource.query.type='latest' is not one of snapshot, read_optimized, incremental");
    assertThatThrownBy(() -> select("SELECT * FROM errors /*+ OPTIONS('hoodie.datasource.query.type' = 'incremental', "
        + "'read.start-commit' = '20240102000000', 'read.end-commit' = '20240101000000') */"))
        .rootCause().hasMessage("option 'read.start-commit' = '20240102000000' is after 'read.end-commit' = '20240101000000'");
    assertThatThrownBy(() -> select("SELECT * FROM errors /*+ OPTIONS('hoodie.datasource.query.type' = 'incremental') */"))
        .rootCause().hasMessageStartingWith("option 'read.start-commit' is required");
    assertThatThrownBy(() -> select("SELECT * FROM errors /*+ OPTIONS('read.streaming.enabled' = 'true', "
        + "'read.end-commit' = '20240101000000') */"))
        .rootCause().hasMessageContaining("option 'read.end-commit' ends a read; a streaming read");
  }
}
