package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Scans pack file slices into input partitions under the session's
 * {@code spark.sql.files.maxPartitionBytes} and {@code openCostInBytes}, cut base files into
 * byte ranges when they exceed a partition, and return the same rows however they are packed.
 */
class InputPartitionPackingTest {
  final SparkSession spark = SparkTestSession.get();

  Dataset<Row> read(String table, String queryType) {
    return spark.read().format("hudi").option("hoodie.datasource.query.type", queryType).load(GoldenTables.path(table));
  }

  void withConf(Map<String, String> settings, Runnable body) {
    settings.forEach((k, v) -> spark.conf().set(k, v));
    try {
      body.run();
    } finally {
      settings.keySet().forEach(k -> spark.conf().unset(k));
    }
  }

  @Test
  void smallFileSlicesShareAnInputPartitionUpToTheBytesPerCore() {
    // two slices of 5 files each: 2 x 20 MB of open cost over local[2]'s 2 cores, one slice per partition
    Dataset<Row> spread = read("mor_small", "snapshot");
    assertThat(PushDownTest.scanOf(spread).partitions()).hasSize(2);
    withConf(Map.of("spark.sql.files.minPartitionNum", "1"), () -> {
      Dataset<Row> df = read("mor_small", "snapshot");
      HudiScan scan = PushDownTest.scanOf(df);
      assertThat(scan.splits()).hasSize(2);
      assertThat(scan.partitions()).singleElement().satisfies(p -> assertThat(p.splits()).hasSize(2));
      assertThat(df.rdd().getNumPartitions()).isEqualTo(1);
      assertThat(df.queryExecution().executedPlan().toString()).contains("in 1 input partitions");
      assertThat(GoldenTables.lines(df)).containsExactlyElementsOf(GoldenTables.expected("mor_small", "snapshot.jsonl"));
    });
  }

  @Test
  void anOpenCostAsLargeAsAPartitionGivesEverySliceItsOwn() {
    withConf(Map.of("spark.sql.files.openCostInBytes", "134217728"), () -> {
      for (String queryType : List.of("snapshot", "read_optimized")) {
        Dataset<Row> df = read("mor_small", queryType);
        assertThat(PushDownTest.scanOf(df).partitions()).as(queryType).hasSize(2)
            .allSatisfy(p -> assertThat(p.splits()).hasSize(1));
        assertThat(GoldenTables.lines(df)).as(queryType)
            .containsExactlyElementsOf(GoldenTables.expected("mor_small", queryType + ".jsonl"));
      }
    });
    withConf(Map.of("spark.sql.files.openCostInBytes", "134217728", "spark.sql.files.maxPartitionNum", "1"), () -> {
      Dataset<Row> df = read("mor_small", "snapshot");
      assertThat(PushDownTest.scanOf(df).partitions()).as("at most spark.sql.files.maxPartitionNum")
          .singleElement().satisfies(p -> assertThat(p.splits()).hasSize(2));
      assertThat(GoldenTables.lines(df)).containsExactlyElementsOf(GoldenTables.expected("mor_small", "snapshot.jsonl"));
    });
  }

  @Test
  void baseFilesLargerThanAPartitionAreReadInByteRangesWithEveryRowOnce() {
    withConf(Map.of("spark.sql.files.maxPartitionBytes", "2048", "spark.sql.files.openCostInBytes", "0"), () -> {
      Dataset<Row> cow = read("cow_small", "snapshot");
      HudiScan scan = PushDownTest.scanOf(cow);
      assertThat(scan.columnar()).isTrue();
      assertThat(scan.partitions()).hasSizeGreaterThan(4)
          .allSatisfy(p -> assertThat(p.splits()).allSatisfy(s -> assertThat(s.byteLength()).isLessThanOrEqualTo(2048)));
      assertThat(GoldenTables.lines(cow)).containsExactlyElementsOf(GoldenTables.expected("cow_small", "snapshot.jsonl"));

      Dataset<Row> ro = read("mor_small", "read_optimized");
      assertThat(PushDownTest.scanOf(ro).partitions()).hasSizeGreaterThan(4);
      assertThat(GoldenTables.lines(ro)).containsExactlyElementsOf(GoldenTables.expected("mor_small", "read_optimized.jsonl"));

      // merged slices and the row-by-row reader never read part of a base file
      Dataset<Row> merged = read("mor_small", "snapshot");
      assertThat(PushDownTest.scanOf(merged).partitions()).flatExtracting(SplitPartition::splits)
          .hasSize(2).allSatisfy(s -> assertThat(s.wholeBaseFile()).isTrue());
      assertThat(GoldenTables.lines(merged)).containsExactlyElementsOf(GoldenTables.expected("mor_small", "snapshot.jsonl"));
    });
    withConf(Map.of("spark.sql.files.maxPartitionBytes", "2048", "spark.sql.files.openCostInBytes", "0",
        "spark.sql.parquet.enableVectorizedReader", "false"), () -> {
      Dataset<Row> cow = read("cow_small", "snapshot");
      assertThat(PushDownTest.scanOf(cow).splits()).hasSize(2).allSatisfy(s -> assertThat(s.wholeBaseFile()).isTrue());
      assertThat(GoldenTables.lines(cow)).containsExactlyElementsOf(GoldenTables.expected("cow_small", "snapshot.jsonl"));
    });
  }
}
