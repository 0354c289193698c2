package io.riverbed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.spark.RiverbedCatalog;
import io.riverbed.spark.SparkTestSession;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code UPDATE}, {@code DELETE FROM} and {@code MERGE INTO} on Hudi tables registered in
 * {@link RiverbedCatalog}, with {@code RiverbedSessionExtension}: each statement is one commit of
 * Hudi's operation type, and the rows read back are the ones Hudi 0.15's commands leave.
 */
class RowLevelStatementsTest {
  static final String DB = "riverbed_dml_test";
  static final StructType PRODUCTS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("name", DataTypes.StringType, true)
      .add("price", DataTypes.DoubleType, true)
      .add("ts", DataTypes.LongType, true)
      .add("dt", DataTypes.StringType, true);
  static final AtomicInteger TABLES = new AtomicInteger();
  static SparkSession spark;

  @BeforeAll
  static void session() {
    spark = SparkTestSession.withCatalogDatabase(DB);
  }

  @AfterAll
  static void dropDatabase() {
    spark.sql("DROP DATABASE " + DB + " CASCADE");
  }

  static Stream<Arguments> layouts() {
    return Stream.of(TableType.values()).flatMap(t -> Stream.of(Arguments.of(t, true), Arguments.of(t, false)));
  }

  /** A table of products 1..4 (ts 10, dt 'd1' for 1-2, 'd2' for 3-4), registered under a new name. */
  static Products products(TableType type, boolean partitioned) throws Exception {
    String path = Files.createTempDirectory("dml").resolve("products").toUri().toString();
    Map<String, String> options = new HashMap<>(Map.of(
        "hoodie.table.name", "products",
        "hoodie.datasource.write.table.type", type.name(),
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.operation", "upsert",
        "hoodie.upsert.shuffle.parallelism", "2"));
    if (partitioned) {
      options.put("hoodie.datasource.write.partitionpath.field", "dt");
    } else {
      options.put("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.NonpartitionedKeyGenerator");
    }
    List<Row> rows = List.of(
        RowFactory.create("1", "a", 1.0, 10L, "d1"), RowFactory.create("2", "b", 2.0, 10L, "d1"),
        RowFactory.create("3", "c", 3.0, 10L, "d2"), RowFactory.create("4", "d", 4.0, 10L, "d2"));
    spark.createDataFrame(rows, PRODUCTS).repartition(2).write().format("hudi").options(options).mode("append").save(path);
    String name = "products_" + TABLES.incrementAndGet();
    spark.sql("CREATE TABLE " + name + " USING hudi LOCATION '" + path + "'");
    return new Products(name, path, type);
  }

  record Products(String name, String path, TableType type) {
    /** id → "name|price|ts|dt". */
    Map<String, String> rows() {
      return spark.sql("SELECT id, name, price, ts, dt FROM " + name).collectAsList().stream().collect(Collectors.toMap(
          r -> r.getString(0), r -> r.get(1) + "|" + r.get(2) + "|" + r.get(3) + "|" + r.get(4)));
    }

    List<Instant> completedWrites() throws Exception {
      return table().refreshTimeline().writeTimeline().completed().instants();
    }

    Table table() throws Exception {
      return Table.open(FileSystem.getLocal(new Configuration()), new Path(path));
    }

    /** The statement's commit: the one completed write after the table's first, with its metadata. */
    CommitMetadata onlyStatementCommit() throws Exception {
      List<Instant> writes = completedWrites();
      assertThat(writes).hasSize(2);
      Instant statement = writes.get(1);
      assertThat(statement.action()).isEqualTo(type == TableType.MERGE_ON_READ ? Action.DELTA_COMMIT : Action.COMMIT);
      Path file = new Path(new Path(path, ".hoodie"), statement.fileName());
      FileSystem fs = FileSystem.getLocal(new Configuration());
      try (var in = fs.open(file)) {
        return CommitMetadata.fromJson(in.readAllBytes(), file.toString());
      }
    }
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void updateWithAPredicateUpsertsTheMatchingRowsInOneCommit(TableType type, boolean partitioned) throws Exception {
    Products t = products(type, partitioned);
    spark.sql("UPDATE " + t.name() + " SET price = price * 10, name = upper(name) WHERE id IN ('1', '3')");
    assertThat(t.rows()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "1", "A|10.0|10|d1", "2", "b|2.0|10|d1", "3", "C|30.0|10|d2", "4", "d|4.0|10|d2"));
    assertThat(t.onlyStatementCommit().operationType()).isEqualTo(WriteOperationType.UPSERT);
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void deleteWithAPredicateDeletesTheMatchingKeysInOneCommit(TableType type, boolean partitioned) throws Exception {
    Products t = products(type, partitioned);
    spark.sql("DELETE FROM " + t.name() + " WHERE price > 1.5 AND name <> 'd'");
    assertThat(t.rows()).containsExactlyInAnyOrderEntriesOf(Map.of("1", "a|1.0|10|d1", "4", "d|4.0|10|d2"));
    assertThat(t.onlyStatementCommit().operationType()).isEqualTo(WriteOperationType.DELETE);
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void mergeUpdatesDeletesAndInsertsByItsClausesInOneUpsert(TableType type, boolean partitioned) throws Exception {
    Products t = products(type, partitioned);
    spark.createDataFrame(List.of(
        RowFactory.create("1", "a2", 1.5, 11L, "d1", "U"),
        RowFactory.create("2", "b2", 2.5, 11L, "d1", "D"),
        RowFactory.create("3", "c2", 3.5, 11L, "d2", "skip"),
        RowFactory.create("5", "e", 5.0, 11L, "d2", "I"),
        RowFactory.create("6", "f", 6.0, 11L, "d1", "skip")), PRODUCTS.add("op", DataTypes.StringType))
        .createOrReplaceTempView("changes_" + t.name());
    spark.sql("MERGE INTO " + t.name() + " AS t USING changes_" + t.name() + " AS s ON t.id = s.id"
        + " WHEN MATCHED AND s.op = 'U' THEN UPDATE SET name = s.name, price = s.price, ts = s.ts"
        + " WHEN MATCHED AND s.op = 'D' THEN DELETE"
        + " WHEN NOT MATCHED AND s.op = 'I' THEN INSERT (id, name, price, ts, dt) VALUES (s.id, s.name, s.price, s.ts, s.dt)");
    assertThat(t.rows()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "1", "a2|1.5|11|d1", "3", "c|3.0|10|d2", "4", "d|4.0|10|d2", "5", "e|5.0|11|d2"));
    assertThat(t.onlyStatementCommit().operationType()).isEqualTo(WriteOperationType.UPSERT);
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void mergeKeepsTheLargerPrecombineValueOfSourceRowsOfOneKey(TableType type, boolean partitioned)
      throws Exception {
    Products t = products(type, partitioned);
    spark.createDataFrame(List.of(
        RowFactory.create("1", "late", 1.7, 17L, "d1"),
        RowFactory.create("1", "early", 1.2, 12L, "d1"),
        RowFactory.create("7", "new-early", 7.0, 3L, "d2"),
        RowFactory.create("7", "new-late", 7.5, 4L, "d2")), PRODUCTS).repartition(2)
        .createOrReplaceTempView("stars_" + t.name());
    spark.sql("MERGE INTO " + t.name() + " t USING stars_" + t.name() + " s ON t.id = s.id"
        + " WHEN MATCHED THEN UPDATE SET name = s.name, price = s.price, ts = s.ts"
        + " WHEN NOT MATCHED THEN INSERT (id, name, price, ts, dt) VALUES (s.id, s.name, s.price, s.ts, s.dt)");
    assertThat(t.rows()).containsEntry("1", "late|1.7|17|d1").containsEntry("7", "new-late|7.5|4|d2").hasSize(5);
    assertThat(t.onlyStatementCommit().operationType()).isEqualTo(WriteOperationType.UPSERT);
  }

  @Test
  void mergeStarsAssignTheDataColumnsFromTheSourceColumnsOfTheirNames() throws Exception {
    Products t = products(TableType.MERGE_ON_READ, true);
    spark.createDataFrame(List.of(RowFactory.create("2", "b3", 2.2, 30L, "d1"), RowFactory.create("8", "h", 8.0, 30L, "d2")),
        PRODUCTS).createOrReplaceTempView("star_source");
    spark.sql("MERGE INTO " + t.name() + " t USING star_source s ON t.id = s.id"
        + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
    assertThat(t.rows()).containsEntry("2", "b3|2.2|30|d1").containsEntry("8", "h|8.0|30|d2").hasSize(5);
    assertThat(t.onlyStatementCommit().operationType()).isEqualTo(WriteOperationType.UPSERT);
  }

  @Test
  void anUpdateKeepsUnassignedColumnsAndAMatchedDeleteYieldsToAnUpdateClauseAsInHudi() throws Exception {
    Products t = products(TableType.COPY_ON_WRITE, true);
    spark.sql("CREATE OR REPLACE TEMP VIEW both_clauses AS SELECT '2' AS id, 20L AS ts");
    spark.sql("MERGE INTO " + t.name() + " t USING both_clauses s ON t.id = s.id"
        + " WHEN MATCHED AND s.ts > 0 THEN DELETE WHEN MATCHED THEN UPDATE SET price = 0.0");
    assertThat(t.rows()).containsEntry("2", "b|0.0|20|d1").hasSize(4);
  }

  @Test
  void statementsHudiRefusesFailBeforeAnythingIsWritten() throws Exception {
    Products t = products(TableType.MERGE_ON_READ, true);
    spark.sql("CREATE OR REPLACE TEMP VIEW refused AS SELECT '1' AS id, 'x' AS name, 9.0 AS price, 99L AS ts, 'd2' AS dt");
    assertThatThrownBy(() -> spark.sql("UPDATE " + t.name() + " SET id = 'z' WHERE id = '1'"))
        .isInstanceOf(RefusedStatementException.class).hasMessageContaining("record key field 'id' cannot be assigned");
    assertThatThrownBy(() -> spark.sql("UPDATE " + t.name() + " SET dt = 'd9'"))
        .isInstanceOf(RefusedStatementException.class).hasMessageContaining("partition field 'dt' cannot be assigned");
    assertThatThrownBy(() -> spark.sql("MERGE INTO " + t.name() + " t USING refused s ON t.name = s.name"
        + " WHEN MATCHED THEN UPDATE SET price = s.price"))
        .isInstanceOf(RefusedStatementException.class).hasMessageContaining("column 'name'");
    assertThatThrownBy(() -> spark.sql("MERGE INTO " + t.name() + " t USING refused s ON t.id = s.id OR t.id = s.name"
        + " WHEN MATCHED THEN DELETE"))
        .isInstanceOf(RefusedStatementException.class).hasMessageContaining("only equality predicates");
    assertThatThrownBy(() -> spark.sql("MERGE INTO " + t.name() + " t USING refused s ON t.id = concat(s.id, '')"
        + " WHEN MATCHED THEN DELETE"))
        .isInstanceOf(RefusedStatementException.class).hasMessageContaining("of the form `t.id = s.id`");
    assertThatThrownBy(() -> spark.sql("MERGE INTO " + t.name() + " t USING refused s ON t.id = s.id"
        + " WHEN MATCHED THEN UPDATE SET price = t.price + s.price, ts = s.ts"))
        .isInstanceOf(RefusedStatementException.class).hasMessageContaining("Target table's field(price)");
    assertThatThrownBy(() -> spark.sql("MERGE INTO " + t.name() + " t USING refused s ON t.id = s.id"
        + " WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)"))
        .isInstanceOf(RefusedStatementException.class).hasMessageContaining("precombine field 'ts'");
    assertThat(t.completedWrites()).hasSize(1);

    assertThatThrownBy(() -> spark.sql("MERGE INTO " + t.name() + " t USING refused s ON t.id = s.id"
        + " WHEN MATCHED THEN UPDATE SET name = s.name, dt = s.dt"))
        .hasStackTraceContaining("changes the partition field 'dt' of the row with record key '1'");
    assertThat(t.completedWrites()).hasSize(1);
    assertThat(t.rows()).containsEntry("1", "a|1.0|10|d1").hasSize(4);
  }
}
