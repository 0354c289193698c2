package io.riverbed.spark.write;

import static io.riverbed.spark.write.SparkWriteTest.newPath;
import static io.riverbed.spark.write.SparkWriteTest.options;
import static io.riverbed.spark.write.SparkWriteTest.read;
import static io.riverbed.spark.write.SparkWriteTest.trips;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.hive.testing.MetastoreExtension;
import io.riverbed.hive.testing.MetastoreServer;
import io.riverbed.spark.SparkTestSession;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code df.write.format("hudi")} with Hudi's Hive sync options registers the table in a real Hive
 * Metastore after the commit, as the EMR guide's writes do; a failed sync fails the write and keeps
 * the commit; sync options Riverbed cannot honour are refused before anything is written.
 */
class SparkHiveSyncTest {
  @RegisterExtension
  static final MetastoreExtension HMS = new MetastoreExtension();
  static SparkSession spark;

  @BeforeAll
  static void session() {
    spark = SparkTestSession.get();
    SparkWriteTest.session();
  }

  /** The EMR guide's sync options (Scala, by their Hudi keys), against the test's metastore. */
  static Map<String, String> syncing(TableType type, String table) {
    Map<String, String> o = new HashMap<>(options(type));
    o.put("hoodie.table.name", table);
    o.put("hoodie.datasource.hive_sync.enable", "true");
    o.put("hoodie.datasource.hive_sync.table", table);
    o.put("hoodie.datasource.hive_sync.partition_fields", "creation_date");
    o.put("hoodie.datasource.hive_sync.partition_extractor_class", "org.apache.hudi.hive.MultiPartKeysValueExtractor");
    o.put("hoodie.datasource.meta.sync.enable", "true");
    o.put("hoodie.datasource.hive_sync.mode", "hms");
    o.put("hoodie.datasource.hive_sync.metastore.uris", HMS.uri());
    return o;
  }

  static void write(Dataset<Row> df, String path, Map<String, String> options, String operation, String mode) {
    SparkWriteTest.write(df, path, options, operation, mode);
  }

  static Table table(String path) throws Exception {
    Path base = new Path(path);
    return Table.open(base.getFileSystem(new Configuration()), base);
  }

  static String lastCommit(String path) throws Exception {
    return table(path).refreshTimeline().commitsTimeline().completed().last().orElseThrow().time();
  }

  static List<String> partitionNames(String db, String table) throws Exception {
    return HMS.client().listPartitions(db, table, (short) -1).stream().map(Partition::getValues)
        .map(v -> String.join("/", v)).sorted().toList();
  }

  static List<String> columns(String db, String table) throws Exception {
    return HMS.client().getTable(db, table).getSd().getCols().stream().map(f -> f.getName() + ":" + f.getType()).toList();
  }

  @Test
  void copyOnWriteWritesRegisterTheTableAndItsNewPartitionsAfterEachCommit() throws Exception {
    String path = newPath();
    write(trips(new Object[] {"1", "2026-01-01", "t1", 1.0}, new Object[] {"2", "2026-01-02", "t1", 2.0}), path,
        syncing(TableType.COPY_ON_WRITE, "cow_synced"), "insert", "overwrite");

    var t = HMS.client().getTable("default", "cow_synced");
    assertThat(t.getSd().getLocation()).isEqualTo(table(path).basePath().toString());
    assertThat(t.getSd().getInputFormat()).isEqualTo("org.apache.hudi.hadoop.HoodieParquetInputFormat");
    assertThat(t.getPartitionKeys()).extracting(FieldSchema::getName).containsExactly("creation_date");
    assertThat(columns("default", "cow_synced")).containsExactly("_hoodie_commit_time:string",
        "_hoodie_commit_seqno:string", "_hoodie_record_key:string", "_hoodie_partition_path:string",
        "_hoodie_file_name:string", "id:string", "last_update_time:string", "fare:double");
    assertThat(t.getParameters()).containsEntry("last_commit_time_sync", lastCommit(path))
        .containsEntry("spark.sql.sources.provider", "hudi").containsEntry("spark.sql.create.version", spark.version());
    assertThat(partitionNames("default", "cow_synced")).containsExactly("2026-01-01", "2026-01-02");

    write(trips(new Object[] {"2", "2026-01-02", "t2", 3.0}, new Object[] {"3", "2026-01-03", "t2", 4.0}), path,
        syncing(TableType.COPY_ON_WRITE, "cow_synced"), "upsert", "append");

    assertThat(partitionNames("default", "cow_synced")).containsExactly("2026-01-01", "2026-01-02", "2026-01-03");
    assertThat(HMS.client().getTable("default", "cow_synced").getParameters())
        .containsEntry("last_commit_time_sync", lastCommit(path));
  }

  @Test
  void theSerdePathIsTheBasePathAsTheWriteGaveItAsHudiRegistersIt() throws Exception {
    String qualified = newPath();
    String unqualified = java.net.URI.create(qualified).getPath();
    write(trips(new Object[] {"1", "2026-01-01", "t1", 1.0}), unqualified + "/",
        syncing(TableType.COPY_ON_WRITE, "cow_as_given"), "insert", "overwrite");

    var t = HMS.client().getTable("default", "cow_as_given");
    assertThat(t.getSd().getSerdeInfo().getParameters()).containsEntry("path", unqualified);
    assertThat(t.getSd().getLocation()).as("the metastore qualifies a location").isEqualTo("file:" + unqualified);
    assertThat(HMS.client().listPartitions("default", "cow_as_given", (short) -1)).singleElement().satisfies(p -> {
      assertThat(p.getSd().getSerdeInfo().getParameters()).containsEntry("path", unqualified);
      assertThat(p.getSd().getLocation()).isEqualTo("file:" + unqualified + "/2026-01-01");
    });
  }

  @Test
  void mergeOnReadWritesRegisterTheReadOptimizedAndSnapshotTablesAsHudiDoes() throws Exception {
    String path = newPath();
    write(trips(new Object[] {"1", "2026-01-01", "t1", 1.0}), path, syncing(TableType.MERGE_ON_READ, "mor_synced"),
        "insert", "overwrite");

    assertThat(HMS.client().getTables("default", "mor_synced*")).containsExactlyInAnyOrder("mor_synced", "mor_synced_ro",
        "mor_synced_rt");
    assertThat(HMS.client().getTable("default", "mor_synced_rt").getSd().getInputFormat())
        .isEqualTo("org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat");
    assertThat(partitionNames("default", "mor_synced_ro")).containsExactly("2026-01-01");
  }

  @Test
  void aFailedSyncFailsTheWriteAndTheCommitStands() throws Exception {
    String path = newPath();
    Map<String, String> o = syncing(TableType.COPY_ON_WRITE, "unreachable");
    String nowhere = "thrift://127.0.0.1:" + MetastoreServer.freePort();
    o.put("hoodie.datasource.hive_sync.metastore.uris", nowhere);

    assertThatThrownBy(() -> write(trips(new Object[] {"1", "2026-01-01", "t1", 1.0}), path, o, "insert", "overwrite"))
        .hasMessageContaining("is complete, but its Hive sync to " + nowhere + " failed")
        .hasMessageContaining("cannot connect to the Hive Metastore");
    assertThat(read(path)).containsOnlyKeys("1");
  }

  @Test
  void syncSettingsRiverbedCannotHonourAreRefusedBeforeAnythingIsWritten() throws Exception {
    String path = newPath();
    Map<String, String> jdbc = syncing(TableType.COPY_ON_WRITE, "jdbc_mode");
    jdbc.put("hoodie.datasource.hive_sync.mode", "jdbc");
    assertThatThrownBy(() -> write(trips(new Object[] {"1", "2026-01-01", "t1", 1.0}), path, jdbc, "insert", "overwrite"))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("hoodie.datasource.hive_sync.mode='jdbc'");

    Map<String, String> glue = syncing(TableType.COPY_ON_WRITE, "glue");
    glue.remove("hoodie.datasource.hive_sync.enable");
    glue.put("hoodie.meta.sync.client.tool.class", "org.apache.hudi.aws.sync.AwsGlueCatalogSyncTool");
    assertThatThrownBy(() -> write(trips(new Object[] {"1", "2026-01-01", "t1", 1.0}), path, glue, "insert", "overwrite"))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("org.apache.hudi.aws.sync.AwsGlueCatalogSyncTool");

    assertThat(new java.io.File(java.net.URI.create(path))).doesNotExist();
  }
}
