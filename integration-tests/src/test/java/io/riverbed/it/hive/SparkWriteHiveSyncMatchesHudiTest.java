package io.riverbed.it.hive;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The EMR guide's Spark writes with Hive sync, made by Apache Hudi 0.15's Spark writer (in this JVM,
 * into {@code hudi_db}) and by Riverbed's (in a child JVM with Riverbed's Spark bundle beside
 * spark-hive, into {@code riverbed_db}), register the same metastore tables in one Hive Metastore
 * 3.1.3, after the first writes and after the second: every field {@link MetastoreDescriptors}
 * reads is equal once each table's base path and commit times are written as placeholders (they
 * differ by construction), and each {@code last_commit_time_sync} is its table's last commit. Spark
 * SQL in the child then reads each table Riverbed synced by name as Hudi reads its path (snapshot,
 * or read-optimized for {@code _ro}, which sees base files only), the snapshot tables holding every
 * row written.
 */
class SparkWriteHiveSyncMatchesHudiTest {
  static final String HUDI_DB = "hudi_db";
  static final String COW = "guide_cow";
  static final String MOR = "guide_mor";
  static final Duration CHILD_STEP = Duration.ofMinutes(5);

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

  static Path base(String writer, String table) {
    return dir.resolve(writer).resolve(table);
  }

  /** Every table {@code writer} registered in {@code db}, described with its base paths and commit times as placeholders. */
  static Map<String, String> registered(String db, String writer) throws Exception {
    var tables = new TreeMap<String, String>();
    for (String table : hms.getAllTables(db)) {
      Map<String, Object> d = MetastoreDescriptors.describe(hms, db, table);
      var normalized = new LinkedHashMap<String, String>();
      d.forEach((field, value) -> normalized.put(field, normalize(String.valueOf(value), writer)));
      tables.put(table, normalized.toString().replace(", ", ",\n  "));
    }
    return tables;
  }

  static String normalize(String value, String writer) {
    return value.replace(dir.resolve(writer).toString(), "<root>").replaceAll("\\b\\d{17}\\b", "<instant>");
  }

  static void assertSameRegistrations(Map<String, String> hudi, Map<String, String> riverbed) {
    assertThat(riverbed.keySet()).as("tables registered").containsExactlyElementsOf(hudi.keySet())
        .contains(COW, MOR + "_ro", MOR + "_rt");
    for (String table : hudi.keySet()) {
      assertThat(riverbed.get(table)).as(table).isEqualTo(hudi.get(table));
    }
  }

  /** Each registered table's {@code last_commit_time_sync} is the last write on its base path. */
  static void assertSyncedTheLastCommit(String db, String writer) throws Exception {
    for (String table : hms.getAllTables(db)) {
      String base = table.startsWith(MOR) ? MOR : COW;
      List<TimelineInstant> writes = TimelineInstant.completedWrites(base(writer, base));
      assertThat(hms.getTable(db, table).getParameters()).as(db + "." + table)
          .containsEntry("last_commit_time_sync", writes.get(writes.size() - 1).time());
    }
  }

  static void hudiWrite(boolean first, String table, String tableType) {
    var options = EmrGuideWrites.options(table, tableType, HUDI_DB, metastore.uri);
    String path = base("hudi", table).toUri().toString();
    if (first) {
      EmrGuideWrites.first(SparkOracle.spark(), SparkOracle.HUDI_SOURCE, path, options);
    } else {
      EmrGuideWrites.second(SparkOracle.spark(), SparkOracle.HUDI_SOURCE, path, options);
    }
  }

  @Test
  void riverbedsBundleSyncsTheGuidesWritesAsHudisSparkWriterDoes() throws Exception {
    List<SparkWriteSyncMain.Write> writes = List.of(
        new SparkWriteSyncMain.Write("COPY_ON_WRITE", base("riverbed", COW).toUri().toString(), COW),
        new SparkWriteSyncMain.Write("MERGE_ON_READ", base("riverbed", MOR).toUri().toString(), MOR));
    try (var riverbed = SparkWriteSyncMain.Child.start(metastore.uri, dir.resolve("riverbed-child"), writes)) {
      hudiWrite(true, COW, "COPY_ON_WRITE");
      hudiWrite(true, MOR, "MERGE_ON_READ");
      Map<String, String> hudiFirst = registered(HUDI_DB, "hudi");
      riverbed.await(SparkWriteSyncMain.FIRST_DONE, CHILD_STEP);
      assertSameRegistrations(hudiFirst, registered(SparkWriteSyncMain.DATABASE, "riverbed"));
      assertSyncedTheLastCommit(SparkWriteSyncMain.DATABASE, "riverbed");

      List<String> tables = List.copyOf(hudiFirst.keySet());
      riverbed.proceed(tables);
      hudiWrite(false, COW, "COPY_ON_WRITE");
      hudiWrite(false, MOR, "MERGE_ON_READ");
      Map<String, String> hudiSecond = registered(HUDI_DB, "hudi");
      riverbed.await(SparkWriteSyncMain.SECOND_DONE, CHILD_STEP);
      Map<String, String> riverbedSecond = registered(SparkWriteSyncMain.DATABASE, "riverbed");
      assertSameRegistrations(hudiSecond, riverbedSecond);
      assertSyncedTheLastCommit(HUDI_DB, "hudi");
      assertSyncedTheLastCommit(SparkWriteSyncMain.DATABASE, "riverbed");
      assertThat(riverbedSecond.get(MOR + "_rt")).contains("note string").contains("[2015-01-03]");
      assertThat(riverbedSecond.get(COW)).contains("note string").contains("[2015-01-03]");

      for (String table : tables) {
        Path path = base("riverbed", table.startsWith(MOR) ? MOR : COW);
        Rows byPath = table.endsWith("_ro") ? SparkOracle.readOptimized(path) : SparkOracle.snapshot(path);
        Rows byName = Rows.readJsonLines(riverbed.output(table));
        assertThat(byName.lines()).as(table + " read by name in Riverbed's Spark vs Hudi reading its path")
            .containsExactlyElementsOf(byPath.lines());
        if (!table.endsWith("_ro")) {
          assertThat(byName.nodes().stream().map(n -> n.get("id").asText()).sorted().toList())
              .as(table).containsExactly(EmrGuideWrites.ALL_IDS.split(","));
        }
      }
    }
  }
}
