package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Spark SQL over the DataSource answers as the same SQL over the rows Hudi 0.15's reader returned. */
class SqlOverTempViewTest {
  static SparkSession spark;

  @BeforeAll
  static void views() {
    spark = SparkTestSession.get();
    register("mor_small", "mor", "mor_expected");
    register("cow_small", "cow", "cow_expected");
  }

  static void register(String table, String view, String expectedView) {
    Dataset<Row> df = spark.read().format("hudi").load(GoldenTables.path(table));
    df.createOrReplaceTempView(view);
    Dataset<String> lines = spark.createDataset(GoldenTables.expected(table, "snapshot.jsonl"), Encoders.STRING());
    spark.read().schema(df.schema()).option("timestampFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX")
        .option("dateFormat", "yyyy-MM-dd").json(lines).createOrReplaceTempView(expectedView);
  }

  static void sameAnswer(String sql) {
    List<String> actual = spark.sql(sql.replace("{mor}", "mor").replace("{cow}", "cow")).collectAsList().stream().map(Row::toString).sorted().toList();
    List<String> expected = spark.sql(sql.replace("{mor}", "mor_expected").replace("{cow}", "cow_expected")).collectAsList().stream()
        .map(Row::toString).sorted().toList();
    assertThat(actual).as(sql).isNotEmpty().isEqualTo(expected);
  }

  @Test
  void filterOnDataAndPartitionColumns() {
    sameAnswer("SELECT uuid, fare, city FROM {mor} WHERE region = 'americas' AND fare > 10");
    sameAnswer("SELECT _hoodie_record_key, rider.name FROM {cow} WHERE city IN ('paris', 'nowhere') OR passengers >= 3");
    sameAnswer("SELECT uuid, ride_date, pickup_time FROM {mor} WHERE ride_date >= DATE'2024-07-01' AND notes IS NOT NULL");
  }

  @Test
  void aggregateByPartition() {
    sameAnswer("SELECT region, country, city, count(*), round(sum(fare), 6), max(ts), min(pickup_time) FROM {mor} GROUP BY region, country, city");
    sameAnswer("SELECT is_paid, count(*), avg(passengers) FROM {cow} GROUP BY is_paid");
  }

  @Test
  void joinTwoTables() {
    sameAnswer("SELECT m.uuid, c.uuid, m.driver FROM {mor} m JOIN {cow} c ON m.driver = c.driver");
    sameAnswer("SELECT a.uuid, b._hoodie_commit_time FROM {mor} a JOIN {mor} b ON a.uuid = b.uuid WHERE a.region = 'asia'");
  }
}
