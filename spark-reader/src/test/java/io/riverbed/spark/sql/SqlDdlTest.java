package io.riverbed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
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
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hudi's Spark SQL DDL and INSERT through {@link RiverbedCatalog} as the session catalog (Spark's
 * in-memory catalog behind it): the statements of Hudi's SQL guide, checked on the files they
 * leave ({@code hoodie.properties}, the timeline, partition folders) and by reading back.
 */
class SqlDdlTest {
  static final String DB = "riverbed_sql_ddl";
  static SparkSession spark;
  static Path warehouse;

  @BeforeAll
  static void session() throws Exception {
    spark = SparkTestSession.get().newSession();
    spark.conf().set("spark.sql.catalog.spark_catalog", RiverbedCatalog.class.getName());
    warehouse = Files.createTempDirectory("sql-ddl-db");
    spark.sql("CREATE DATABASE " + DB + " LOCATION '" + warehouse.toUri() + "'");
    spark.sql("USE " + DB);
  }

  @AfterAll
  static void dropDatabase() {
    spark.sql("DROP DATABASE " + DB + " CASCADE");
  }

  static List<String> rows(String sql) {
    return spark.sql(sql).collectAsList().stream().map(Row::toString).sorted().toList();
  }

  static String newLocation() throws Exception {
    return Files.createTempDirectory("sql-ddl").resolve("t").toUri().toString();
  }

  /** Runs {@code CREATE TABLE <definition> LOCATION '<a new folder>'} and returns the folder. */
  static String createAt(String definition) throws Exception {
    String location = newLocation();
    spark.sql("CREATE TABLE " + definition + " LOCATION '" + location + "'");
    return location;
  }

  static Table table(String location) throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(location);
    FileSystem fs = path.getFileSystem(new Configuration());
    return Table.open(fs, path);
  }

  static String location(String name) {
    return spark.sql("DESCRIBE TABLE EXTENDED " + name).collectAsList().stream()
        .filter(r -> "Location".equals(r.getString(0))).map(r -> r.getString(1)).findFirst().orElseThrow();
  }

  @Test
  void createTableWritesHoodiePropertiesAsHudiSqlDoes() throws Exception {
    String location = createAt("trips (id INT, name STRING, price DOUBLE, ts BIGINT, dt STRING) USING hudi "
        + "PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts', type = 'cow')");
    Map<String, String> properties = table(location).config().properties();
    assertThat(properties)
        .containsEntry("hoodie.table.name", "trips")
        .containsEntry("hoodie.database.name", DB)
        .containsEntry("hoodie.table.type", "COPY_ON_WRITE")
        .containsEntry("hoodie.table.recordkey.fields", "id")
        .containsEntry("hoodie.table.precombine.field", "ts")
        .containsEntry("hoodie.table.partition.fields", "dt")
        .containsEntry("hoodie.table.keygenerator.class", "org.apache.hudi.keygen.SimpleKeyGenerator")
        .containsEntry("hoodie.datasource.write.hive_style_partitioning", "true")
        .containsEntry("hoodie.table.version", "6")
        .containsKey("hoodie.table.create.schema");
    assertThat(spark.table("trips").schema().fieldNames()).containsExactly("_hoodie_commit_time",
        "_hoodie_commit_seqno", "_hoodie_record_key", "_hoodie_partition_path", "_hoodie_file_name",
        "id", "name", "price", "ts", "dt");
    assertThat(spark.table("trips").count()).isZero();

    spark.sql("INSERT INTO trips VALUES (1, 'a1', 10.0, 1000, '2021-01-05'), (2, 'a2', 20.0, 1000, '2021-01-06')");
    spark.sql("INSERT INTO trips PARTITION (dt = '2021-01-07') SELECT 3, 'a3', 30.0, 1000");
    assertThat(rows("SELECT id, name, price, ts, dt FROM trips")).containsExactly(
        "[1,a1,10.0,1000,2021-01-05]", "[2,a2,20.0,1000,2021-01-06]", "[3,a3,30.0,1000,2021-01-07]");
    assertThat(rows("SELECT _hoodie_record_key, _hoodie_partition_path FROM trips WHERE id = 3"))
        .containsExactly("[3,dt=2021-01-07]");
    assertThat(Files.isDirectory(Path.of(java.net.URI.create(location)).resolve("dt=2021-01-07"))).isTrue();
    assertThat(rows("SHOW PARTITIONS trips")).containsExactly("[dt=2021-01-05]", "[dt=2021-01-06]", "[dt=2021-01-07]");
    assertThat(rows("SHOW PARTITIONS trips PARTITION (dt = '2021-01-06')")).containsExactly("[dt=2021-01-06]");
  }

  /** The operation of each completed instant, oldest first. */
  static List<String> operations(String location) throws Exception {
    Table t = table(location);
    return t.refreshTimeline().completed().instants().stream()
        .map(i -> CommitMetadata.fromJson(t.timelineStore().read(i), i.toString()).operationType().value()).toList();
  }

  @Test
  void insertIntoOperationFollowsTheSessionAndTableSettings() throws Exception {
    String location = createAt("ops (id INT, name STRING, ts BIGINT) USING hudi "
        + "TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts')");
    // Hudi 0.14+: INSERT INTO is an insert unless hoodie.spark.sql.insert.into.operation says otherwise
    spark.sql("INSERT INTO ops VALUES (1, 'first', 1), (2, 'other', 1)");
    spark.sql("SET hoodie.spark.sql.insert.into.operation = upsert");
    try {
      spark.sql("INSERT INTO ops VALUES (1, 'second', 2)");
    } finally {
      spark.sql("RESET hoodie.spark.sql.insert.into.operation");
    }
    spark.sql("ALTER TABLE ops SET TBLPROPERTIES ('hoodie.spark.sql.insert.into.operation' = 'bulk_insert')");
    spark.sql("INSERT INTO ops VALUES (3, 'third', 1)");
    spark.sql("SET hoodie.sql.insert.mode = upsert");
    try {
      // the table's setting wins over the session's deprecated one
      spark.sql("INSERT INTO ops VALUES (4, 'fourth', 1)");
    } finally {
      spark.sql("RESET hoodie.sql.insert.mode");
    }
    assertThat(operations(location)).containsExactly("insert", "upsert", "bulk_insert", "bulk_insert");
    assertThat(rows("SELECT id, name FROM ops")).containsExactly("[1,second]", "[2,other]", "[3,third]", "[4,fourth]");
    spark.sql("ALTER TABLE ops SET TBLPROPERTIES ('hoodie.spark.sql.insert.into.operation' = 'delete')");
    assertThatThrownBy(() -> spark.sql("INSERT INTO ops VALUES (5, 'x', 1)"))
        .hasMessageContaining("hoodie.spark.sql.insert.into.operation='delete'");
  }

  @Test
  void aMergeOnReadTableTakesUpsertsAsDeltaCommitsUnderTheTablesPayload() throws Exception {
    String location = createAt("mor_sql (id INT, name STRING, ts BIGINT, dt STRING) USING hudi PARTITIONED BY (dt) "
        + "TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts', type = 'mor', "
        + "'hoodie.spark.sql.insert.into.operation' = 'upsert')");
    spark.sql("INSERT INTO mor_sql VALUES (1, 'a', 1, 'p1'), (2, 'b', 1, 'p1')");
    spark.sql("INSERT INTO mor_sql VALUES (1, 'a2', 2, 'p1'), (2, 'stale', 0, 'p1')");
    assertThat(table(location).config().type().name()).isEqualTo("MERGE_ON_READ");
    // The first insert is a base file; the upsert tops up that small file group, merged under the table's
    // payload (OverwriteWithLatestAvroPayload: the later write wins against the base file, whatever its ts),
    // as Hudi 0.15's merge of a small file does.
    assertThat(rows("SELECT id, name FROM mor_sql")).containsExactly("[1,a2]", "[2,stale]");
    assertThat(table(location).refreshTimeline().completed().instants()).extracting(i -> i.action().name())
        .containsOnly("DELTA_COMMIT");
  }

  @Test
  void aManagedTableLivesUnderTheWarehouseAndDropDeletesIt() throws Exception {
    spark.sql("CREATE TABLE managed (id INT, v STRING) USING hudi TBLPROPERTIES (primaryKey = 'id')");
    spark.sql("INSERT INTO managed VALUES (1, 'x')");
    Path folder = warehouse.resolve("managed");
    assertThat(Path.of(java.net.URI.create(location("managed")))).isEqualTo(folder);
    assertThat(table(folder.toUri().toString()).config().name()).isEqualTo("managed");
    assertThat(table(folder.toUri().toString()).config().keyGeneratorClass())
        .contains("org.apache.hudi.keygen.NonpartitionedKeyGenerator");
    assertThat(rows("SELECT * FROM managed")).hasSize(1);
    spark.sql("DROP TABLE managed");
    assertThat(Files.exists(folder)).isFalse();
  }

  @Test
  void createTableAsSelectMatchesColumnsByName() throws Exception {
    String location = newLocation();
    spark.sql("CREATE TABLE ctas USING hudi PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts') "
        + "LOCATION '" + location + "' AS SELECT 1 AS id, 'a1' AS name, '2021-12-01' AS dt, 1000L AS ts");
    assertThat(rows("SELECT id, name, ts, dt FROM ctas")).containsExactly("[1,a1,1000,2021-12-01]");
    assertThat(table(location).config().partitionFields()).containsExactly("dt");
    assertThat(operations(location)).containsExactly("bulk_insert");
    spark.sql("INSERT INTO ctas SELECT 2, 'a2', 2000, '2021-12-02'");
    assertThat(rows("SELECT id, name, ts, dt FROM ctas")).containsExactly("[1,a1,1000,2021-12-01]",
        "[2,a2,2000,2021-12-02]");
    assertThat(operations(location)).containsExactly("bulk_insert", "insert");
  }

  @Test
  void addColumnsCommitsTheNewSchema() throws Exception {
    String location = createAt("evolve (id INT, qty INT, ts BIGINT) USING hudi "
        + "TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts')");
    spark.sql("INSERT INTO evolve VALUES (1, 5, 1)");
    spark.sql("ALTER TABLE evolve ADD COLUMNS (note STRING)");
    Instant last = table(location).refreshTimeline().completed().last().orElseThrow();
    String metadata = new String(table(location).timelineStore().read(last), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(metadata).contains("\"operationType\" : \"ALTER_SCHEMA\"").contains("note");
    assertThat(spark.table("evolve").schema().fieldNames()).endsWith("ts", "note");
    spark.sql("INSERT INTO evolve VALUES (2, 6, 2, 'hello')");
    assertThat(rows("SELECT id, qty, note FROM evolve")).containsExactly("[1,5,null]", "[2,6,hello]");

    assertThatThrownBy(() -> spark.sql("ALTER TABLE evolve CHANGE COLUMN qty qty BIGINT"))
        .hasMessageContaining("ALTER TABLE " + DB + ".evolve CHANGE COLUMN qty BIGINT")
        .hasMessageContaining("hoodie.schema.on.read.enable=true");
    assertThatThrownBy(() -> spark.sql("ALTER TABLE evolve DROP COLUMN note"))
        .hasMessageContaining("DeleteColumn of column note is not supported");
  }

  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void changeColumnWidensTheTypeAndTheRowsWrittenBeforeReadInIt(String type) throws Exception {
    String name = "widen_" + type;
    createAt(name + " (uuid INT, name STRING, price FLOAT, ts BIGINT) USING hudi "
        + "TBLPROPERTIES (primaryKey = 'uuid', preCombineField = 'ts', type = '" + type + "')");
    spark.sql("INSERT INTO " + name + " VALUES (1, 'a', 1.5, 1), (2, 'b', 2.5, 1)");
    spark.sql("UPDATE " + name + " SET price = 3.5, ts = 2 WHERE uuid = 2");
    assertThatThrownBy(() -> spark.sql("ALTER TABLE " + name + " CHANGE COLUMN uuid uuid BIGINT"))
        .hasMessageContaining("hoodie.schema.on.read.enable=true");
    spark.sql("ALTER TABLE " + name + " SET TBLPROPERTIES ('hoodie.schema.on.read.enable' = 'true')");
    spark.sql("ALTER TABLE " + name + " CHANGE COLUMN uuid uuid BIGINT");
    spark.sql("ALTER TABLE " + name + " CHANGE COLUMN price price DOUBLE");
    assertThat(spark.table(name).schema().apply("uuid").dataType()).isEqualTo(DataTypes.LongType);
    assertThat(spark.table(name).schema().apply("price").dataType()).isEqualTo(DataTypes.DoubleType);
    spark.sql("INSERT INTO " + name + " VALUES (3000000000, 'c', 4.25, 1)");
    spark.sql("UPDATE " + name + " SET name = 'bb', ts = 3 WHERE uuid = 2");
    assertThat(rows("SELECT uuid, name, price FROM " + name))
        .containsExactly("[1,a,1.5]", "[2,bb,3.5]", "[3000000000,c,4.25]");
    assertThat(rows("SELECT uuid + 1, price * 2 FROM " + name + " WHERE uuid < 3"))
        .containsExactly("[2,3.0]", "[3,7.0]");
    assertThatThrownBy(() -> spark.sql("ALTER TABLE " + name + " CHANGE COLUMN ts ts STRING"))
        .hasMessageContaining("ALTER COLUMN ts TYPE STRING").hasMessageContaining("can only be widened");
  }

  @Test
  void renameFollowsInHoodieProperties() throws Exception {
    String location = createAt("before_rename (id INT, v STRING) USING hudi TBLPROPERTIES (primaryKey = 'id')");
    spark.sql("INSERT INTO before_rename VALUES (1, 'x')");
    spark.sql("ALTER TABLE before_rename RENAME TO after_rename");
    assertThat(table(location).config().name()).isEqualTo("after_rename");
    assertThat(table(location).config().hasValidChecksum()).isTrue();
    assertThat(rows("SELECT id, v FROM after_rename")).containsExactly("[1,x]");
    assertThat(spark.catalog().tableExists("before_rename")).isFalse();
  }

  @Test
  void describeShowsMetaColumnsAndPartitioning() throws Exception {
    spark.sql("CREATE TABLE described (id INT, v STRING, dt STRING) USING hudi PARTITIONED BY (dt) "
        + "TBLPROPERTIES (primaryKey = 'id') LOCATION '" + newLocation() + "'");
    List<String> described = spark.sql("DESCRIBE TABLE EXTENDED described").collectAsList().stream()
        .map(r -> r.getString(0) + "|" + r.getString(1)).toList();
    assertThat(described).startsWith("_hoodie_commit_time|string", "_hoodie_commit_seqno|string",
        "_hoodie_record_key|string", "_hoodie_partition_path|string", "_hoodie_file_name|string", "id|int",
        "v|string", "dt|string");
    assertThat(described).contains("# Partition Information|", "Provider|hudi");
    assertThat(described.stream().filter(l -> l.startsWith("Table Properties|")).findFirst().orElseThrow())
        .contains("primaryKey=id");
  }

  @Test
  void insertOverwriteReplacesTheTableOrThePartitionGiven() throws Exception {
    String flat = createAt("flat (id INT, v STRING) USING hudi TBLPROPERTIES (primaryKey = 'id')");
    spark.sql("INSERT INTO flat VALUES (1, 'old'), (2, 'old')");
    spark.sql("INSERT OVERWRITE flat SELECT 3, 'new'");
    assertThat(rows("SELECT id, v FROM flat")).containsExactly("[3,new]");
    assertThat(operations(flat)).containsExactly("insert", "insert_overwrite_table");

    String parted = createAt("parted (id INT, v STRING, dt STRING) USING hudi PARTITIONED BY (dt) "
        + "TBLPROPERTIES (primaryKey = 'id')");
    spark.sql("INSERT INTO parted VALUES (1, 'old', 'a'), (2, 'old', 'b')");
    spark.sql("INSERT OVERWRITE parted PARTITION (dt = 'a') SELECT 3, 'new'");
    assertThat(rows("SELECT id, v, dt FROM parted")).containsExactly("[2,old,b]", "[3,new,a]");
    assertThat(table(parted).refreshTimeline().completed().last().orElseThrow().action().name())
        .isEqualTo("REPLACE_COMMIT");
    // static mode without a partition spec overwrites the whole table, as Spark and Hudi do
    spark.sql("INSERT OVERWRITE parted SELECT 4, 'all', 'c'");
    assertThat(rows("SELECT id, v, dt FROM parted")).containsExactly("[4,all,c]");
    assertThat(operations(parted)).containsExactly("insert", "insert_overwrite", "insert_overwrite_table");
    assertThat(rows("SHOW PARTITIONS parted")).containsExactly("[dt=c]");

    spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    try {
      assertThatThrownBy(() -> spark.sql("INSERT OVERWRITE parted SELECT 5, 'x', 'c'"))
          .hasMessageContaining("does not support dynamic overwrite");
    } finally {
      spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
    }
    assertThat(rows("SELECT id FROM parted")).containsExactly("[4]");
  }

  @Test
  void dropPartitionDeletesItsFileGroups() throws Exception {
    String location = createAt("droppable (id INT, v STRING, dt STRING) USING hudi PARTITIONED BY (dt) "
        + "TBLPROPERTIES (primaryKey = 'id', type = 'mor')");
    spark.sql("INSERT INTO droppable VALUES (1, 'x', 'a'), (2, 'y', 'b')");
    spark.sql("ALTER TABLE droppable DROP PARTITION (dt = 'a')");
    assertThat(rows("SELECT id, dt FROM droppable")).containsExactly("[2,b]");
    assertThat(rows("SHOW PARTITIONS droppable")).containsExactly("[dt=b]");
    assertThat(operations(location)).containsExactly("insert", "delete_partition");
    assertThatThrownBy(() -> spark.sql("ALTER TABLE droppable DROP PARTITION (dt = 'zz')"))
        .hasMessageContaining("PARTITIONS_NOT_FOUND");
  }

  @Test
  void statementsRiverbedCannotRunAreRefusedByName() throws Exception {
    assertThatThrownBy(() -> spark.sql("CREATE TABLE bad_type (id INT) USING hudi TBLPROPERTIES "
        + "(primaryKey = 'id', type = 'xyz')")).hasMessageContaining("type = 'xyz' is neither 'cow' nor 'mor'");
    assertThat(spark.catalog().tableExists("bad_type")).isFalse();
    assertThat(Files.exists(warehouse.resolve("bad_type"))).isFalse();
    assertThatThrownBy(() -> spark.sql("CREATE TABLE missing_pk (id INT) USING hudi TBLPROPERTIES (primaryKey = 'uuid')"))
        .hasMessageContaining("uuid");
    spark.sql("CREATE TABLE narrow (id INT, v STRING) USING hudi TBLPROPERTIES (primaryKey = 'id') LOCATION '"
        + newLocation() + "'");
    assertThatThrownBy(() -> spark.sql("INSERT INTO narrow VALUES (1)"))
        .hasMessageContaining("INSERT INTO").hasMessageContaining("gives 1 columns").hasMessageContaining("[id, v]");
  }
}
