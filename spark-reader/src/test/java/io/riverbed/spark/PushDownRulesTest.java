package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringStartsWith;
import org.junit.jupiter.api.Test;

/** The rules that decide what push-down may skip: never a row the filter would keep. */
class PushDownRulesTest {
  static final MessageType FILE = Types.buildMessage()
      .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("city")
      .required(PrimitiveTypeName.INT64).named("ts")
      .required(PrimitiveTypeName.INT32).named("passengers")
      .optional(PrimitiveTypeName.BINARY).named("blob")
      .named("trips");

  static Optional<String> parquet(Filter f) {
    return ParquetPredicates.of(new Filter[] {f}, FILE).map(Object::toString);
  }

  @Test
  void comparisonsOnMatchingTypesBecomeParquetPredicates() {
    assertThat(parquet(new EqualTo("city", "paris"))).hasValueSatisfying(p -> assertThat(p).contains("eq(city, Binary{\"paris\"})"));
    assertThat(parquet(new GreaterThan("ts", 5L))).hasValueSatisfying(p -> assertThat(p).contains("gt(ts, 5)"));
    assertThat(parquet(new In("passengers", new Object[] {1, 2}))).hasValueSatisfying(p -> assertThat(p).startsWith("or("));
    assertThat(parquet(new IsNull("city"))).hasValueSatisfying(p -> assertThat(p).contains("eq(city, null)"));
  }

  @Test
  void typeMismatchesUnknownColumnsAndUnsupportedFiltersAreLeftToSpark() {
    assertThat(parquet(new GreaterThan("passengers", 5L))).isEmpty(); // int column in this file, long literal
    assertThat(parquet(new EqualTo("blob", "x"))).isEmpty();
    assertThat(parquet(new EqualTo("missing", "x"))).isEmpty();
    assertThat(parquet(new StringStartsWith("city", "pa"))).isEmpty();
  }

  @Test
  void aNegationIsPushedOnlyWhenItsWholeChildConverts() {
    Filter partial = new And(new EqualTo("city", "paris"), new StringStartsWith("city", "x"));
    assertThat(parquet(partial)).hasValueSatisfying(p -> assertThat(p).contains("eq(city"));
    assertThat(parquet(new Not(partial))).isEmpty();
    assertThat(parquet(new Or(new EqualTo("city", "a"), new StringStartsWith("city", "b")))).isEmpty();
    assertThat(parquet(new Not(new EqualTo("city", "paris")))).isPresent();
  }

  @Test
  void partitionFiltersPruneOnlyOnADefiniteNo() {
    Map<String, String> paris = new HashMap<>(Map.of("region", "europe", "city", "paris"));
    assertThat(PartitionPruner.eval(new EqualTo("city", "paris"), paris)).contains(true);
    assertThat(PartitionPruner.eval(new EqualTo("city", "lyon"), paris)).contains(false);
    assertThat(PartitionPruner.eval(new Or(new EqualTo("city", "lyon"), new StringStartsWith("notes", "x")), paris)).isEmpty();
    assertThat(PartitionPruner.eval(new Not(new EqualTo("city", "lyon")), paris)).contains(true);
    Map<String, String> nullCity = new HashMap<>();
    nullCity.put("city", null);
    assertThat(PartitionPruner.eval(new EqualTo("city", "paris"), nullCity)).isEmpty();
    assertThat(PartitionPruner.eval(new IsNull("city"), nullCity)).contains(true);
  }

  @Test
  void globsBelowTheBasePathSelectPartitions() {
    TableLocation glob = new TableLocation(new Path("/t"), Optional.of("americas/*/*"));
    assertThat(glob.includesPartition("americas/brazil/sao_paulo")).isTrue();
    assertThat(glob.includesPartition("asia/india/chennai")).isFalse();
    TableLocation files = new TableLocation(new Path("/t"), Optional.of("*/*/*/*.parquet"));
    assertThat(files.includesPartition("asia/india/chennai")).isTrue();
    TableLocation braces = new TableLocation(new Path("/t"), Optional.of("region={asia,europe}/*/*"));
    assertThat(braces.includesPartition("region=europe/country=france/city=paris")).isTrue();
    assertThat(braces.includesPartition("region=americas/country=brazil/city=rio")).isFalse();
  }

  @Test
  void readOptionsCarryFileSystemSettingsAndRefuseUnsupportedValues() {
    ReadOptions options = ReadOptions.from(Map.of("path", "/t", "fs.s3a.endpoint", "http://127.0.0.1:9000",
        "hoodie.datasource.query.type", "READ_OPTIMIZED"));
    assertThat(options.hadoop()).containsEntry("fs.s3a.endpoint", "http://127.0.0.1:9000");
    assertThat(options.query().type().optionValue()).isEqualTo("read_optimized");
    assertThat(ReadOptions.from(Map.of("paths", "[\"/t\"]")).path()).isEqualTo("/t");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReadOptions.from(Map.of("path", "/t",
            "hoodie.datasource.read.incr.path.glob", "*.parquet")))
        .hasMessageContaining("not supported");
    assertThat(ReadOptions.from(Map.of("path", "/t", "hoodie.datasource.read.incr.fallback.fulltablescan.enable", "TRUE"))
        .query().fallbackToFullTableScan()).isTrue();
    assertThat(ReadOptions.from(Map.of("path", "/t")).query().fallbackToFullTableScan()).isFalse();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReadOptions.from(Map.of("path", "/t",
            "hoodie.datasource.read.incr.fallback.fulltablescan.enable", "yes")))
        .hasMessageContaining("hoodie.datasource.read.incr.fallback.fulltablescan.enable='yes'");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReadOptions.from(Map.of()))
        .hasMessageContaining("no table path");
    assertThat(List.of(ReadOption.values())).allSatisfy(o -> assertThat(o.description()).isNotBlank());
  }
}
