package io.riverbed.hive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.CreateHandle;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.WriteTaskContext;
import io.riverbed.format.write.commit.CommitMessage;
import io.riverbed.format.write.commit.Committable;
import io.riverbed.format.write.commit.TableCommitter;
import io.riverbed.format.table.PartitionMetadata;
import io.riverbed.hive.testing.MetastoreExtension;
import io.riverbed.hive.testing.MetastoreServer;
import io.riverbed.hive.testing.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Syncs tables written by Riverbed's core writer into a real Hive Metastore 3.1.3 and reads back
 * what the metastore holds: tables, columns and types, partitions and their locations, formats,
 * serde and table properties, and how a second sync after more commits changes them.
 */
class HiveSyncTest {
  static final List<String> META_COLUMNS = List.of("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
      "_hoodie_partition_path", "_hoodie_file_name");

  @RegisterExtension
  static final MetastoreExtension metastore = new MetastoreExtension();

  @TempDir
  static Path dir;
  static HiveMetaStoreClient hms;

  @BeforeAll
  static void client() {
    hms = metastore.client();
  }

  static List<TableSyncResult> sync(Table table, Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(extra);
    options.put(HiveSyncOptions.BASE_PATH, table.basePath().toString());
    options.put(HiveSyncOptions.METASTORE_URIS, metastore.uri());
    try (MetastoreClient client = MetastoreClient.connect(metastore.uri(), new Configuration())) {
      return HiveSync.of(table, HiveSyncOptions.fromMap(options)).run(client);
    }
  }

  /** A new table {@code name} under the test's folder holding {@code trips} in one commit. */
  static Table tableWith(String name, TableType type, List<String> partitionFields, boolean hiveStyle,
      org.apache.avro.generic.GenericRecord... trips) {
    Table table = TestTables.create(dir.resolve(name), name, type, partitionFields, hiveStyle);
    TestTables.commit(table, TestTables.TRIP, List.of(trips));
    return table;
  }

  static String lastInstant(Table table) {
    return TimelineStore.at(table.fs(), table.metaPath()).load().commitsTimeline().completed().last().orElseThrow().time();
  }

  static Map<String, String> columns(List<FieldSchema> fields) {
    return fields.stream().collect(Collectors.toMap(FieldSchema::getName, FieldSchema::getType, (a, b) -> a, java.util.LinkedHashMap::new));
  }

  static Map<List<String>, String> partitions(String db, String table) throws Exception {
    Map<List<String>, String> result = new HashMap<>();
    for (Partition p : hms.listPartitions(db, table, (short) -1)) {
      result.put(p.getValues(), p.getSd().getLocation());
    }
    return result;
  }

  @Test
  void asTheCommittersPostCommitActionItSyncsAfterEachCommit() throws Exception {
    Table table = TestTables.create(dir.resolve("committed_trips"), "committed_trips", TableType.COPY_ON_WRITE,
        List.of("region"), false);
    Map<String, String> options = Map.of(HiveSyncOptions.BASE_PATH, table.basePath().toString(),
        HiveSyncOptions.METASTORE_URIS, metastore.uri());
    TableCommitter committer = TableCommitter.of(table, "writer-1").schema(TestTables.TRIP)
        .postCommit(HiveSyncAction.of(HiveSyncOptions.fromMap(options)));
    RecordKeyer keyer = RecordKeyer.forTable(table.config());
    for (String id : List.of("a", "b")) {
      String instant = committer.begin();
      WriteTaskContext context = WriteTaskContext.single(table, instant, TestTables.TRIP);
      WriteStat stat = CreateHandle.of(context, new FileGroupId("eu", FileNames.newFileId()))
          .write(List.of(keyer.toWriteRecord(TestTables.trip(TestTables.TRIP, id, 1, "eu", "paris")))).orElseThrow();
      committer.commit(Committable.of(1, instant, List.of(CommitMessage.of(0, instant, List.of(stat)))));

      assertThat(hms.getTable("default", "committed_trips").getParameters())
          .containsEntry("last_commit_time_sync", instant);
    }
    assertThat(partitions("default", "committed_trips")).containsOnlyKeys(List.of("eu"));
  }

  @Test
  void copyOnWriteTableWithTwoLevelHiveStylePartitionsIsRegisteredAsHudiDoes() throws Exception {
    Table table = TestTables.create(dir.resolve("cow_trips"), "cow_trips", TableType.COPY_ON_WRITE, List.of("region", "city"), true);
    TestTables.commit(table, TestTables.TRIP, List.of(
        TestTables.trip(TestTables.TRIP, "a", 1, "eu", "paris"),
        TestTables.trip(TestTables.TRIP, "b", 2, "eu", "rome"),
        TestTables.trip(TestTables.TRIP, "c", 3, "us", "sf")));

    List<TableSyncResult> results = sync(table, Map.of(HiveSyncOptions.DATABASE, "lake"));

    assertThat(results).singleElement().satisfies(r -> {
      assertThat(r.table()).isEqualTo("lake.cow_trips");
      assertThat(r.created()).isTrue();
      assertThat(r.added()).containsExactlyInAnyOrder("region=eu/city=paris", "region=eu/city=rome", "region=us/city=sf");
    });
    assertThat(hms.getDatabase("lake").getDescription()).isEqualTo("automatically created by hoodie");
    var t = hms.getTable("lake", "cow_trips");
    assertThat(t.getTableType()).isEqualTo("EXTERNAL_TABLE");
    Map<String, String> expectedColumns = new java.util.LinkedHashMap<>();
    META_COLUMNS.forEach(c -> expectedColumns.put(c, "string"));
    expectedColumns.put("id", "string");
    expectedColumns.put("ts", "bigint");
    expectedColumns.put("fare", "double");
    expectedColumns.put("pickup", "bigint");
    expectedColumns.put("price", "decimal(10,2)");
    assertThat(columns(t.getSd().getCols())).containsExactlyEntriesOf(expectedColumns);
    assertThat(columns(t.getPartitionKeys())).containsOnly(Map.entry("region", "string"), Map.entry("city", "string"));
    assertThat(t.getPartitionKeys()).extracting(FieldSchema::getName).containsExactly("region", "city");
    assertThat(t.getSd().getInputFormat()).isEqualTo("org.apache.hudi.hadoop.HoodieParquetInputFormat");
    assertThat(t.getSd().getOutputFormat()).isEqualTo("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat");
    assertThat(t.getSd().getSerdeInfo().getSerializationLib()).isEqualTo("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe");
    assertThat(t.getSd().getSerdeInfo().getParameters()).containsEntry("path", table.basePath().toString())
        .containsEntry("hoodie.query.as.ro.table", "false").containsEntry("serialization.format", "1");
    assertThat(t.getSd().getLocation()).isEqualTo(table.basePath().toString());
    assertThat(t.getParameters())
        .containsEntry("EXTERNAL", "TRUE")
        .containsEntry("last_commit_time_sync", lastInstant(table))
        .containsKey("last_commit_completion_time_sync")
        .containsEntry("spark.sql.sources.provider", "hudi")
        .containsEntry("spark.sql.sources.schema.numParts", "1")
        .containsEntry("spark.sql.sources.schema.numPartCols", "2")
        .containsEntry("spark.sql.sources.schema.partCol.0", "region")
        .containsEntry("spark.sql.sources.schema.partCol.1", "city");
    String sparkSchema = t.getParameters().get("spark.sql.sources.schema.part.0");
    assertThat(sparkSchema).startsWith("{\"type\":\"struct\",\"fields\":[{\"name\":\"_hoodie_commit_time\",\"type\":\"string\",\"nullable\":true")
        .contains("{\"name\":\"pickup\",\"type\":\"timestamp\",\"nullable\":false,\"metadata\":{}}")
        .contains("{\"name\":\"price\",\"type\":\"decimal(10,2)\",\"nullable\":false,\"metadata\":{}}")
        .endsWith("{\"name\":\"region\",\"type\":\"string\",\"nullable\":false,\"metadata\":{}},"
            + "{\"name\":\"city\",\"type\":\"string\",\"nullable\":false,\"metadata\":{}}]}");
    String base = table.basePath().toString();
    assertThat(partitions("lake", "cow_trips")).isEqualTo(Map.of(
        List.of("eu", "paris"), base + "/region=eu/city=paris",
        List.of("eu", "rome"), base + "/region=eu/city=rome",
        List.of("us", "sf"), base + "/region=us/city=sf"));
  }

  @Test
  void mergeOnReadTableGetsReadOptimizedRealtimeAndPlainTables() throws Exception {
    Table table = tableWith("mor_trips", TableType.MERGE_ON_READ, List.of("region"), false,
        TestTables.trip(TestTables.TRIP, "a", 1, "eu", "paris"), TestTables.trip(TestTables.TRIP, "b", 2, "us", "sf"));

    List<TableSyncResult> results = sync(table, Map.of());

    assertThat(results).extracting(TableSyncResult::table)
        .containsExactly("default.mor_trips_ro", "default.mor_trips_rt", "default.mor_trips");
    Map<String, String[]> expected = Map.of(
        "mor_trips_ro", new String[] {"org.apache.hudi.hadoop.HoodieParquetInputFormat", "true"},
        "mor_trips_rt", new String[] {"org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat", "false"},
        "mor_trips", new String[] {"org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat", "false"});
    for (var e : expected.entrySet()) {
      var t = hms.getTable("default", e.getKey());
      assertThat(t.getSd().getInputFormat()).as(e.getKey()).isEqualTo(e.getValue()[0]);
      assertThat(t.getSd().getSerdeInfo().getParameters()).as(e.getKey()).containsEntry("hoodie.query.as.ro.table", e.getValue()[1]);
      assertThat(t.getParameters()).as(e.getKey()).containsEntry("last_commit_time_sync", lastInstant(table));
      assertThat(t.getPartitionKeys()).extracting(FieldSchema::getName).containsExactly("region");
      assertThat(t.getSd().getCols()).extracting(FieldSchema::getName).contains("city").doesNotContain("region");
      // one field, not hive style: Hudi infers SinglePartPartitionValueExtractor
      assertThat(partitions("default", e.getKey())).containsOnlyKeys(List.of("eu"), List.of("us"));
    }
  }

  @Test
  void skipRoSuffixKeepsThePlainNameReadOptimized() throws Exception {
    Table table = TestTables.create(dir.resolve("mor_skip"), "mor_skip", TableType.MERGE_ON_READ, List.of(), false);
    TestTables.commit(table, TestTables.TRIP, List.of(TestTables.trip(TestTables.TRIP, "a", 1, "eu", "paris")));

    sync(table, Map.of(HiveSyncOptions.SKIP_RO_SUFFIX, "true"));

    assertThat(hms.getTables("default", "mor_skip*")).containsExactlyInAnyOrder("mor_skip", "mor_skip_rt");
    assertThat(hms.getTable("default", "mor_skip").getSd().getInputFormat()).isEqualTo("org.apache.hudi.hadoop.HoodieParquetInputFormat");
  }

  @Test
  void nonPartitionedTableHasNoPartitionKeysAndKeepsPartitionColumnsAsData() throws Exception {
    Table table = TestTables.create(dir.resolve("flat"), "flat", TableType.COPY_ON_WRITE, List.of(), false);
    TestTables.commit(table, TestTables.TRIP, List.of(TestTables.trip(TestTables.TRIP, "a", 1, "eu", "paris")));

    List<TableSyncResult> results = sync(table, Map.of(HiveSyncOptions.SUPPORT_TIMESTAMP, "true"));

    assertThat(results).singleElement().satisfies(r -> assertThat(r.added()).isEmpty());
    var t = hms.getTable("default", "flat");
    assertThat(t.getPartitionKeys()).isEmpty();
    assertThat(columns(t.getSd().getCols())).containsEntry("region", "string").containsEntry("pickup", "timestamp");
    assertThat(t.getParameters()).doesNotContainKey("spark.sql.sources.schema.numPartCols")
        .containsEntry("last_commit_time_sync", lastInstant(table));
    assertThat(hms.listPartitions("default", "flat", (short) -1)).isEmpty();
  }

  @Test
  void secondSyncAddsNewPartitionsAndColumnsAndAdvancesTheLastSyncedCommit() throws Exception {
    Table table = TestTables.create(dir.resolve("grow"), "grow", TableType.MERGE_ON_READ, List.of("region", "city"), true);
    TestTables.commit(table, TestTables.TRIP, List.of(TestTables.trip(TestTables.TRIP, "a", 1, "eu", "paris")));
    sync(table, Map.of(HiveSyncOptions.TABLE_STRATEGY, "RT"));
    String first = hms.getTable("default", "grow").getParameters().get("last_commit_time_sync");

    TestTables.commit(table, TestTables.TRIP, List.of(TestTables.trip(TestTables.TRIP, "b", 2, "us", "sf")));
    TestTables.commit(table, TestTables.TRIP_WITH_TIP, List.of(
        TestTables.trip(TestTables.TRIP_WITH_TIP, "c", 3, "eu", "paris"),
        TestTables.trip(TestTables.TRIP_WITH_TIP, "d", 4, "asia", "tokyo")));
    List<TableSyncResult> second = sync(table, Map.of(HiveSyncOptions.TABLE_STRATEGY, "RT"));

    assertThat(second).singleElement().satisfies(r -> {
      assertThat(r.created()).isFalse();
      assertThat(r.columnsChanged()).isTrue();
      assertThat(r.added()).containsExactlyInAnyOrder("region=us/city=sf", "region=asia/city=tokyo");
      assertThat(r.updated()).isEmpty();
      assertThat(r.lastCommitTimeSynced()).contains(lastInstant(table));
    });
    var t = hms.getTable("default", "grow");
    assertThat(t.getParameters().get("last_commit_time_sync")).isGreaterThan(first).isEqualTo(lastInstant(table));
    assertThat(t.getSd().getCols()).extracting(FieldSchema::getName).endsWith("price", "tip");
    assertThat(columns(t.getSd().getCols())).containsEntry("tip", "double");
    assertThat(t.getParameters().get("spark.sql.sources.schema.part.0")).contains("\"name\":\"tip\",\"type\":\"double\",\"nullable\":true");
    assertThat(partitions("default", "grow")).containsOnlyKeys(List.of("eu", "paris"), List.of("us", "sf"), List.of("asia", "tokyo"));
    // ALTER TABLE ... CASCADE: existing partitions see the new column too
    Partition paris = hms.getPartition("default", "grow", List.of("eu", "paris"));
    assertThat(paris.getSd().getCols()).extracting(FieldSchema::getName).contains("tip");

    assertThat(sync(table, Map.of(HiveSyncOptions.TABLE_STRATEGY, "RT"))).singleElement().satisfies(r -> {
      assertThat(r.columnsChanged()).isFalse();
      assertThat(r.propertiesChanged()).isFalse();
      assertThat(r.added()).isEmpty();
    });
  }

  @Test
  void fullSyncDropsPartitionsNoLongerOnStorageAndSlashEncodedDaysBecomeDates() throws Exception {
    Table table = TestTables.create(dir.resolve("days"), "days", TableType.COPY_ON_WRITE, List.of("city"), false);
    TestTables.commit(table, TestTables.TRIP, List.of(
        TestTables.trip(TestTables.TRIP, "a", 1, "eu", "2024/06/01"),
        TestTables.trip(TestTables.TRIP, "b", 2, "eu", "2024/06/02")));
    Map<String, String> options = Map.of(
        HiveSyncOptions.PARTITION_FIELDS, "day",
        HiveSyncOptions.PARTITION_EXTRACTOR_CLASS, "org.apache.hudi.hive.SlashEncodedDayPartitionValueExtractor",
        HiveSyncOptions.INCREMENTAL, "false");
    sync(table, options);
    assertThat(partitions("default", "days")).containsOnlyKeys(List.of("2024-06-01"), List.of("2024-06-02"));
    assertThat(hms.getTable("default", "days").getPartitionKeys()).extracting(FieldSchema::getName, FieldSchema::getType)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("day", "string"));

    org.apache.hadoop.fs.Path gone = table.partitionPath("2024/06/02");
    assertThat(table.fs().delete(gone, true)).isTrue();
    List<TableSyncResult> results = sync(table, options);

    assertThat(results).singleElement().satisfies(r -> assertThat(r.dropped()).containsExactly(List.of("2024-06-02")));
    assertThat(partitions("default", "days")).containsOnlyKeys(List.of("2024-06-01"));
  }

  @Test
  void aDeletePartitionCommitDropsThePartitionThoughItsFilesStayUntilAClean() throws Exception {
    Table table = tableWith("dropped", TableType.COPY_ON_WRITE, List.of("city"), true,
        TestTables.trip(TestTables.TRIP, "a", 1, "eu", "paris"), TestTables.trip(TestTables.TRIP, "b", 2, "eu", "rome"));
    sync(table, Map.of());
    assertThat(partitions("default", "dropped")).containsOnlyKeys(List.of("paris"), List.of("rome"));

    TableCommitter committer = TableCommitter.of(table, "writer-1").schema(TestTables.TRIP)
        .operationType(io.riverbed.format.timeline.WriteOperationType.DELETE_PARTITION);
    String instant = committer.begin();
    committer.commit(new Committable(1, instant, List.of(), Map.of()),
        io.riverbed.format.write.batch.ReplacedFileGroups.of(table, table.refreshTimeline(), List.of("city=rome")));
    assertThat(PartitionMetadata.exists(table.fs(), table.partitionPath("city=rome"))).isTrue();
    List<TableSyncResult> results = sync(table, Map.of());

    assertThat(results).singleElement().satisfies(r -> assertThat(r.dropped()).containsExactly(List.of("rome")));
    assertThat(partitions("default", "dropped")).containsOnlyKeys(List.of("paris"));

    TestTables.commit(table, TestTables.TRIP, List.of(TestTables.trip(TestTables.TRIP, "c", 3, "eu", "rome")));
    sync(table, Map.of());
    assertThat(partitions("default", "dropped")).containsOnlyKeys(List.of("paris"), List.of("rome"));
  }

  @Test
  void aColumnChangedToAnIncompatibleTypeFailsNamingIt() throws Exception {
    Table table = TestTables.create(dir.resolve("narrow"), "narrow", TableType.COPY_ON_WRITE, List.of(), false);
    TestTables.commit(table, TestTables.TRIP, List.of(TestTables.trip(TestTables.TRIP, "a", 1, "eu", "paris")));
    sync(table, Map.of());
    var t = hms.getTable("default", "narrow");
    t.getSd().getCols().stream().filter(c -> c.getName().equals("fare")).forEach(c -> c.setType("string"));
    hms.alter_table("default", "narrow", t);

    assertThatThrownBy(() -> sync(table, Map.of()))
        .isInstanceOf(HiveSyncException.class)
        .hasMessageContaining("cannot change column fare of default.narrow from string to double");
  }

  @Test
  void aMissingDatabaseFailsWhenItMayNotBeCreated() throws Exception {
    Table table = TestTables.create(dir.resolve("nodb"), "nodb", TableType.COPY_ON_WRITE, List.of(), false);
    TestTables.commit(table, TestTables.TRIP, List.of(TestTables.trip(TestTables.TRIP, "a", 1, "eu", "paris")));

    assertThatThrownBy(() -> sync(table, Map.of(HiveSyncOptions.DATABASE, "missing", HiveSyncOptions.AUTO_CREATE_DATABASE, "false")))
        .isInstanceOf(HiveSyncException.class)
        .hasMessageContaining("has no database 'missing'");
  }

  @Test
  void commandLineSyncsAndPrintsOneLinePerTable() throws Exception {
    Table table = TestTables.create(dir.resolve("cli_trips"), "cli_trips", TableType.COPY_ON_WRITE, List.of("region"), true);
    TestTables.commit(table, TestTables.TRIP, List.of(TestTables.trip(TestTables.TRIP, "a", 1, "eu", "paris")));
    var out = new java.io.ByteArrayOutputStream();
    var err = new java.io.ByteArrayOutputStream();

    int status = HiveSyncMain.run(new String[] {"--base-path", table.basePath().toString(), "--database", "cli",
        "--table", "trips", "--metastore-uris", metastore.uri(), "--spark-datasource", "false"},
        new java.io.PrintStream(out, true), new java.io.PrintStream(err, true));

    assertThat(status).as(err.toString()).isZero();
    assertThat(out.toString().strip()).isEqualTo("cli.trips: created, partitions +1 ~0 -0, last_commit_time_sync=" + lastInstant(table));
    var t = hms.getTable("cli", "trips");
    assertThat(t.getParameters()).doesNotContainKey("spark.sql.sources.provider");
    assertThat(t.getSd().getSerdeInfo().getParameters()).doesNotContainKey("hoodie.query.as.ro.table");
    assertThat(partitions("cli", "trips")).containsOnlyKeys(List.of("eu"));
  }

  @Test
  void aPathWithoutATableIsOneLineOnStderr() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("not_a_table"));
    var err = new java.io.ByteArrayOutputStream();

    int status = HiveSyncMain.run(new String[] {"--base-path", empty.toUri().toString(), "--metastore-uris", metastore.uri()},
        new java.io.PrintStream(new java.io.ByteArrayOutputStream()), new java.io.PrintStream(err, true));

    assertThat(status).isEqualTo(1);
    assertThat(err.toString().strip()).startsWith("riverbed-hive-sync: ").contains("is not a Hudi table").doesNotContain("\n");
  }

  @Test
  void anUnreachableMetastoreNamesItsUri() throws Exception {
    Table table = TestTables.create(dir.resolve("offline"), "offline", TableType.COPY_ON_WRITE, List.of(), false);
    TestTables.commit(table, TestTables.TRIP, List.of(TestTables.trip(TestTables.TRIP, "a", 1, "eu", "paris")));
    String nowhere = "thrift://127.0.0.1:" + MetastoreServer.freePort();
    var err = new java.io.ByteArrayOutputStream();

    int status = HiveSyncMain.run(new String[] {"--base-path", table.basePath().toString(), "--metastore-uris", nowhere,
        "--hadoop-conf", "metastore.connect.retries=1", "--hadoop-conf", "metastore.client.connect.retry.delay=100ms"},
        new java.io.PrintStream(new java.io.ByteArrayOutputStream()), new java.io.PrintStream(err, true));

    assertThat(status).isEqualTo(1);
    assertThat(err.toString().strip()).startsWith("riverbed-hive-sync: cannot connect to the Hive Metastore at " + nowhere);
  }

  @Test
  void badCommandLinesAndOptionsAreRefusedWithTheirName() {
    var err = new java.io.ByteArrayOutputStream();
    assertThat(HiveSyncMain.run(new String[] {"--database", "x"}, new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
        new java.io.PrintStream(err, true))).isEqualTo(2);
    assertThat(err.toString()).startsWith("riverbed-hive-sync: --base-path is required");
    assertThatThrownBy(() -> HiveSyncOptions.fromMap(Map.of(HiveSyncOptions.BASE_PATH, "/t", HiveSyncOptions.MODE, "jdbc")))
        .hasMessage("hoodie.datasource.hive_sync.mode='jdbc' is not supported; accepted: hms");
    assertThatThrownBy(() -> HiveSyncOptions.fromMap(Map.of(HiveSyncOptions.BASE_PATH, "/t",
        HiveSyncOptions.PARTITION_EXTRACTOR_CLASS, "com.example.Mine")))
        .hasMessageStartingWith("hoodie.datasource.hive_sync.partition_extractor_class='com.example.Mine' is not supported");
  }

}
