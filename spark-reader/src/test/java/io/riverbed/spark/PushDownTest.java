package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.Test;
import scala.collection.JavaConverters;

/** Columns, partition filters and Parquet filters reach the scan; what they save is visible in the plan and the readers. */
class PushDownTest {
  final SparkSession spark = SparkTestSession.get();

  Dataset<Row> table(String name) {
    return spark.read().format("hudi").load(GoldenTables.path(name));
  }

  static HudiScan scanOf(Dataset<Row> df) {
    for (SparkPlan leaf : JavaConverters.seqAsJavaList(df.queryExecution().executedPlan().collectLeaves())) {
      if (leaf instanceof BatchScanExec b && b.scan() instanceof HudiScan s) {
        return s;
      }
    }
    throw new AssertionError("no HudiScan in " + df.queryExecution().executedPlan());
  }

  @Test
  void partitionColumnFiltersPruneFileSlices() {
    Dataset<Row> asia = table("mor_small").filter("region = 'asia'");
    assertThat(scanOf(asia).splits()).hasSize(1);
    assertThat(asia.queryExecution().executedPlan().toString()).contains("file slices 1 of 2").contains("PartitionFilters: [");
    assertThat(asia.count()).isEqualTo(asia.collectAsList().stream().filter(r -> r.getAs("region").equals("asia")).count());

    Dataset<Row> paris = table("cow_small").filter("city = 'paris' OR city = 'lyon'");
    assertThat(scanOf(paris).splits()).hasSize(1);
    assertThat(paris.count()).isEqualTo(3);

    assertThat(scanOf(table("cow_small").filter("city > 'zzz'")).splits()).isEmpty();
    assertThat(scanOf(table("cow_small").filter("city IS NULL OR country = 'france'")).splits()).hasSize(1);
    assertThat(scanOf(table("cow_small").filter("NOT (city = 'paris')")).splits()).hasSize(1);
    assertThat(scanOf(table("cow_small").filter("fare > 0 OR city = 'paris'")).splits()).hasSize(2);
  }

  @Test
  void onlyTheSelectedColumnsAreRead() {
    Dataset<Row> df = table("mor_small").select("uuid", "fare");
    assertThat(scanOf(df).readSchema().fieldNames()).containsExactly("uuid", "fare");
    assertThat(df.queryExecution().executedPlan().toString()).contains("columns [uuid, fare]");
    Dataset<Row> nested = table("cow_small").select("rider.name");
    assertThat(scanOf(nested).readSchema().fieldNames()).containsExactly("rider");
    assertThat(nested.collectAsList()).hasSize(6);
  }

  @Test
  void scanReportsTheSizeOfTheFilesItReads() {
    long all = scanOf(table("cow_small")).estimateStatistics().sizeInBytes().getAsLong();
    long oneColumn = scanOf(table("cow_small").select("uuid")).estimateStatistics().sizeInBytes().getAsLong();
    long onePartition = scanOf(table("cow_small").filter("city = 'paris'")).estimateStatistics().sizeInBytes().getAsLong();
    assertThat(all).isGreaterThan(1000);
    assertThat(oneColumn).isLessThan(all);
    assertThat(onePartition).isLessThan(all);
  }

  @Test
  void dataFiltersArePushedToParquet() {
    Dataset<Row> df = table("cow_small").filter("ts > 1000 AND is_paid = true");
    assertThat(scanOf(df).pushedFilterNames()).contains("GreaterThan(ts,1000)", "EqualTo(is_paid,true)");
    assertThat(df.queryExecution().executedPlan().toString()).contains("PushedFilters: [");
  }

  @Test
  void rowGroupsRuledOutByStatisticsAreNotRead() throws Exception {
    assertThat(rowsDecoded(table("cow_small"))).isEqualTo(6);
    assertThat(rowsDecoded(table("cow_small").filter("ts > 0"))).isEqualTo(6);
    assertThat(rowsDecoded(table("cow_small").filter("ts > 100000000"))).isZero();
    assertThat(rowsDecoded(table("cow_small").filter("pickup_time < TIMESTAMP'2000-01-01 00:00:00'"))).isZero();
    assertThat(rowsDecoded(table("cow_small").filter("ride_date > DATE'2100-01-01'"))).isZero();
    assertThat(rowsDecoded(table("cow_small").filter("uuid = 'no-such-key'"))).isZero();
  }

  /** Rows the vectorized base file readers hand over before Spark applies the filters itself. */
  static long rowsDecoded(Dataset<Row> df) throws Exception {
    HudiScan scan = scanOf(df);
    assertThat(scan.columnar()).isTrue();
    PartitionReaderFactory factory = scan.createReaderFactory();
    long rows = 0;
    for (InputPartition p : scan.planInputPartitions()) {
      try (PartitionReader<ColumnarBatch> reader = factory.createColumnarReader(p)) {
        while (reader.next()) {
          rows += reader.get().numRows();
        }
      }
    }
    return rows;
  }

  @Test
  void withTheVectorizedReaderOffBaseFilesAreReadRowByRowWithTheSameAnswer() {
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", "false");
    try {
      Dataset<Row> df = table("cow_small");
      assertThat(scanOf(df).columnar()).isFalse();
      assertThat(GoldenTables.lines(df)).containsExactlyElementsOf(GoldenTables.expected("cow_small", "snapshot.jsonl"));
      assertThat(df.filter("ts > 1000 AND city = 'paris'").count())
          .isEqualTo(GoldenTables.expected("cow_small", "snapshot.jsonl").stream()
              .filter(l -> l.contains("\"city\":\"paris\"")).filter(l -> Integer.parseInt(l.replaceAll(".*\"ts\":(\\d+).*", "$1")) > 1000).count());
      assertThat(table("cow_small").select("uuid").filter("uuid = 'no-such-key'").count()).isZero();
    } finally {
      spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
    }
  }

  @Test
  void mergedSlicesAreNotFilteredBeforeMerging() {
    // a log update changes fare of a base record: filtering base rows first would lose or keep the wrong version
    Dataset<Row> all = table("mor_small");
    List<Row> expensive = all.filter("fare > 50").collectAsList();
    assertThat(expensive).hasSize((int) all.collectAsList().stream().filter(r -> (double) r.getAs("fare") > 50).count());
    assertThat(scanOf(all.filter("fare > 50")).columnar()).isFalse();
  }
}
