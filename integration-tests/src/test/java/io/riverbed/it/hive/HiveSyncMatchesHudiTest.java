package io.riverbed.it.hive;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.TimelineTimezone;
import io.riverbed.format.testing.NewFileGroupCommits;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.riverbed.RiverbedScenarios;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.Trip;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hudi.hive.HiveSyncTool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Hudi 0.15's {@code HiveSyncTool} (hms mode, in this JVM on Spark's Hive 2.3.9 client) and
 * Riverbed's {@code riverbed-hive-sync} (a child JVM on Hive 3.1's client) sync the same tables into
 * one Hive Metastore 3.1.3 (another child JVM), each into its own database; every field of every
 * registered table (columns, partition keys, formats, serde and its properties, location, table
 * properties, each partition's values, location and columns) must be the same. Only the create
 * time and {@code transient_lastDdlTime} (when each tool ran) may differ. And Spark SQL reading the
 * tables Riverbed synced by name, with Hudi's bundle or with Riverbed's reader and
 * {@code RiverbedCatalog}, returns what Hudi reading their paths does.
 */
class HiveSyncMatchesHudiTest {
  static final String HUDI_DB = "hudi_db";
  static final String RIVERBED_DB = "riverbed_db";
  static final String MULTI_PART = "org.apache.hudi.hive.MultiPartKeysValueExtractor";

  @TempDir
  static Path dir;
  static HiveSyncProcesses.MetastoreWithClient hive;
  static HiveSyncProcesses.Metastore metastore;
  static HiveMetaStoreClient hms;

  @BeforeAll
  static void startMetastore() throws Exception {
    hive = HiveSyncProcesses.MetastoreWithClient.start(dir.resolve("metastore"));
    metastore = hive.metastore;
    hms = hive.client;
  }

  @AfterAll
  static void stopMetastore() throws Exception {
    if (hive != null) {
      hive.close();
    }
  }

  static void hudiSync(String basePath, String table, List<String> partitionFields) {
    Properties props = new Properties();
    props.setProperty("hoodie.datasource.meta.sync.base.path", basePath);
    props.setProperty("hoodie.datasource.hive_sync.database", HUDI_DB);
    props.setProperty("hoodie.datasource.hive_sync.table", table);
    props.setProperty("hoodie.datasource.hive_sync.metastore.uris", metastore.uri);
    props.setProperty("hoodie.datasource.hive_sync.mode", "hms");
    props.setProperty("hoodie.datasource.hive_sync.partition_fields", String.join(",", partitionFields));
    props.setProperty("hoodie.datasource.hive_sync.partition_extractor_class",
        partitionFields.isEmpty() ? "org.apache.hudi.hive.NonPartitionedExtractor" : MULTI_PART);
    try (HiveSyncTool tool = new HiveSyncTool(props, new Configuration())) {
      tool.syncHoodieTable();
    }
  }

  static String riverbedSync(String basePath, String table, List<String> partitionFields) {
    var args = new ArrayList<>(List.of("--base-path", basePath, "--database", RIVERBED_DB, "--table", table,
        "--metastore-uris", metastore.uri, "--partitioned-by", String.join(",", partitionFields)));
    if (!partitionFields.isEmpty()) {
      args.addAll(List.of("--partition-value-extractor", MULTI_PART));
    }
    return HiveSyncProcesses.sync(dir.resolve("riverbed-sync"), Duration.ofMinutes(10), args);
  }

  static Map<String, Object> describe(String db, String table) throws Exception {
    return MetastoreDescriptors.describe(hms, db, table);
  }

  static void assertSameDescriptors(String table) throws Exception {
    Map<String, Object> hudi = describe(HUDI_DB, table);
    Map<String, Object> riverbed = describe(RIVERBED_DB, table);
    for (String field : hudi.keySet()) {
      assertThat(riverbed.get(field)).as(table + ": " + field).isEqualTo(hudi.get(field));
    }
    assertThat(riverbed).isEqualTo(hudi);
  }

  /** Syncs {@code table} with both tools as {@code name}; every metastore table registered must be alike. */
  static void syncBothAndCompare(ScenarioTable table, String name, List<String> expectedTables) throws Exception {
    String base = table.path().toUri().toString();
    hudiSync(base, name, Trip.PARTITION_FIELDS);
    riverbedSync(base, name, Trip.PARTITION_FIELDS);

    assertThat(hms.getTables(RIVERBED_DB, name + "*")).containsExactlyInAnyOrderElementsOf(hms.getTables(HUDI_DB, name + "*"))
        .containsExactlyInAnyOrderElementsOf(expectedTables);
    for (String registered : expectedTables) {
      assertSameDescriptors(registered);
      assertThat(hms.listPartitions(RIVERBED_DB, registered, (short) -1)).isNotEmpty();
    }
  }

  @Test
  void mergeOnReadScenarioTableIsRegisteredAsHudiRegistersIt() throws Exception {
    syncBothAndCompare(RiverbedScenarios.mor(), "trips", List.of("trips_ro", "trips_rt", "trips"));
  }

  @Test
  void copyOnWriteHiveStyleScenarioTableIsRegisteredAsHudiRegistersIt() throws Exception {
    syncBothAndCompare(RiverbedScenarios.cow(), "composite", List.of("composite"));
  }

  @Test
  void sparkSqlReadsTheTablesRiverbedSyncedByNameAsHudiReadsTheirPaths() throws Exception {
    ScenarioTable mor = RiverbedScenarios.mor();
    ScenarioTable cow = RiverbedScenarios.cow();
    riverbedSync(mor.path().toUri().toString(), "trips", Trip.PARTITION_FIELDS);
    riverbedSync(cow.path().toUri().toString(), "composite", Trip.PARTITION_FIELDS);

    List<SqlByNameMain.Read> reads = List.of(
        new SqlByNameMain.Read(RIVERBED_DB + ".trips_rt", mor.path().toUri().toString(), "snapshot"),
        new SqlByNameMain.Read(RIVERBED_DB + ".trips", mor.path().toUri().toString(), "snapshot"),
        new SqlByNameMain.Read(RIVERBED_DB + ".trips_ro", mor.path().toUri().toString(), "read_optimized"),
        new SqlByNameMain.Read(RIVERBED_DB + ".composite", cow.path().toUri().toString(), "snapshot"));
    List<SqlByNameMain.Answer> answers = SqlByNameMain.read(metastore.uri, dir.resolve("by-name"), reads);
    List<Rows> riverbedByName = SqlByNameMain.readWithRiverbed(metastore.uri, dir.resolve("by-name-riverbed"), reads);

    for (int i = 0; i < reads.size(); i++) {
      SqlByNameMain.Answer answer = answers.get(i);
      assertThat(answer.byName().size()).as(answer.read().table()).isPositive();
      assertThat(answer.byName().lines()).as(answer.read().table() + " by name vs its path")
          .containsExactlyElementsOf(answer.byPath().lines());
      assertThat(riverbedByName.get(i).lines()).as(answer.read().table() + " by name through RiverbedCatalog vs Hudi reading its path")
          .containsExactlyElementsOf(answer.byPath().lines());
    }
    // the read-optimized table reads base files only: the MOR table's logs make its rows differ
    assertThat(answers.get(2).byName().lines()).isNotEqualTo(answers.get(0).byName().lines());
    assertThat(riverbedByName.get(2).lines()).isNotEqualTo(riverbedByName.get(0).lines());
  }

  static final Schema EVENT = SchemaBuilder.record("event").namespace("hoodie.events").fields()
      .requiredString("id").requiredLong("ts").requiredString("day").endRecord();
  static final Schema EVENT_WITH_NOTE = SchemaBuilder.record("event").namespace("hoodie.events").fields()
      .requiredString("id").requiredLong("ts").requiredString("day").optionalString("note").endRecord();

  static GenericRecord event(Schema schema, String id, long ts, String day) {
    GenericRecord r = new GenericData.Record(schema);
    r.put("id", id);
    r.put("ts", ts);
    r.put("day", day);
    if (schema.getField("note") != null) {
      r.put("note", "n" + ts);
    }
    return r;
  }

  @Test
  void secondSyncAfterNewPartitionsAndAnAddedColumnMatchesHudisSecondSync() throws Exception {
    TableConfig config = TableConfig.builder("events").type(TableType.MERGE_ON_READ).recordKeyFields(List.of("id"))
        .partitionFields(List.of("day")).precombineField("ts").keyGeneratorClass("org.apache.hudi.keygen.SimpleKeyGenerator")
        .payloadClass(PayloadMergeRule.DEFAULT.payloadClass()).timelineTimezone(TimelineTimezone.UTC).build();
    Table table = Table.create(FileSystem.getLocal(new Configuration()),
        new org.apache.hadoop.fs.Path(dir.resolve("events").toUri()), config);
    String base = table.basePath().toString();
    NewFileGroupCommits.commit(table, EVENT, List.of(event(EVENT, "a", 1, "2024-06-01"), event(EVENT, "b", 2, "2024-06-02")));
    hudiSync(base, "events", List.of("day"));
    riverbedSync(base, "events", List.of("day"));
    for (String name : List.of("events_ro", "events_rt", "events")) {
      assertSameDescriptors(name);
    }

    NewFileGroupCommits.commit(table, EVENT, List.of(event(EVENT, "c", 3, "2024-06-03")));
    String last = NewFileGroupCommits.commit(table, EVENT_WITH_NOTE,
        List.of(event(EVENT_WITH_NOTE, "d", 4, "2024-06-01"), event(EVENT_WITH_NOTE, "e", 5, "2024-06-04")));
    hudiSync(base, "events", List.of("day"));
    String printed = riverbedSync(base, "events", List.of("day"));

    assertThat(printed).contains("riverbed_db.events_rt: columns changed, partitions +2 ~0 -0, last_commit_time_sync=" + last);
    for (String name : List.of("events_ro", "events_rt", "events")) {
      assertSameDescriptors(name);
      assertThat(describe(RIVERBED_DB, name).get("columns").toString()).contains("note string");
      assertThat(hms.listPartitionNames(RIVERBED_DB, name, (short) -1))
          .containsExactlyInAnyOrder("day=2024-06-01", "day=2024-06-02", "day=2024-06-03", "day=2024-06-04");
    }
  }
}
