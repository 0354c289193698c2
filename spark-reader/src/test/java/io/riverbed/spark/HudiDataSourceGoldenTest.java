package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** The DataSource over tables Apache Hudi 0.15 wrote, against the rows Hudi's own Spark reader returned. */
class HudiDataSourceGoldenTest {
  static final String MOR = "mor_small";
  static final String COW = "cow_small";
  final SparkSession spark = SparkTestSession.get();

  DataFrameReader hudi() {
    return spark.read().format("hudi");
  }

  @Test
  void morSnapshotMergesLogsDeletesAndSkipsTheRolledBackWrite() {
    assertThat(GoldenTables.lines(hudi().load(GoldenTables.path(MOR)))).containsExactlyElementsOf(GoldenTables.expected(MOR, "snapshot.jsonl"));
  }

  @Test
  void morSnapshotIsTheDefaultQueryTypeAndCanBeNamed() {
    assertThat(GoldenTables.lines(hudi().option("hoodie.datasource.query.type", "snapshot").load(GoldenTables.path(MOR))))
        .containsExactlyElementsOf(GoldenTables.expected(MOR, "snapshot.jsonl"));
  }

  @Test
  void morReadOptimizedReadsBaseFilesOnlyAsColumnarBatches() {
    Dataset<Row> df = hudi().option("hoodie.datasource.query.type", "read_optimized").load(GoldenTables.path(MOR));
    assertThat(GoldenTables.lines(df)).containsExactlyElementsOf(GoldenTables.expected(MOR, "read_optimized.jsonl"));
    assertThat(df.queryExecution().executedPlan().toString()).contains("columnar");
  }

  @Test
  void morTimeTravelToEachCommit() {
    for (String t : List.of("20261129140349527", "20261129140351987", "20261129140355136")) {
      assertThat(GoldenTables.lines(hudi().option("as.of.instant", t).load(GoldenTables.path(MOR)))).as("as of " + t)
          .containsExactlyElementsOf(GoldenTables.expected(MOR, "as_of_" + t + ".jsonl"));
    }
  }

  @Test
  void timeTravelAcceptsDashedForms() {
    // 2026-11-29 14:03:52 is read up to .999 of that second: the second commit (…140351987) and not the third
    assertThat(GoldenTables.lines(hudi().option("as.of.instant", "2026-11-29 14:03:52").load(GoldenTables.path(MOR))))
        .containsExactlyElementsOf(GoldenTables.expected(MOR, "as_of_20261129140351987.jsonl"));
    assertThat(GoldenTables.lines(hudi().option("as.of.instant", "2026-11-29 14:03:49.527").load(GoldenTables.path(MOR))))
        .containsExactlyElementsOf(GoldenTables.expected(MOR, "as_of_20261129140349527.jsonl"));
  }

  @Test
  void timeTravelBeforeTheFirstCommitIsEmptyWithTheTableSchema() {
    Dataset<Row> before = hudi().option("as.of.instant", "2020-01-01").load(GoldenTables.path(MOR));
    assertThat(before.schema()).isEqualTo(hudi().load(GoldenTables.path(MOR)).schema());
    assertThat(before.collectAsList()).isEmpty();
  }

  @Test
  void morIncrementalAfterTheFirstCommitReadsOnlyTheFilesOfLaterCommits() {
    Dataset<Row> df = hudi().option("hoodie.datasource.query.type", "incremental")
        .option("hoodie.datasource.read.begin.instanttime", "20261129140349527").load(GoldenTables.path(MOR));
    assertThat(GoldenTables.lines(df)).containsExactlyElementsOf(GoldenTables.expected(MOR, "incremental_after_20261129140349527.jsonl"));
  }

  @Test
  void morIncrementalWithAnEndBeforeAnyLaterCommitIsEmpty() {
    Dataset<Row> df = hudi().option("hoodie.datasource.query.type", "incremental")
        .option("hoodie.datasource.read.begin.instanttime", "20261129140349527")
        .option("hoodie.datasource.read.end.instanttime", "20261129140350000").load(GoldenTables.path(MOR));
    assertThat(df.count()).isZero();
  }

  @Test
  void cowSnapshotWithCompositeKeysAndHiveStylePartitions() {
    Dataset<Row> df = hudi().load(GoldenTables.path(COW));
    assertThat(GoldenTables.lines(df)).containsExactlyElementsOf(GoldenTables.expected(COW, "snapshot.jsonl"));
    assertThat(df.queryExecution().executedPlan().toString()).contains("columnar");
  }

  @Test
  void cowIncrementalFromTheStartIsTheWholeTableAndAfterTheOnlyCommitIsEmpty() {
    Dataset<Row> all = hudi().option("hoodie.datasource.query.type", "incremental")
        .option("hoodie.datasource.read.begin.instanttime", "000").load(GoldenTables.path(COW));
    assertThat(GoldenTables.lines(all)).containsExactlyElementsOf(GoldenTables.expected(COW, "snapshot.jsonl"));
    Dataset<Row> none = hudi().option("hoodie.datasource.query.type", "incremental")
        .option("hoodie.datasource.read.begin.instanttime", "20261129140402147").load(GoldenTables.path(COW));
    assertThat(none.count()).isZero();
  }

  @Test
  void cowReadOptimizedEqualsSnapshot() {
    assertThat(GoldenTables.lines(hudi().option("hoodie.datasource.query.type", "read_optimized").load(GoldenTables.path(COW))))
        .containsExactlyElementsOf(GoldenTables.expected(COW, "snapshot.jsonl"));
  }

  @Test
  void schemaHasMetaColumnsFirstAndPartitionColumnsLastTypedAsTheData() {
    StructType schema = hudi().load(GoldenTables.path(MOR)).schema();
    assertThat(schema.fieldNames()).startsWith("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
        "_hoodie_partition_path", "_hoodie_file_name").endsWith("region", "country", "city");
    assertThat(schema.fieldNames()).containsSubsequence("uuid", "driver", "rider", "ts", "fare", "passengers", "is_paid",
        "ride_date", "pickup_time", "notes");
    assertThat(schema.apply("ride_date").dataType()).isEqualTo(DataTypes.DateType);
    assertThat(schema.apply("pickup_time").dataType()).isEqualTo(DataTypes.TimestampType);
    assertThat(schema.apply("region").dataType()).isEqualTo(DataTypes.StringType);
  }

  @Test
  void usableByClassNameAndByTheRiverbedShortName() {
    List<String> expected = GoldenTables.expected(COW, "snapshot.jsonl");
    assertThat(GoldenTables.lines(spark.read().format(HudiDataSource.class.getName()).load(GoldenTables.path(COW)))).isEqualTo(expected);
    assertThat(GoldenTables.lines(spark.read().format("riverbed").load(GoldenTables.path(COW)))).isEqualTo(expected);
  }

  @Test
  void legacyGlobPathReadsTheTable() {
    assertThat(GoldenTables.lines(hudi().load(GoldenTables.path(MOR) + "/*/*/*")))
        .containsExactlyElementsOf(GoldenTables.expected(MOR, "snapshot.jsonl"));
    assertThat(GoldenTables.lines(hudi().load(GoldenTables.path(COW) + "/*/*/*")))
        .containsExactlyElementsOf(GoldenTables.expected(COW, "snapshot.jsonl"));
  }

  @Test
  void globBelowTheBasePathRestrictsThePartitions() {
    List<String> americas = GoldenTables.expected(MOR, "snapshot.jsonl").stream().filter(l -> l.contains("\"region\":\"americas\"")).toList();
    assertThat(americas).isNotEmpty();
    assertThat(GoldenTables.lines(hudi().load(GoldenTables.path(MOR) + "/americas/*/*"))).containsExactlyElementsOf(americas);
  }

  @Test
  void countWithoutColumns() {
    assertThat(hudi().load(GoldenTables.path(MOR)).count()).isEqualTo(6);
    assertThat(hudi().load(GoldenTables.path(COW)).count()).isEqualTo(6);
    assertThat(hudi().option("hoodie.datasource.query.type", "read_optimized").load(GoldenTables.path(MOR)).count()).isEqualTo(8);
  }
}
