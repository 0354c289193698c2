package io.riverbed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.Table;
import io.riverbed.hive.testing.MetastoreExtension;
import io.riverbed.spark.SparkTestSession;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every kind of SQL write syncs the table to a real Hive Metastore after its commit, under the
 * catalog's database and table name with the table's partitioning, once the table asks for the
 * sync (this session's catalog is Spark's in-memory one; on a Hive-catalog session every SQL write
 * syncs unasked, as in Hudi 0.15); a table property of a sync key wins over the defaults.
 */
class SqlWriteHiveSyncTest {
  @RegisterExtension
  static final MetastoreExtension HMS = new MetastoreExtension();
  static final String DB = "riverbed_sql_sync";
  static SparkSession spark;

  @BeforeAll
  static void session() {
    spark = SparkTestSession.withCatalogDatabase(DB);
  }

  /** The table properties that ask for the sync, against the test's metastore. */
  static String syncing() {
    return "'hoodie.datasource.hive_sync.enable' = 'true', 'hoodie.datasource.hive_sync.metastore.uris' = '"
        + HMS.uri() + "'";
  }

  @AfterAll
  static void dropDatabase() {
    spark.sql("DROP DATABASE " + DB + " CASCADE");
  }

  static String newLocation() throws Exception {
    return Files.createTempDirectory("sql-sync").resolve("t").toUri().toString();
  }

  static String lastCommit(String location) throws Exception {
    Path base = new Path(location);
    return Table.open(base.getFileSystem(new Configuration()), base).refreshTimeline().commitsTimeline().completed()
        .last().orElseThrow().time();
  }

  static String lastSynced(String table) throws Exception {
    return HMS.client().getTable(DB, table).getParameters().get("last_commit_time_sync");
  }

  static List<String> partitions(String table) throws Exception {
    return HMS.client().listPartitions(DB, table, (short) -1).stream().map(Partition::getValues)
        .map(v -> String.join("/", v)).sorted().toList();
  }

  @Test
  void everySqlWriteOnAMergeOnReadTableSyncsItsTablesUnderTheCatalogsNames() throws Exception {
    String location = newLocation();
    spark.sql("CREATE TABLE Trips (id INT, name STRING, price DOUBLE, ts BIGINT, dt STRING) USING hudi "
        + "PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts', type = 'mor', "
        + syncing() + ") "
        + "LOCATION '" + location + "'");
    spark.sql("INSERT INTO trips VALUES (1, 'a', 1.0, 1, 'd1'), (2, 'b', 2.0, 1, 'd2')");

    assertThat(HMS.client().getTables(DB, "trips*")).containsExactlyInAnyOrder("trips", "trips_ro", "trips_rt");
    assertThat(HMS.client().getTable(DB, "trips_rt").getPartitionKeys()).extracting(f -> f.getName())
        .containsExactly("dt");
    assertThat(partitions("trips_rt")).containsExactly("d1", "d2");
    assertThat(lastSynced("trips_rt")).isEqualTo(lastCommit(location));

    for (String statement : List.of(
        "UPDATE trips SET price = 3.0 WHERE id = 1",
        "DELETE FROM trips WHERE id = 2",
        "MERGE INTO trips USING (SELECT 3 AS id, 'c' AS name, 3.0 AS price, 2L AS ts, 'd3' AS dt) s "
            + "ON trips.id = s.id WHEN NOT MATCHED THEN INSERT *",
        "INSERT OVERWRITE trips PARTITION (dt = 'd2') SELECT 4, 'd', 4.0, 2",
        "ALTER TABLE trips DROP PARTITION (dt = 'd1')")) {
      spark.sql(statement);
      assertThat(lastSynced("trips_ro")).as(statement).isEqualTo(lastCommit(location));
      assertThat(lastSynced("trips_rt")).as(statement).isEqualTo(lastCommit(location));
    }
    assertThat(partitions("trips_rt")).contains("d3");
  }

  @Test
  void aCreateTableAsSelectSyncsUnderTheTableNameItsPropertiesGiveAndATableNotAskingIsNotSynced() throws Exception {
    spark.sql("CREATE TABLE copied USING hudi TBLPROPERTIES (primaryKey = 'id', " + syncing() + ", "
        + "'hoodie.datasource.hive_sync.table' = 'copied_in_hive') LOCATION '" + newLocation() + "' "
        + "AS SELECT 1 AS id, 'a' AS name");
    spark.sql("CREATE TABLE unsynced (id INT, name STRING) USING hudi TBLPROPERTIES (primaryKey = 'id') "
        + "LOCATION '" + newLocation() + "'");
    spark.sql("INSERT INTO unsynced VALUES (1, 'a')");

    assertThat(HMS.client().getAllTables(DB)).contains("copied_in_hive").doesNotContain("copied", "unsynced");
    assertThat(HMS.client().getTable(DB, "copied_in_hive").getPartitionKeys()).isEmpty();
  }
}
