package io.riverbed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.spark.RiverbedCatalog;
import io.riverbed.spark.SparkTestSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * Spark SQL on a table created without a primary key, as Hudi 0.14+ creates it: {@code CREATE TABLE}
 * writes no record key fields, {@code INSERT INTO} and {@code INSERT OVERWRITE} write rows under
 * generated keys, {@code UPDATE} and {@code DELETE FROM} change rows by their stored
 * {@code _hoodie_record_key}, as Hudi 0.15 does, and {@code MERGE INTO} is refused naming what is not
 * supported.
 */
class GeneratedKeySqlTest {
  static final String DB = "riverbed_generated_keys";
  static SparkSession spark;

  @BeforeAll
  static void session() throws Exception {
    spark = SparkTestSession.get().newSession();
    spark.conf().set("spark.sql.catalog.spark_catalog", RiverbedCatalog.class.getName());
    Path warehouse = Files.createTempDirectory("generated-keys-db");
    spark.sql("CREATE DATABASE " + DB + " LOCATION '" + warehouse.toUri() + "'");
    spark.sql("USE " + DB);
  }

  @AfterAll
  static void dropDatabase() {
    spark.sql("DROP DATABASE " + DB + " CASCADE");
  }

  static String createAt(String definition) throws Exception {
    String location = Files.createTempDirectory("generated-keys").resolve("t").toUri().toString();
    spark.sql("CREATE TABLE " + definition + " LOCATION '" + location + "'");
    return location;
  }

  static Table table(String location) throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(location);
    return Table.open(path.getFileSystem(new Configuration()), path);
  }

  static List<String> operations(String location) throws Exception {
    Table t = table(location);
    return t.refreshTimeline().completed().instants().stream()
        .map(i -> CommitMetadata.fromJson(t.timelineStore().read(i), i.toString()).operationType().value()).toList();
  }

  static List<String> rows(String sql) {
    return spark.sql(sql).collectAsList().stream().map(Row::toString).sorted().toList();
  }

  @Test
  void createTableWithoutPrimaryKeyWritesTheHoodiePropertiesHudiWrites() throws Exception {
    String location = createAt("hudi_cow_nokey_tbl (uuid INT, name STRING, price DOUBLE) USING hudi");
    Map<String, String> properties = table(location).config().properties();
    assertThat(properties).doesNotContainKeys("hoodie.table.recordkey.fields", "hoodie.table.precombine.field",
            "hoodie.table.partition.fields")
        .containsEntry("hoodie.table.name", "hudi_cow_nokey_tbl")
        .containsEntry("hoodie.database.name", DB)
        .containsEntry("hoodie.table.type", "COPY_ON_WRITE")
        .containsEntry("hoodie.table.keygenerator.class", "org.apache.hudi.keygen.NonpartitionedKeyGenerator")
        .containsEntry("hoodie.datasource.write.hive_style_partitioning", "true");
  }

  @Test
  void insertIntoAndInsertOverwriteWriteEveryRowUnderAGeneratedKey() throws Exception {
    String location = createAt("nokey_part (uuid INT, name STRING, price DOUBLE, dt STRING) USING hudi "
        + "PARTITIONED BY (dt) TBLPROPERTIES (type = 'mor')");
    spark.sql("INSERT INTO nokey_part VALUES (1, 'a', 1.0, 'd1'), (2, 'b', 2.0, 'd2')");
    spark.sql("INSERT INTO nokey_part VALUES (1, 'a', 1.0, 'd1')");
    assertThat(rows("SELECT uuid, name, dt FROM nokey_part")).containsExactly("[1,a,d1]", "[1,a,d1]", "[2,b,d2]");
    List<Row> keys = spark.sql("SELECT _hoodie_commit_time, _hoodie_record_key, _hoodie_partition_path "
        + "FROM nokey_part").collectAsList();
    assertThat(keys).allSatisfy(r -> assertThat(r.getString(1)).matches(r.getString(0) + "_[0-9]+_[0-9]+"));
    assertThat(keys.stream().map(r -> r.getString(1)).distinct()).hasSize(3);
    assertThat(keys.stream().map(r -> r.getString(2)).distinct().sorted()).containsExactly("dt=d1", "dt=d2");

    spark.sql("INSERT OVERWRITE nokey_part PARTITION (dt = 'd1') SELECT 3, 'c', 3.0");
    assertThat(rows("SELECT uuid, dt FROM nokey_part")).containsExactly("[2,d2]", "[3,d1]");
    assertThat(operations(location)).containsExactly("insert", "insert", "insert_overwrite");
  }

  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void updateAndDeleteChangeRowsByTheirStoredKeys(String type) throws Exception {
    String name = "nokey_changed_" + type;
    String location = createAt(name + " (uuid INT, name STRING, dt STRING) USING hudi PARTITIONED BY (dt) "
        + "TBLPROPERTIES (type = '" + type + "')");
    spark.sql("INSERT INTO " + name + " VALUES (1, 'a', 'd1'), (1, 'a', 'd1'), (2, 'b', 'd2'), (3, 'c', 'd1')");
    Map<String, String> keysBefore = keysByRow(name);

    spark.sql("UPDATE " + name + " SET name = 'x' WHERE uuid = 1");
    assertThat(rows("SELECT uuid, name, dt FROM " + name)).containsExactly("[1,x,d1]", "[1,x,d1]", "[2,b,d2]", "[3,c,d1]");
    spark.sql("DELETE FROM " + name + " WHERE uuid = 3 OR name = 'b'");

    assertThat(rows("SELECT uuid, name, dt FROM " + name)).containsExactly("[1,x,d1]", "[1,x,d1]");
    List<Row> kept = spark.sql("SELECT _hoodie_record_key, _hoodie_partition_path FROM " + name).collectAsList();
    assertThat(kept).extracting(r -> r.getString(0)).containsExactlyInAnyOrderElementsOf(
        keysBefore.entrySet().stream().filter(e -> e.getValue().equals("1")).map(Map.Entry::getKey).toList());
    assertThat(kept).extracting(r -> r.getString(1)).containsOnly("dt=d1");
    assertThat(operations(location)).containsExactly("insert", "upsert", "delete");
  }

  /** Each row's stored key, to its uuid. */
  static Map<String, String> keysByRow(String table) {
    Map<String, String> keys = new java.util.HashMap<>();
    spark.sql("SELECT _hoodie_record_key, uuid FROM " + table).collectAsList()
        .forEach(r -> keys.put(r.getString(0), String.valueOf(r.getInt(1))));
    return keys;
  }

  @Test
  void mergeAndUpsertingInsertsAreRefusedNamingWhatIsNotSupported() throws Exception {
    String location = createAt("nokey_refused (uuid INT, name STRING) USING hudi");
    spark.sql("INSERT INTO nokey_refused VALUES (1, 'a')");
    assertThatThrownBy(() -> spark.sql("MERGE INTO nokey_refused t USING (SELECT 1 AS uuid, 'x' AS name) s "
        + "ON t.uuid = s.uuid WHEN MATCHED THEN UPDATE SET *")).isInstanceOf(RefusedStatementException.class)
        .hasMessageContaining("is not supported yet: the table has no primary key");
    spark.sql("SET hoodie.spark.sql.insert.into.operation = upsert");
    try {
      assertThatThrownBy(() -> spark.sql("INSERT INTO nokey_refused VALUES (2, 'b')"))
          .isInstanceOf(InvalidTableException.class)
          .hasMessageContaining("hoodie.datasource.write.operation=upsert is not supported");
    } finally {
      spark.sql("RESET hoodie.spark.sql.insert.into.operation");
    }
    assertThat(rows("SELECT uuid, name FROM nokey_refused")).containsExactly("[1,a]");
    assertThat(operations(location)).containsExactly("insert");
  }
}
