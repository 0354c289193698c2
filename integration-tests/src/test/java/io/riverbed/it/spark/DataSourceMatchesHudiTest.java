package io.riverbed.it.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.QueryKind;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.riverbed.RiverbedScenarios;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.Scenarios;
import io.riverbed.it.scenario.TableSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Riverbed's Spark DataSource, named by class in the session where Apache Hudi 0.15's bundle is
 * loaded, returns exactly the DataFrame Hudi's own DataSource returns: same columns in the same
 * order with the same types, same rows, meta columns included. Every scenario table (written by
 * Hudi and by Riverbed), every query kind: snapshot, read-optimized, time travel to each commit,
 * incremental over each pair of consecutive commits and open-ended from each commit.
 */
class DataSourceMatchesHudiTest {

  static Stream<Arguments> queries() {
    List<Arguments> out = new ArrayList<>();
    for (ScenarioTable t : List.of(Scenarios.morTrips(), Scenarios.cowComposite(), Scenarios.nestedKey(),
        RiverbedScenarios.mor(), RiverbedScenarios.cow())) {
      for (Query q : Query.everyKind(t.commitTimes())) {
        out.add(Arguments.of(t, q));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("queries")
  void riverbedDataSourceReturnsHudisDataFrame(ScenarioTable table, Query query) {
    Dataset<Row> hudi = RiverbedSource.load(SparkOracle.HUDI_SOURCE, table.path(), query);
    Dataset<Row> ours = RiverbedSource.load(RiverbedSource.CLASS_NAME, table.path(), query);
    String what = table + " " + query;

    assertThat(columns(ours.schema())).as("columns, in order, with types: " + what).isEqualTo(columns(hudi.schema()));
    assertThat(ours.schema().json()).as("schema with nullability and metadata, but Hudi's meta-field marker: " + what)
        .isEqualTo(withoutMetaFieldMarker(hudi.schema()).json());
    assertThat(markedColumns(hudi.schema())).as("Hudi marks exactly its meta columns, except on COW incremental: " + what)
        .isEqualTo(table.spec().type() == TableSpec.TableType.COPY_ON_WRITE && query.kind() == QueryKind.INCREMENTAL
            ? List.of() : Rows.META_COLUMNS);

    Rows expected = SparkOracle.canonicalRows(hudi);
    if (query.kind() != QueryKind.INCREMENTAL) {
      assertThat(expected.size()).as("a query that returns nothing proves little: " + what).isPositive();
    }
    SparkOracle.canonicalRows(ours).assertSameAs(expected, what + ", Riverbed's DataSource vs Hudi's");
  }

  static Stream<ScenarioTable> hudiWrittenTables() {
    return Stream.of(Scenarios.morTrips(), Scenarios.cowComposite());
  }

  /** Hudi 0.15 answers time travel to before a table's first commit with no rows and the table's schema. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("hudiWrittenTables")
  void timeTravelBeforeTheFirstCommitIsEmptyWithHudisSchema(ScenarioTable table) {
    Query beforeFirst = Query.asOf("20000101000000000");
    Dataset<Row> hudi = RiverbedSource.load(SparkOracle.HUDI_SOURCE, table.path(), beforeFirst);
    Dataset<Row> ours = RiverbedSource.load(RiverbedSource.CLASS_NAME, table.path(), beforeFirst);
    assertThat(ours.schema().json()).as("schema: " + table).isEqualTo(withoutMetaFieldMarker(hudi.schema()).json());
    assertThat(SparkOracle.canonicalRows(hudi).size()).as("Hudi's rows: " + table).isZero();
    assertThat(SparkOracle.canonicalRows(ours).size()).as("Riverbed's rows: " + table).isZero();
  }

  @Test
  void shortNameRiverbedWorksBesideHudisBundleWhereHudiIsAmbiguous() {
    ScenarioTable t = Scenarios.nestedKey();
    String path = t.path().toUri().toString();
    assertThatThrownBy(() -> SparkOracle.spark().read().format("hudi").load(path))
        .hasMessageContaining("Multiple sources found for hudi");
    SparkOracle.canonicalRows(SparkOracle.spark().read().format("riverbed").load(path))
        .assertSameAs(SparkOracle.snapshot(t.path()), t + " snapshot through format(\"riverbed\")");
  }

  /**
   * Hudi 0.15 marks its five meta columns with Spark's {@code __metadata_col} field metadata (every
   * relation but COW incremental's); Riverbed's DataSource does not (see docs/COMPATIBILITY.md).
   * The schema without that marker, all else kept.
   */
  static StructType withoutMetaFieldMarker(StructType schema) {
    return new StructType(Arrays.stream(schema.fields())
        .map(f -> Rows.META_COLUMNS.contains(f.name()) && f.metadata().equals(META_FIELD_MARKER)
            ? new StructField(f.name(), f.dataType(), f.nullable(), Metadata.empty()) : f)
        .toArray(StructField[]::new));
  }

  static final Metadata META_FIELD_MARKER = new MetadataBuilder().putBoolean("__metadata_col", true).build();

  /** Top-level columns whose metadata holds the {@code __metadata_col} marker. */
  static List<String> markedColumns(StructType schema) {
    return Arrays.stream(schema.fields()).filter(f -> f.metadata().contains("__metadata_col")).map(StructField::name).toList();
  }

  /** Top-level columns as {@code name:type}, in schema order (types include nested field names). */
  static List<String> columns(StructType schema) {
    return Arrays.stream(schema.fields()).map(f -> f.name() + ":" + f.dataType().catalogString()).toList();
  }
}
