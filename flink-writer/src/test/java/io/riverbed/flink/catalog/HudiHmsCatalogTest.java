package io.riverbed.flink.catalog;

import static io.riverbed.flink.catalog.CatalogSessions.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.hive.testing.MetastoreExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code hudi} catalog in {@code hms} mode against a real Hive Metastore 3.1.3: databases are
 * Hive databases under {@code catalog.path}; a table created through it is a Hudi table on storage
 * and a metastore table registered as Hudi registers it (Spark's data source properties, Hudi's
 * input format, meta columns, partition keys, the Flink DDL); inserts sync their partitions; a
 * second catalog (found through {@code hive.conf.dir}) reads and writes it with no DDL; options
 * and added columns reach the metastore; a managed table's drop deletes its data, an external
 * one's keeps it.
 */
class HudiHmsCatalogTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @RegisterExtension
  static final MetastoreExtension metastore = new MetastoreExtension();

  @TempDir static Path root;
  static HiveMetaStoreClient hms;

  @BeforeAll
  static void client() {
    hms = metastore.client();
  }

  private static TableEnvironment session(String catalogOptions) {
    return CatalogSessions.withCatalog("'type' = 'hudi', 'mode' = 'hms', 'catalog.path' = '"
        + root.resolve("lake").toUri() + "', " + catalogOptions);
  }

  /** A session naming the metastore by the catalog option {@code hadoop.hive.metastore.uris}. */
  private static TableEnvironment byUri() {
    return session("'hadoop.hive.metastore.uris' = '" + metastore.uri() + "'");
  }

  /** A session finding the metastore in the {@code hive-site.xml} of {@code hive.conf.dir}. */
  private static TableEnvironment byHiveConfDir() throws Exception {
    Path conf = Files.createDirectories(root.resolve("hive-conf"));
    Files.writeString(conf.resolve("hive-site.xml"), """
        <configuration>
          <property><name>hive.metastore.uris</name><value>%s</value></property>
        </configuration>
        """.formatted(metastore.uri()));
    return session("'hive.conf.dir' = '" + conf + "'");
  }

  private static List<String> names(List<FieldSchema> fields) {
    return fields.stream().map(FieldSchema::getName).toList();
  }

  @Test
  void tablesAreRegisteredWrittenReadAlteredAndDroppedInTheMetastore() throws Exception {
    TableEnvironment first = byUri();
    first.executeSql("CREATE DATABASE ods");
    assertThat(hms.getDatabase("ods").getLocationUri()).isEqualTo("file:" + root.resolve("lake").resolve("ods"));
    first.executeSql(CatalogSessions.TRIPS_DDL);
    Path tableDir = root.resolve("lake").resolve("ods").resolve("trips");
    assertThat(tableDir.resolve(".hoodie/hoodie.properties")).exists();
    Table registered = hms.getTable("ods", "trips");
    assertThat(registered.getTableType()).isEqualTo("MANAGED_TABLE");
    assertThat(registered.getSd().getLocation()).isEqualTo("file:" + tableDir);
    assertThat(registered.getSd().getInputFormat()).isEqualTo("org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat");
    assertThat(registered.getSd().getSerdeInfo().getSerializationLib())
        .isEqualTo("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe");
    assertThat(names(registered.getSd().getCols())).containsExactly("_hoodie_commit_time", "_hoodie_commit_seqno",
        "_hoodie_record_key", "_hoodie_partition_path", "_hoodie_file_name", "id", "ts", "fare");
    assertThat(names(registered.getPartitionKeys())).containsExactly("city");
    assertThat(registered.getSd().getSerdeInfo().getParameters()).containsEntry("path", "file:" + tableDir)
        .containsEntry("hoodie.query.as.ro.table", "false").containsEntry("primaryKey", "id")
        .containsEntry("type", "mor").containsEntry("preCombineField", "ts");
    assertThat(registered.getParameters()).containsEntry("spark.sql.sources.provider", "hudi")
        .containsEntry("spark.sql.sources.schema.numPartCols", "1").containsEntry("spark.sql.sources.schema.partCol.0", "city")
        .containsEntry("connector", "hudi").containsEntry("table.type", "MERGE_ON_READ").containsEntry("precombine.field", "ts")
        .containsEntry("hoodie.datasource.write.recordkey.field", "id").containsEntry("comment", "trips by id")
        .doesNotContainKey("hive_sync.enabled");

    first.executeSql("INSERT INTO ods.trips VALUES ('a', 1, 10.50, 'paris'), ('b', 1, 7.25, 'rome')").await();
    first.executeSql("INSERT INTO ods.trips VALUES ('a', 2, 11.00, 'paris')").await();
    assertThat(hms.listPartitionNames("ods", "trips", (short) -1)).containsExactlyInAnyOrder("city=paris", "city=rome");
    assertThat(hms.getTable("ods", "trips").getParameters()).containsKey("last_commit_time_sync");

    TableEnvironment later = byHiveConfDir();
    assertThat(rows(later, "SHOW TABLES IN ods")).containsExactly("+I[trips]", "+I[trips_ro]", "+I[trips_rt]");
    assertThat(rows(later, "SELECT id, ts, fare, city FROM ods.trips"))
        .containsExactlyInAnyOrder("+I[a, 2, 11.00, paris]", "+I[b, 1, 7.25, rome]");
    var table = (CatalogTable) later.getCatalog("lake").orElseThrow().getTable(new ObjectPath("ods", "trips"));
    assertThat(table.getComment()).isEqualTo("trips by id");
    assertThat(table.getUnresolvedSchema().getPrimaryKey()).hasValueSatisfying(k -> assertThat(k.getColumnNames()).containsExactly("id"));
    assertThat(table.getPartitionKeys()).containsExactly("city");
    assertThat(table.getOptions()).containsEntry("connector", "hudi").containsEntry("table.type", "MERGE_ON_READ")
        .containsEntry("path", "file:" + tableDir).containsEntry("hive_sync.enabled", "true")
        .containsEntry("hive_sync.db", "ods").containsEntry("hive_sync.table", "trips")
        .doesNotContainKeys("spark.sql.sources.provider", "EXTERNAL", "last_commit_time_sync", "transient_lastDdlTime");

    assertThat(rows(later, "SELECT id, ts, fare, city FROM ods.trips_rt"))
        .containsExactlyInAnyOrder("+I[a, 2, 11.00, paris]", "+I[b, 1, 7.25, rome]");
    assertThat(later.getCatalog("lake").orElseThrow().getTable(new ObjectPath("ods", "trips_ro")).getOptions())
        .containsEntry("hoodie.datasource.query.type", "read_optimized").containsEntry("path", "file:" + tableDir)
        .containsEntry("hive_sync.table", "trips");
    assertThatThrownBy(() -> later.executeSql("ALTER TABLE ods.trips_rt SET ('compaction.delta_commits' = '2')"))
        .hasStackTraceContaining("catalog lake: ods.trips_rt: ALTER TABLE is available for tables a Flink catalog created");

    later.executeSql("ALTER TABLE ods.trips SET ('compaction.delta_commits' = '2')");
    assertThat(hms.getTable("ods", "trips").getParameters()).containsEntry("compaction.delta_commits", "2")
        .containsEntry("precombine.field", "ts").containsEntry("spark.sql.sources.provider", "hudi")
        .doesNotContainKey("hive_sync.enabled");
    later.executeSql("ALTER TABLE ods.trips RESET ('compaction.delta_commits')");
    assertThat(hms.getTable("ods", "trips").getParameters()).doesNotContainKey("compaction.delta_commits");
    later.executeSql("ALTER TABLE ods.trips ADD note STRING");
    Table evolvedEntry = hms.getTable("ods", "trips");
    assertThat(names(evolvedEntry.getSd().getCols())).endsWith("fare", "note");
    assertThat(evolvedEntry.getParameters().get("spark.sql.sources.schema.part.0")).contains("\"name\":\"note\"");
    TableEnvironment evolved = byUri();
    evolved.executeSql("INSERT INTO ods.trips VALUES ('c', 1, 3.00, 'rome', 'new')").await();
    assertThat(rows(evolved, "SELECT id, fare, note FROM ods.trips"))
        .containsExactlyInAnyOrder("+I[a, 11.00, null]", "+I[b, 7.25, null]", "+I[c, 3.00, new]");
    assertThat(names(hms.getPartition("ods", "trips", List.of("rome")).getSd().getCols())).endsWith("note");
    assertThatThrownBy(() -> evolved.executeSql("ALTER TABLE ods.trips DROP fare"))
        .hasStackTraceContaining("other changes of its columns, primary key or partitions are not available");

    evolved.executeSql("DROP TABLE ods.trips");
    assertThat(hms.tableExists("ods", "trips")).isFalse();
    assertThat(tableDir).doesNotExist();
    assertThatThrownBy(() -> evolved.executeSql("DROP DATABASE ods")).hasStackTraceContaining("is not empty");
    evolved.executeSql("DROP DATABASE ods CASCADE");
    assertThat(rows(evolved, "SHOW DATABASES")).doesNotContain("+I[ods]");
  }

  @Test
  void anExternalTableKeepsItsDataWhenDroppedAndOtherConnectorsAreRefused() throws Exception {
    TableEnvironment tEnv = session("'hadoop.hive.metastore.uris' = '" + metastore.uri() + "', 'table.external' = 'true'");
    Path location = root.resolve("elsewhere").resolve("events");
    tEnv.executeSql("CREATE TABLE events (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('path' = '"
        + location.toUri() + "')");
    Table registered = hms.getTable("default", "events");
    assertThat(registered.getTableType()).isEqualTo("EXTERNAL_TABLE");
    assertThat(registered.getParameters()).containsEntry("EXTERNAL", "TRUE");
    assertThat(registered.getSd().getInputFormat()).isEqualTo("org.apache.hudi.hadoop.HoodieParquetInputFormat");
    assertThat(registered.getPartitionKeys()).isEmpty();
    tEnv.executeSql("INSERT INTO events VALUES (1, 'one')").await();
    assertThat(rows(byUri(), "SELECT * FROM events")).containsExactly("+I[1, one]");

    tEnv.executeSql("DROP TABLE events");
    assertThat(hms.tableExists("default", "events")).isFalse();
    assertThat(location.resolve(".hoodie/hoodie.properties")).exists();

    Table hiveOnly = new Table();
    hiveOnly.setDbName("default");
    hiveOnly.setTableName("plain_hive");
    StorageDescriptor sd = new StorageDescriptor();
    sd.setCols(List.of(new FieldSchema("x", "int", null)));
    sd.setLocation(root.resolve("plain").toUri().toString());
    sd.setInputFormat("org.apache.hadoop.mapred.TextInputFormat");
    sd.setOutputFormat("org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat");
    sd.setSerdeInfo(new SerDeInfo(null, "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe", new HashMap<>()));
    hiveOnly.setSd(sd);
    hiveOnly.setPartitionKeys(List.of());
    hiveOnly.setParameters(new HashMap<>());
    hms.createTable(hiveOnly);
    assertThatThrownBy(() -> tEnv.executeSql("SELECT * FROM plain_hive"))
        .hasStackTraceContaining("catalog lake: default.plain_hive is not a Hudi table");

    assertThatThrownBy(() -> tEnv.executeSql("CREATE TABLE t (id STRING) WITH ('connector' = 'datagen')"))
        .hasStackTraceContaining("catalog lake: default.t: the hudi catalog holds 'connector' = 'hudi' tables only");
    assertThatThrownBy(() -> tEnv.executeSql("CREATE TABLE t (id STRING, name STRING, PRIMARY KEY (id) NOT ENFORCED) "
        + "WITH ('hoodie.datasource.write.recordkey.field' = 'name')"))
        .hasStackTraceContaining("catalog lake: default.t: PRIMARY KEY [id] and option "
            + "'hoodie.datasource.write.recordkey.field' = 'name' name different columns");
    assertThat(hms.tableExists("default", "t")).isFalse();
    TableEnvironment plain = byUri();
    assertThatThrownBy(() -> plain.executeSql("CREATE CATALOG h WITH ('type' = 'hudi', 'mode' = 'hms')"))
        .hasStackTraceContaining("Catalog h: mode 'hms' needs the metastore's thrift URIs");
  }
}
