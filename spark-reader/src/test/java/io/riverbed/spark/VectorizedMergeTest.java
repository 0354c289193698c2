package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.junit.jupiter.api.Test;

/**
 * Snapshot slices with logs read their base files through Spark's vectorized reader and merge in
 * Spark rows, with the rows Hudi 0.15's reader returned for the table (a late update that loses on
 * its ordering value, deletes, a rolled-back write), whichever columns the query reads.
 */
class VectorizedMergeTest {
  static final String MOR = "mor_small";
  final SparkSession spark = SparkTestSession.get();

  @Test
  void everySliceWithLogsMergesVectorizedBaseRowsAsHudiDoes() throws Exception {
    Dataset<Row> df = spark.read().format("hudi").load(GoldenTables.path(MOR));
    HudiScan scan = PushDownTest.scanOf(df);
    SplitReaderFactory factory = (SplitReaderFactory) scan.createReaderFactory();
    assertThat(scan.splits()).isNotEmpty().noneMatch(SliceSplit::baseOnly);
    for (SliceSplit split : scan.splits()) {
      try (PartitionReader<InternalRow> reader = factory.rows(split)) {
        assertThat(reader).isInstanceOf(VectorizedMergedSlice.class);
      }
    }
    assertThat(GoldenTables.lines(df)).containsExactlyElementsOf(GoldenTables.expected(MOR, "snapshot.jsonl"));
  }

  @Test
  void aProjectionWithoutKeyOrOrderingColumnStillMergesByThem() throws Exception {
    List<String> columns = List.of("fare", "driver", "ride_date", "rider");
    Dataset<Row> df = spark.read().format("hudi").load(GoldenTables.path(MOR)).select("fare", "driver", "ride_date", "rider");
    assertThat(GoldenTables.lines(df)).containsExactlyElementsOf(projected(GoldenTables.expected(MOR, "snapshot.jsonl"), columns));
  }

  @Test
  void aFilterOnAColumnALogRecordChangesIsAppliedAfterTheMerge() throws Exception {
    Dataset<Row> all = spark.read().format("hudi").load(GoldenTables.path(MOR));
    List<Row> rows = all.collectAsList();
    for (Row r : rows) {
      long ts = r.getAs("ts");
      assertThat(all.where("ts = " + ts).count()).as("ts = %d", ts)
          .isEqualTo(rows.stream().filter(x -> (long) x.getAs("ts") == ts).count());
    }
  }

  @Test
  void aFilterOnTheRecordKeyReturnsThatKeysMergedRowOnly() {
    Dataset<Row> all = spark.read().format("hudi").load(GoldenTables.path(MOR));
    List<Row> rows = all.collectAsList();
    for (Row r : rows) {
      String key = r.getAs("_hoodie_record_key");
      assertThat(all.where("_hoodie_record_key = '" + key + "'").collectAsList()).as(key).containsExactly(r);
    }
    assertThat(all.where("_hoodie_record_key > ''").count()).isEqualTo(rows.size());
  }

  private static List<String> projected(List<String> lines, List<String> columns) throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<String> out = new java.util.ArrayList<>();
    for (String line : lines) {
      JsonNode node = json.readTree(line);
      ObjectNode kept = json.createObjectNode();
      for (String c : columns) {
        kept.set(c, node.get(c));
      }
      out.add(GoldenTables.canonical(json.writeValueAsString(kept)));
    }
    return out.stream().sorted().toList();
  }
}
