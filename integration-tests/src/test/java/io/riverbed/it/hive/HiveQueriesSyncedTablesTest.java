package io.riverbed.it.hive;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.TableType;
import io.riverbed.it.hive.engine.HiveEngine;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.spark.RiverbedSource;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hive 4.0.1 itself (HiveServer2 embedded, local MapReduce, a child JVM) queries the COW table and
 * the MOR {@code _ro}, {@code _rt} and plain tables that {@code riverbed-hive-sync} registered under
 * Hudi's input format names, with only Riverbed's hive-input bundle on Hive's auxiliary path:
 * {@code SELECT *}, filters (on a nested field too), aggregates (through MapReduce) and partition
 * predicates give exactly the rows Riverbed's Spark reader gives for the same queries over the
 * same paths (read-optimized for {@code _ro}, snapshot for the others) — first with updates and
 * deletes still in log files, then after a compaction with new logs on the compacted slices; and
 * incremental pulls ({@code hoodie.<t>.consume.*} set in the session) give the rows of Spark's
 * incremental query over the same commits.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HiveQueriesSyncedTablesTest {
  static final String DB = "rides_db";
  /** Hive's columns of the synced tables, in Hive's order (the partition column last). */
  static final List<String> ALL_COLUMNS = List.of("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
      "_hoodie_partition_path", "_hoodie_file_name", "id", "ts", "fare", "tags", "attrs", "rider", "day", "at", "note", "city");
  static final Set<String> NESTED = Set.of("tags", "attrs", "rider");

  /** One query: Hive's select list and the rest of the statement after {@code FROM <table>}. */
  record HiveQuery(List<String> select, String rest) {
    String forHive(String table) {
      return "SELECT " + select.stream().map(HiveQuery::quoted).collect(Collectors.joining(", ")) + " FROM " + table + rest;
    }

    /** The same query for Spark, each value as the string HiveServer2 prints for it. */
    String forSpark(String view) {
      return "SELECT " + select.stream().map(c -> NESTED.contains(c)
              ? "to_json(`" + c + "`, map('ignoreNullFields', 'false'))" : "CAST(" + quoted(c) + " AS STRING)")
          .collect(Collectors.joining(", ")) + " FROM " + view + rest;
    }

    private static String quoted(String column) {
      return column.matches("[a-z_]+") ? "`" + column + "`" : column;
    }
  }

  static final List<HiveQuery> QUERIES = List.of(
      new HiveQuery(ALL_COLUMNS, ""),
      new HiveQuery(List.of("id", "fare", "rider", "tags"), " WHERE fare > 60 AND rider.rating >= 2"),
      new HiveQuery(List.of("city", "count(*)", "sum(fare)", "min(`day`)", "max(`at`)", "max(ts)"), " GROUP BY city"),
      new HiveQuery(List.of("id", "note", "attrs", "day", "at"), " WHERE city = 'tokyo'"),
      new HiveQuery(List.of("count(*)"), " WHERE city IN ('paris', 'lima') AND note IS NULL"));

  @TempDir
  static Path dir;
  static HiveEngine hive;
  static RideTable cow;
  static RideTable mor;

  @BeforeAll
  static void startHiveAndWriteTables() throws Exception {
    hive = HiveEngine.start(dir.resolve("hive"), List.of(hiveInputBundle()));
    cow = RideTable.create(dir, "rides_cow", TableType.COPY_ON_WRITE);
    mor = RideTable.create(dir, "rides_mor", TableType.MERGE_ON_READ);
    cow.writeWithLogs();
    mor.writeWithLogs();
    sync(cow);
    sync(mor);
  }

  @AfterAll
  static void stopHive() {
    if (hive != null) {
      hive.close();
    }
  }

  /** hive-input's bundle jar (system property {@code riverbed.hive.input.target}: its module's target folder). */
  static Path hiveInputBundle() throws IOException {
    Path target = Path.of(System.getProperty("riverbed.hive.input.target", "../hive-input/target"));
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "riverbed-hive-input-*-bundle.jar")) {
      for (Path jar : jars) {
        return jar.toAbsolutePath();
      }
    } catch (java.nio.file.NoSuchFileException e) {
      // reported below
    }
    throw new IllegalStateException("no riverbed-hive-input bundle jar in " + target
        + ": build through the reactor with verify (mvn -pl integration-tests -am verify)");
  }

  static void sync(RideTable table) {
    HiveSyncProcesses.sync(dir.resolve("sync"), Duration.ofMinutes(10), List.of("--base-path", table.basePath(),
        "--database", DB, "--metastore-uris", hive.metastoreUri, "--partitioned-by", "city", "--support-timestamp"));
  }

  static List<String> hiveRows(String sql) {
    return hive.query(sql).stream().map(HiveQueriesSyncedTablesTest::line).sorted().toList();
  }

  static List<String> sparkRows(RideTable table, String queryType, HiveQuery query) {
    return sparkRows(table, Map.of("hoodie.datasource.query.type", queryType), query);
  }

  static List<String> sparkRows(RideTable table, Map<String, String> readOptions, HiveQuery query) {
    SparkSession spark = SparkOracle.spark();
    spark.read().format(RiverbedSource.CLASS_NAME).options(readOptions)
        .load(table.basePath()).createOrReplaceTempView("riverbed_read");
    List<String> rows = new ArrayList<>();
    for (Row row : spark.sql(query.forSpark("riverbed_read")).collectAsList()) {
      List<String> cells = new ArrayList<>();
      for (int i = 0; i < row.length(); i++) {
        cells.add(row.isNullAt(i) ? null : row.get(i).toString());
      }
      rows.add(line(cells));
    }
    rows.sort(null);
    return rows;
  }

  static String line(List<String> cells) {
    return cells.stream().map(c -> c == null ? "NULL" : c).collect(Collectors.joining(" | "));
  }

  /** Every query on {@code hiveTable} gives Spark's rows of {@code table} read as {@code queryType}; the rows of SELECT *. */
  static List<String> assertHiveReadsWhatSparkReads(String hiveTable, RideTable table, String queryType) {
    List<String> all = null;
    for (HiveQuery query : QUERIES) {
      List<String> fromHive = hiveRows(query.forHive(DB + "." + hiveTable));
      assertThat(fromHive).as("Hive: " + query.forHive(hiveTable)).isNotEmpty()
          .containsExactlyElementsOf(sparkRows(table, queryType, query));
      if (all == null) {
        all = fromHive;
      }
    }
    return all;
  }

  /** A column of a SELECT * row. */
  static String cell(String row, String column) {
    return row.split(" \\| ", -1)[ALL_COLUMNS.indexOf(column)];
  }

  static List<String> ids(List<String> rows) {
    return rows.stream().map(r -> cell(r, "id")).sorted().toList();
  }

  @Test
  @Order(1)
  void withUpdatesAndDeletesInLogsHiveReadsWhatRiverbedsSparkReaderReads() {
    List<String> cowRows = assertHiveReadsWhatSparkReads("rides_cow", cow, "snapshot");
    List<String> ro = assertHiveReadsWhatSparkReads("rides_mor_ro", mor, "read_optimized");
    List<String> rt = assertHiveReadsWhatSparkReads("rides_mor_rt", mor, "snapshot");
    assertThat(assertHiveReadsWhatSparkReads("rides_mor", mor, "snapshot")).isEqualTo(rt);

    assertThat(ids(rt)).doesNotContain("r01", "r02", "r24").contains("r25").hasSize(23).isEqualTo(ids(cowRows));
    assertThat(ids(ro)).as("the read-optimized table reads the bulk insert's base files only").hasSize(24)
        .contains("r01", "r02").doesNotContain("r25");
    assertThat(ro).allMatch(r -> cell(r, "ts").equals("1"));
  }

  @Test
  @Order(2)
  void afterACompactionHiveReadsWhatRiverbedsSparkReaderReads() {
    mor.compactAndUpsert();
    sync(mor);
    List<String> ro = assertHiveReadsWhatSparkReads("rides_mor_ro", mor, "read_optimized");
    List<String> rt = assertHiveReadsWhatSparkReads("rides_mor_rt", mor, "snapshot");

    assertThat(ids(ro)).as("the compacted base files hold the merged table").hasSize(23).doesNotContain("r01", "r24");
    assertThat(rt).filteredOn(r -> cell(r, "ts").equals("5")).extracting(r -> cell(r, "id")).containsExactly("r00", "r09");
    assertThat(ro).noneMatch(r -> cell(r, "ts").equals("5"))
        .anyMatch(r -> cell(r, "ts").equals("4")).as("compacted updates of the logs").hasSize(23);
  }

  /** The commits (COW) or writes (MOR) of {@code table}, oldest first. */
  static List<String> writes(RideTable table) {
    var timeline = table.table.refreshTimeline();
    var writes = table.table.type() == TableType.COPY_ON_WRITE ? timeline.commitAndReplaceTimeline() : timeline.writeTimeline();
    return writes.completed().instants().stream().map(io.riverbed.format.timeline.Instant::time).toList();
  }

  static void assertPullIsSparksIncrementalRead(String hiveTable, RideTable table, int startIndex, int maxCommits) {
    List<String> writes = writes(table);
    String name = table.table.config().name();
    hive.query("SET hoodie." + name + ".consume.mode=INCREMENTAL");
    hive.query("SET hoodie." + name + ".consume.start.timestamp=" + writes.get(startIndex));
    hive.query("SET hoodie." + name + ".consume.max.commits=" + maxCommits);
    try {
      Map<String, String> incremental = Map.of("hoodie.datasource.query.type", "incremental",
          "hoodie.datasource.read.begin.instanttime", writes.get(startIndex),
          "hoodie.datasource.read.end.instanttime", writes.get(startIndex + maxCommits));
      for (HiveQuery query : List.of(QUERIES.get(0), QUERIES.get(2))) {
        assertThat(hiveRows(query.forHive(DB + "." + hiveTable))).as("Hive pull: " + query.forHive(hiveTable))
            .isNotEmpty().containsExactlyElementsOf(sparkRows(table, incremental, query));
      }
    } finally {
      hive.query("SET hoodie." + name + ".consume.mode=SNAPSHOT");
    }
  }

  @Test
  @Order(3)
  void anIncrementalPullReadsWhatRiverbedsSparkIncrementalQueryReads() {
    assertPullIsSparksIncrementalRead("rides_cow", cow, 0, 2);
    assertPullIsSparksIncrementalRead("rides_mor_rt", mor, 1, 2);
    assertThat(hiveRows(QUERIES.get(4).forHive(DB + ".rides_cow")))
        .as("back to the snapshot").isEqualTo(sparkRows(cow, "snapshot", QUERIES.get(4)));
  }
}
