package io.riverbed.it.spark;

import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.types.StructField;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The columns, in order and with their types, that Riverbed's DataSource returns for every query
 * kind, through the table's base path and through the legacy {@code load(path + "/*")} glob, are
 * the ones Apache Hudi 0.15's returns: where Hudi moves the partition column last and where it
 * keeps it where the data has it.
 */
class ColumnOrderMatchesHudiTest {
  @TempDir static Path dir;

  @BeforeAll
  static void tables() {
    for (String type : List.of("COPY_ON_WRITE", "MERGE_ON_READ")) {
      Path path = dir.resolve(type);
      SparkWriterCrossEngineTest.write(SparkOracle.HUDI_SOURCE, SparkWriterCrossEngineTest.trips(
          SparkWriterCrossEngineTest.FIRST_TRIPS), path, SparkWriterCrossEngineTest.options(type), "upsert", "overwrite");
      SparkWriterCrossEngineTest.write(SparkOracle.HUDI_SOURCE, SparkWriterCrossEngineTest.trips(
          new Object[] {"1", "2015-01-01", 2L, 10.0}, new Object[] {"4", "2015-01-02", 2L, 4.0}), path,
          SparkWriterCrossEngineTest.options(type), "upsert", "append");
    }
  }

  private static List<String> columns(String source, String path, Map<String, String> options) {
    DataFrameReader reader = SparkOracle.spark().read().format(source).options(options);
    List<String> out = new ArrayList<>();
    for (StructField f : reader.load(path).schema().fields()) {
      out.add(f.name() + ":" + f.dataType().simpleString());
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void everyQueryKindHasHudisColumnsInHudisOrder(String type) {
    Path path = dir.resolve(type);
    List<TimelineInstant> commits = SparkOracle.completedInstants(path);
    String first = commits.get(0).time();
    Map<String, Map<String, String>> queries = Map.of(
        "snapshot", Map.of(),
        "read_optimized", Map.of("hoodie.datasource.query.type", "read_optimized"),
        "incremental", Map.of("hoodie.datasource.query.type", "incremental",
            "hoodie.datasource.read.begin.instanttime", first),
        "time travel", Map.of("as.of.instant", first));
    SoftAssertions softly = new SoftAssertions();
    for (var query : queries.entrySet()) {
      for (String load : List.of(path.toUri().toString(), path.toUri() + "/*")) {
        softly.assertThat(columns(SparkWriterCrossEngineTest.RIVERBED, load, query.getValue()))
            .as(type + " " + query.getKey() + " of " + (load.endsWith("*") ? "the glob" : "the base path"))
            .containsExactlyElementsOf(columns(SparkOracle.HUDI_SOURCE, load, query.getValue()));
      }
    }
    softly.assertAll();
  }
}
