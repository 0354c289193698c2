package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark SQL by table name through {@link RiverbedCatalog} as the session catalog (Spark's in-memory
 * catalog behind it): tables registered with {@code CREATE TABLE ... USING hudi LOCATION} over
 * tables Apache Hudi 0.15 wrote read as {@code spark.read.format("hudi").load(path)} does.
 */
class RiverbedCatalogTest {
  static final String DB = "riverbed_catalog_test";
  static SparkSession spark;

  @BeforeAll
  static void session() {
    spark = SparkTestSession.get().newSession();
    spark.conf().set("spark.sql.catalog.spark_catalog", RiverbedCatalog.class.getName());
    spark.sql("CREATE DATABASE " + DB);
    spark.sql("USE " + DB);
    spark.sql("CREATE TABLE mor USING hudi LOCATION '" + GoldenTables.path("mor_small") + "'");
    spark.sql("CREATE TABLE cow USING hudi LOCATION '" + GoldenTables.path("cow_small") + "'");
    spark.read().format("hudi").load(GoldenTables.path("mor_small")).createOrReplaceTempView("mor_by_path");
    spark.read().format("hudi").load(GoldenTables.path("cow_small")).createOrReplaceTempView("cow_by_path");
  }

  @AfterAll
  static void dropDatabase() {
    spark.sql("DROP DATABASE " + DB + " CASCADE");
  }

  static List<String> rows(String sql) {
    return spark.sql(sql).collectAsList().stream().map(Row::toString).sorted().toList();
  }

  static void sameAnswerByNameAndByPath(String sql) {
    List<String> byName = rows(sql.replace("{mor}", "mor").replace("{cow}", "cow"));
    assertThat(byName).as(sql).isNotEmpty()
        .isEqualTo(rows(sql.replace("{mor}", "mor_by_path").replace("{cow}", "cow_by_path")));
  }

  @Test
  void selectByNameReadsWhatLoadingThePathReads() {
    for (String table : List.of("mor_small", "cow_small")) {
      String name = table.substring(0, 3);
      assertThat(GoldenTables.lines(spark.table(name))).as(name)
          .isEqualTo(GoldenTables.lines(spark.read().format("hudi").load(GoldenTables.path(table))))
          .containsExactlyElementsOf(GoldenTables.expected(table, "snapshot.jsonl"));
      assertThat(GoldenTables.lines(spark.sql("SELECT * FROM spark_catalog." + DB + "." + name)))
          .containsExactlyElementsOf(GoldenTables.expected(table, "snapshot.jsonl"));
    }
  }

  @Test
  void theTableIsRiverbedsScanWithItsSchema() {
    assertThat(spark.table("mor").schema()).isEqualTo(spark.read().format("hudi").load(GoldenTables.path("mor_small")).schema());
    assertThat(spark.sql("SELECT uuid FROM mor WHERE region = 'asia'").queryExecution().executedPlan().toString())
        .contains("BatchScan").contains("hudi");
  }

  @Test
  void filtersAggregatesAndJoinsByName() {
    sameAnswerByNameAndByPath("SELECT uuid, fare, city FROM {mor} WHERE region = 'americas' AND fare > 10");
    sameAnswerByNameAndByPath("SELECT region, country, city, count(*), round(sum(fare), 6), max(ts) FROM {mor} GROUP BY region, country, city");
    sameAnswerByNameAndByPath("SELECT is_paid, count(*), avg(passengers) FROM {cow} GROUP BY is_paid");
    sameAnswerByNameAndByPath("SELECT m.uuid, c.uuid, m.driver FROM {mor} m JOIN {cow} c ON m.driver = c.driver");
    assertThat(rows("SELECT count(*) FROM mor")).containsExactly("[6]");
  }

  @Test
  void queryAsRoTablePropertyReadsReadOptimized() {
    spark.sql("CREATE TABLE mor_ro USING hudi LOCATION '" + GoldenTables.path("mor_small") + "' "
        + "TBLPROPERTIES ('hoodie.query.as.ro.table' = 'true')");
    assertThat(GoldenTables.lines(spark.table("mor_ro")))
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "read_optimized.jsonl"));
    spark.sql("CREATE TABLE mor_rt USING hudi LOCATION '" + GoldenTables.path("mor_small") + "' "
        + "TBLPROPERTIES ('hoodie.query.as.ro.table' = 'false')");
    assertThat(GoldenTables.lines(spark.table("mor_rt")))
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "snapshot.jsonl"));
  }

  @Test
  void queryAsRoTableAsAStorageProperty() {
    // how a Hive sync registers it: a serde property, which Spark shows as a storage option
    spark.sql("CREATE TABLE mor_ro_serde USING hudi OPTIONS ('hoodie.query.as.ro.table' = 'true') "
        + "LOCATION '" + GoldenTables.path("mor_small") + "'");
    assertThat(GoldenTables.lines(spark.table("mor_ro_serde")))
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "read_optimized.jsonl"));
  }

  @Test
  void alterTableSetsAndUnsetsTheReadOptimizedFlag() {
    spark.sql("CREATE TABLE mor_alter USING hudi LOCATION '" + GoldenTables.path("mor_small") + "'");
    spark.sql("ALTER TABLE mor_alter SET TBLPROPERTIES ('hoodie.query.as.ro.table' = 'true')");
    assertThat(spark.table("mor_alter").count()).isEqualTo(8);
    spark.sql("ALTER TABLE mor_alter UNSET TBLPROPERTIES ('hoodie.query.as.ro.table')");
    assertThat(spark.table("mor_alter").count()).isEqualTo(6);
  }

  @Test
  void tableOptionsAreReadOptions() {
    spark.sql("CREATE TABLE mor_opt USING hudi OPTIONS ('hoodie.datasource.query.type' = 'read_optimized') "
        + "LOCATION '" + GoldenTables.path("mor_small") + "'");
    assertThat(spark.table("mor_opt").count()).isEqualTo(8);
  }

  @Test
  void timeTravelByVersionAndByTimestamp() {
    assertThat(GoldenTables.lines(spark.sql("SELECT * FROM mor VERSION AS OF '20261129140351987'")))
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "as_of_20261129140351987.jsonl"));
    assertThat(GoldenTables.lines(spark.sql("SELECT * FROM mor VERSION AS OF 20261129140349527")))
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "as_of_20261129140349527.jsonl"));
    // a whole second reads up to its last millisecond: the second commit (…140351987), not the third
    assertThat(GoldenTables.lines(spark.sql("SELECT * FROM mor TIMESTAMP AS OF '2026-11-29 14:03:52'")))
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "as_of_20261129140351987.jsonl"));
    assertThat(GoldenTables.lines(spark.sql("SELECT * FROM mor TIMESTAMP AS OF '2026-11-29 14:03:49.527'")))
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "as_of_20261129140349527.jsonl"));
    // a timestamp value (not a literal Hudi reads as its instant) is the instant's wall-clock time as
    // the session time zone shows it
    spark.conf().set("spark.sql.session.timeZone", "America/New_York");
    Dataset<Row> newYork;
    try {
      newYork = spark.sql("SELECT * FROM mor TIMESTAMP AS OF TIMESTAMP '2026-11-29 14:03:52'");
    } finally {
      spark.conf().set("spark.sql.session.timeZone", "UTC");
    }
    assertThat(GoldenTables.lines(newYork))
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "as_of_20261129140351987.jsonl"));
    assertThat(spark.sql("SELECT * FROM mor VERSION AS OF '20200101000000000'").collectAsList())
        .as("before the first commit: no rows").isEmpty();
  }

  @Test
  void timestampAsOfALiteralIsHudisInstantInEachOfItsForms() {
    List<String> second = GoldenTables.expected("mor_small", "as_of_20261129140351987.jsonl");
    assertThat(GoldenTables.lines(spark.sql("SELECT * FROM mor TIMESTAMP AS OF '20261129140351987'")))
        .containsExactlyElementsOf(second);
    assertThat(GoldenTables.lines(spark.sql("SELECT * FROM mor TIMESTAMP AS OF 20261129140349527")))
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "as_of_20261129140349527.jsonl"));
    assertThat(GoldenTables.lines(spark.sql("SELECT * FROM mor TIMESTAMP AS OF '20261129140352'")))
        .containsExactlyElementsOf(second);
    assertThat(GoldenTables.lines(spark.sql("SELECT * FROM mor FOR SYSTEM_TIME AS OF '2026-11-29 14:03:52.000' m "
        + "WHERE m.uuid IS NOT NULL"))).containsExactlyElementsOf(second);
    assertThat(GoldenTables.lines(spark.sql("SELECT * FROM mor TIMESTAMP AS OF '2026-11-30'")))
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "snapshot.jsonl"));
    assertThat(spark.sql("SELECT * FROM mor TIMESTAMP AS OF '2026-11-29'").collectAsList())
        .as("midnight before the first commit: no rows, as in Hudi").isEmpty();
    assertThat(GoldenTables.lines(spark.sql("SELECT * FROM (SELECT * FROM mor TIMESTAMP AS OF '20261129140349527') t")))
        .as("inside a subquery").containsExactlyElementsOf(GoldenTables.expected("mor_small", "as_of_20261129140349527.jsonl"));
  }

  @Test
  void timestampAsOfAnInstantOnAnotherProviderKeepsSparksMeaning() {
    spark.sql("CREATE TABLE plain_travel USING parquet AS SELECT id FROM range(3)");
    assertThatThrownBy(() -> spark.sql("SELECT * FROM plain_travel TIMESTAMP AS OF '20261129140351987'").collect())
        .hasMessageContaining("INVALID_TIME_TRAVEL_TIMESTAMP_EXPR");
  }

  @Test
  void otherProvidersGoThroughTheDelegate() {
    spark.sql("CREATE TABLE plain USING parquet AS SELECT id, id * 2 AS twice FROM range(5)");
    assertThat(rows("SELECT sum(twice) FROM plain")).containsExactly("[20]");
    spark.sql("INSERT INTO plain VALUES (10, 20)");
    assertThat(rows("SELECT count(*) FROM plain")).containsExactly("[6]");
    assertThat(spark.sql("SELECT * FROM plain").queryExecution().executedPlan().toString()).contains("FileScan parquet");
    spark.sql("DROP TABLE plain");
  }

  @Test
  void aSchemaThatAgreesWithTheTableIsAccepted() {
    String columns = String.join(", ", Arrays.stream(spark.table("cow").schema().fields())
        .filter(f -> !LoadedTable.isMetaColumn(f.name())).map(f -> f.name() + " " + f.dataType().sql()).toList());
    spark.sql("CREATE TABLE cow_typed (" + columns + ") USING hudi LOCATION '" + GoldenTables.path("cow_small") + "'");
    assertThat(GoldenTables.lines(spark.table("cow_typed")))
        .containsExactlyElementsOf(GoldenTables.expected("cow_small", "snapshot.jsonl"));
  }

  @Test
  void aSchemaThatDisagreesIsRefused() {
    assertThatThrownBy(() -> spark.sql("CREATE TABLE cow_wrong (uuid STRING, fare STRING) USING hudi LOCATION '"
        + GoldenTables.path("cow_small") + "'"))
        .isInstanceOf(TableException.class).hasMessageContaining("the schema given, struct<uuid:string,fare:string>, is not the table's");
    assertThat(spark.catalog().tableExists("cow_wrong")).isFalse();
  }

  @Test
  void aLocationThatIsNotAHudiTableIsRefused() throws Exception {
    Path empty = Files.createTempDirectory("not-a-table");
    assertThatThrownBy(() -> spark.sql("CREATE TABLE nothing USING hudi LOCATION '" + empty.toUri() + "'"))
        .isInstanceOf(TableException.class).hasMessageContaining("CREATE TABLE").hasMessageContaining("is not a Hudi table");
    assertThatThrownBy(() -> spark.sql("CREATE TABLE nowhere USING hudi"))
        .isInstanceOf(TableException.class).hasMessageContaining("give the table's columns to create it, or LOCATION");
    assertThat(spark.catalog().tableExists("nothing")).isFalse();
    assertThat(spark.catalog().tableExists("nowhere")).isFalse();
  }

  @Test
  void schemaChangesBeyondAddingColumnsAreRefused() {
    assertThatThrownBy(() -> spark.sql("ALTER TABLE cow RENAME COLUMN fare TO price"))
        .isInstanceOf(TableException.class).hasMessageContaining("RenameColumn of column fare is not supported");
    assertThatThrownBy(() -> spark.sql("ALTER TABLE cow ALTER COLUMN fare TYPE FLOAT"))
        .hasMessageContaining("fare");
    assertThat(GoldenTables.lines(spark.table("cow")))
        .containsExactlyElementsOf(GoldenTables.expected("cow_small", "snapshot.jsonl"));
  }

  @Test
  void dropTableKeepsTheFiles() {
    String path = GoldenTables.freshCopy("cow_small", "cow_to_drop");
    spark.sql("CREATE TABLE cow_drop USING hudi LOCATION '" + path + "'");
    assertThat(spark.table("cow_drop").count()).isEqualTo(6);
    spark.sql("DROP TABLE cow_drop");
    assertThat(spark.catalog().tableExists("cow_drop")).isFalse();
    assertThat(spark.read().format("hudi").load(path).count()).isEqualTo(6);
  }
}
