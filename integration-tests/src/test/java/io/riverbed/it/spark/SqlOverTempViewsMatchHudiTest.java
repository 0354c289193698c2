package io.riverbed.it.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.riverbed.RiverbedScenarios;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.Scenarios;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark SQL over temp views of the MOR scenario tables gives the same ordered answer whether the
 * views are over Apache Hudi's DataSource or Riverbed's, in one session: filters on data and
 * partition columns (equality, {@code IN}, ranges, {@code IS NULL}), aggregates grouped by
 * partition columns, a self-join and a join of two tables. Every query orders by a unique key, so
 * results compare row for row, in order.
 */
class SqlOverTempViewsMatchHudiTest {
  static SparkSession spark;

  @BeforeAll
  static void views() {
    spark = SparkOracle.spark();
    register("trips", Scenarios.morTrips(), Query.snapshot());
    register("rbmor", RiverbedScenarios.mor(), Query.snapshot());
    register("trips_ro", Scenarios.morTrips(), Query.readOptimized());
  }

  /** Views {@code hudi_<name>} and {@code riverbed_<name>} over the same table and query. */
  static void register(String name, ScenarioTable table, Query query) {
    RiverbedSource.load(SparkOracle.HUDI_SOURCE, table.path(), query).createOrReplaceTempView("hudi_" + name);
    RiverbedSource.load(RiverbedSource.CLASS_NAME, table.path(), query).createOrReplaceTempView("riverbed_" + name);
  }

  /** Runs {@code sql} with {@code {view}} placeholders over both sources; same columns, same rows, same order. */
  static void sameAnswer(String sql) {
    Dataset<Row> hudi = spark.sql(sql.replaceAll("\\{(\\w+)}", "hudi_$1"));
    Dataset<Row> ours = spark.sql(sql.replaceAll("\\{(\\w+)}", "riverbed_$1"));
    assertThat(ours.schema().simpleString()).as(sql).isEqualTo(hudi.schema().simpleString());
    List<String> expected = hudi.collectAsList().stream().map(Row::toString).toList();
    List<String> actual = ours.collectAsList().stream().map(Row::toString).toList();
    assertThat(expected).as("a query that returns nothing proves little: " + sql).isNotEmpty();
    assertThat(actual).as(sql).containsExactlyElementsOf(expected);
  }

  @Test
  void filtersOnDataAndPartitionColumns() {
    sameAnswer("SELECT _hoodie_record_key, _hoodie_commit_time, uuid, fare, city FROM {trips}"
        + " WHERE region = 'americas' AND fare > 10 ORDER BY uuid");
    sameAnswer("SELECT * FROM {trips} WHERE city IN ('chennai', 'paris', 'nowhere') AND passengers IN (1, 4) ORDER BY uuid");
    sameAnswer("SELECT uuid, ts, ride_date, pickup_time, country, is_paid FROM {rbmor}"
        + " WHERE ts BETWEEN 1200 AND 1800 AND ride_date >= DATE'2024-07-01'"
        + " AND pickup_time < TIMESTAMP'2024-10-01 00:00:00' AND country > 'c' AND country < 'j' ORDER BY uuid");
    sameAnswer("SELECT uuid, notes, rider.name, _hoodie_file_name FROM {trips} WHERE notes IS NULL OR rider.name IS NULL ORDER BY uuid");
  }

  @Test
  void aggregatesGroupedByPartitionColumns() {
    sameAnswer("SELECT region, country, city, count(*), count(DISTINCT driver), sum(ts), sum(passengers),"
        + " round(sum(fare), 6), max(ts), min(pickup_time), count(notes)"
        + " FROM {trips} GROUP BY region, country, city ORDER BY region, country, city");
    sameAnswer("SELECT region, count(*), sum(ts), max(_hoodie_commit_time) FROM {rbmor} GROUP BY region ORDER BY region");
    sameAnswer("SELECT city, _hoodie_commit_time, count(*) FROM {trips} WHERE fare < 50"
        + " GROUP BY city, _hoodie_commit_time ORDER BY city, _hoodie_commit_time");
  }

  @Test
  void joins() {
    sameAnswer("SELECT a.uuid, b.uuid, a.driver, a.ride_date FROM {trips} a JOIN {trips} b"
        + " ON a.driver = b.driver AND a.ride_date = b.ride_date AND a.uuid < b.uuid ORDER BY a.uuid, b.uuid");
    sameAnswer("SELECT a.rider.id, a.uuid, b.uuid, a.city, b.city, a.fare, b.fare FROM {trips} a JOIN {rbmor} b"
        + " ON a.rider.id = b.rider.id WHERE a.region = b.region ORDER BY a.rider.id");
    sameAnswer("SELECT s.uuid, s.ts, r.ts FROM {trips} s LEFT JOIN {trips_ro} r ON s.uuid = r.uuid"
        + " WHERE r.uuid IS NULL OR s.ts <> r.ts ORDER BY s.uuid");
  }
}
