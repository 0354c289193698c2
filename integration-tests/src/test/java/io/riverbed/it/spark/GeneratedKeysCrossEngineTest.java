package io.riverbed.it.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tables without a record key field (Hudi 0.14+'s key-less tables, whose writers generate each
 * record's key as {@code <instant>_<Spark partition>_<row>}) written by one engine and read or
 * appended to by the other: Apache Hudi 0.15 reads Riverbed's the same as Riverbed does, meta
 * columns included, and Riverbed reads and appends to Hudi's.
 */
class GeneratedKeysCrossEngineTest {
  static final StructType EVENTS = new StructType()
      .add("uuid", DataTypes.IntegerType, false)
      .add("name", DataTypes.StringType, true)
      .add("dt", DataTypes.StringType, true);
  static SparkSession riverbed;
  @TempDir Path dir;

  @BeforeAll
  static void riverbedSession() {
    riverbed = SqlStatementsCrossEngineTest.riverbedSqlSession();
  }

  static Dataset<Row> events(int from, int to) {
    return SparkOracle.spark().createDataFrame(java.util.stream.IntStream.range(from, to)
        .mapToObj(i -> RowFactory.create(i, "n" + i, "d" + (i % 2))).toList(), EVENTS).repartition(2);
  }

  static Map<String, String> options(String type) {
    return Map.of("hoodie.table.name", "events", "hoodie.datasource.write.table.type", type,
        "hoodie.datasource.write.partitionpath.field", "dt");
  }

  static void write(String source, Dataset<Row> rows, Path path, Map<String, String> options, String mode,
      String... operation) {
    var writer = rows.write().format(source).options(options).mode(mode);
    Arrays.stream(operation).forEach(op -> writer.option("hoodie.datasource.write.operation", op));
    writer.save(path.toUri().toString());
  }

  /** Hudi's read of the table, checked against Riverbed's, row for row, meta columns included. */
  static Rows readBothAndCompare(Path path, String what) {
    Rows hudi = SparkOracle.snapshot(path);
    SparkOracle.readWith(SparkWriterCrossEngineTest.RIVERBED, path, Query.snapshot()).assertSameAs(hudi,
        what + ": Riverbed vs Hudi");
    assertThat(hudi.nodes()).as(what + ": generated keys").allSatisfy(n -> assertThat(
        n.get("_hoodie_record_key").asText()).matches(n.get("_hoodie_commit_time").asText() + "_[0-9]+_[0-9]+"));
    assertThat(hudi.nodes().stream().map(n -> n.get("_hoodie_record_key").asText()).distinct().count())
        .as(what + ": one key per row").isEqualTo(hudi.size());
    return hudi;
  }

  static List<Integer> uuids(Rows rows) {
    return rows.nodes().stream().map(n -> n.get("uuid").asInt()).sorted().toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void hudiReadsTheKeylessTableRiverbedsWriterWritesAsRiverbedDoes(String type) {
    Path path = dir.resolve("riverbed_" + type.toLowerCase());
    write(SparkWriterCrossEngineTest.RIVERBED, events(0, 4), path, options(type), "overwrite");
    assertThat(uuids(readBothAndCompare(path, "bulk_insert"))).containsExactly(0, 1, 2, 3);
    write(SparkWriterCrossEngineTest.RIVERBED, events(0, 2), path, options(type), "append", "insert");
    assertThat(uuids(readBothAndCompare(path, "insert"))).containsExactly(0, 0, 1, 1, 2, 3);
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void riverbedReadsAndAppendsToTheKeylessTableHudisWriterWrites(String type) {
    Path path = dir.resolve("hudi_" + type.toLowerCase());
    write(SparkOracle.HUDI_SOURCE, events(0, 4), path, options(type), "overwrite");
    assertThat(uuids(readBothAndCompare(path, "Hudi's bulk_insert"))).containsExactly(0, 1, 2, 3);
    write(SparkWriterCrossEngineTest.RIVERBED, events(4, 6), path, options(type), "append", "insert");
    assertThat(uuids(readBothAndCompare(path, "Riverbed's insert"))).containsExactly(0, 1, 2, 3, 4, 5);
    write(SparkOracle.HUDI_SOURCE, events(6, 7), path, options(type), "append", "insert");
    assertThat(uuids(readBothAndCompare(path, "Hudi's insert after Riverbed's"))).containsExactly(0, 1, 2, 3, 4, 5, 6);
  }

  @Test
  void hudiReadsWhatRiverbedsSqlWritesIntoATableCreatedWithoutPrimaryKey() {
    Path path = dir.resolve("sql_nokey");
    riverbed.sql("CREATE TABLE hudi_cow_nokey_tbl (uuid INT, name STRING, price DOUBLE) USING "
        + SparkWriterCrossEngineTest.RIVERBED + " LOCATION '" + path.toUri() + "'");
    riverbed.sql("INSERT INTO hudi_cow_nokey_tbl VALUES (1, 'a', 1.0), (2, 'b', 2.0)");
    riverbed.sql("INSERT INTO hudi_cow_nokey_tbl VALUES (1, 'a', 1.0)");
    assertThat(uuids(readBothAndCompare(path, "INSERT INTO"))).containsExactly(1, 1, 2);
  }

  /** Each row's stored key and uuid, as Hudi reads the table at {@code path}. */
  static List<String> keys(Path path) {
    return SparkOracle.snapshot(path).nodes().stream()
        .map(n -> n.get("_hoodie_record_key").asText() + " " + n.get("uuid").asInt()).sorted().toList();
  }

  static List<String> uuidNameDt(Path path) {
    return SparkOracle.snapshot(path).nodes().stream()
        .map(n -> n.get("uuid").asInt() + " " + n.get("name").asText() + " " + n.get("dt").asText()).sorted().toList();
  }

  /**
   * Riverbed's SQL UPDATE and DELETE FROM on a key-less table, one Riverbed's writer wrote and one
   * Hudi's did: Hudi reads the rows changed as the statements say and as Riverbed reads them, each under
   * the key it was stored with (the statements change rows by {@code _hoodie_record_key}, as Hudi
   * 0.15's prepped SQL writes do), a deleted row gone.
   */
  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void hudiReadsTheRowsRiverbedsUpdateAndDeleteChangeByTheirStoredKeys(String type) {
    for (String writer : List.of(SparkWriterCrossEngineTest.RIVERBED, SparkOracle.HUDI_SOURCE)) {
      String name = (writer.equals(SparkOracle.HUDI_SOURCE) ? "hudi_written_" : "riverbed_written_")
          + type.toLowerCase();
      Path path = dir.resolve(name);
      write(writer, events(0, 4), path, options(type), "overwrite");
      write(writer, events(1, 2), path, options(type), "append", "insert");
      List<String> stored = keys(path);
      riverbed.sql("CREATE TABLE " + name + " USING " + SparkWriterCrossEngineTest.RIVERBED + " LOCATION '"
          + path.toUri() + "'");

      riverbed.sql("UPDATE " + name + " SET name = 'x' WHERE uuid = 1");
      SparkOracle.readWith(SparkWriterCrossEngineTest.RIVERBED, path, Query.snapshot())
          .assertSameAs(SparkOracle.snapshot(path), name + " UPDATE: Riverbed vs Hudi");
      assertThat(uuidNameDt(path)).as(name + " UPDATE, read by Hudi")
          .containsExactly("0 n0 d0", "1 x d1", "1 x d1", "2 n2 d0", "3 n3 d1");
      assertThat(keys(path)).as(name + ": the keys stored").isEqualTo(stored);

      riverbed.sql("DELETE FROM " + name + " WHERE uuid = 3 OR uuid = 0");
      SparkOracle.readWith(SparkWriterCrossEngineTest.RIVERBED, path, Query.snapshot())
          .assertSameAs(SparkOracle.snapshot(path), name + " DELETE: Riverbed vs Hudi");
      assertThat(uuidNameDt(path)).as(name + " DELETE, read by Hudi").containsExactly("1 x d1", "1 x d1", "2 n2 d0");
      assertThat(keys(path)).as(name + ": the keys kept").isSubsetOf(stored).hasSize(3);
    }
  }
}
