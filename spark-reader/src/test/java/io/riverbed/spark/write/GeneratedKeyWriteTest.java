package io.riverbed.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.spark.SparkTestSession;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code df.write.format("hudi")} without a record key field: as in Hudi 0.14+, the writer
 * generates each row's key ({@code <instant>_<task>_<row>}), a write without an operation is a
 * {@code bulk_insert}, and the operations that need a stored record's key are refused.
 */
class GeneratedKeyWriteTest {
  static final StructType ROWS = new StructType()
      .add("id", DataTypes.IntegerType, false)
      .add("name", DataTypes.StringType, true)
      .add("dt", DataTypes.StringType, true);
  static SparkSession spark;

  @BeforeAll
  static void session() {
    spark = SparkTestSession.get();
  }

  static Dataset<Row> rows(int from, int to) {
    return spark.createDataFrame(java.util.stream.IntStream.range(from, to)
        .mapToObj(i -> RowFactory.create(i, "n" + i, "d" + (i % 2))).toList(), ROWS).repartition(2);
  }

  static Map<String, String> options(TableType type) {
    return Map.of("hoodie.table.name", "events", "hoodie.datasource.write.table.type", type.name(),
        "hoodie.datasource.write.partitionpath.field", "dt");
  }

  static Table table(String path) throws Exception {
    return Table.open(FileSystem.getLocal(new Configuration()), new Path(path));
  }

  static List<String> operations(String path) throws Exception {
    Table t = table(path);
    return t.refreshTimeline().completed().instants().stream()
        .map(i -> CommitMetadata.fromJson(t.timelineStore().read(i), i.toString()).operationType().value()).toList();
  }

  static List<Row> stored(String path) {
    return spark.read().format("hudi").load(path)
        .select("_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path", "id").collectAsList();
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void withoutARecordKeyAWriteIsABulkInsertAndEachRowGetsItsInstantTaskAndRowAsKey(TableType type) throws Exception {
    String path = Files.createTempDirectory("generated-keys").resolve("events").toUri().toString();
    rows(0, 6).write().format("hudi").options(options(type)).mode("overwrite").save(path);

    Table table = table(path);
    assertThat(table.config().properties()).doesNotContainKeys("hoodie.table.recordkey.fields")
        .containsEntry("hoodie.table.partition.fields", "dt")
        .containsEntry("hoodie.table.keygenerator.class", "org.apache.hudi.keygen.SimpleKeyGenerator");
    assertThat(operations(path)).containsExactly("bulk_insert");
    String instant = table.refreshTimeline().completed().instants().stream().map(Instant::time).findFirst().orElseThrow();
    List<Row> stored = stored(path);
    assertThat(stored).hasSize(6);
    assertThat(stored).allSatisfy(r -> {
      assertThat(r.getString(0)).isEqualTo(instant);
      assertThat(r.getString(1)).matches(instant + "_[01]_[0-9]+");
      assertThat(r.getString(2)).isEqualTo("d" + (r.getInt(3) % 2));
    });
    assertThat(stored.stream().map(r -> r.getString(1)).distinct()).hasSize(6);
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void insertAndBulkInsertAppendRowsUnderNewKeysKeepingEveryRow(TableType type) throws Exception {
    String path = Files.createTempDirectory("generated-keys").resolve("events").toUri().toString();
    rows(0, 4).write().format("hudi").options(options(type)).mode("overwrite").save(path);
    rows(0, 4).write().format("hudi").options(options(type))
        .option("hoodie.datasource.write.operation", "insert").mode("append").save(path);
    rows(4, 6).write().format("hudi").options(options(type))
        .option("hoodie.datasource.write.operation", "bulk_insert").mode("append").save(path);

    assertThat(operations(path)).containsExactly("bulk_insert", "insert", "bulk_insert");
    List<Row> stored = stored(path);
    assertThat(stored.stream().map(r -> r.getInt(3)).sorted().toList()).containsExactly(0, 0, 1, 1, 2, 2, 3, 3, 4, 5);
    assertThat(stored.stream().map(r -> r.getString(1)).distinct()).hasSize(10);
  }

  @Test
  void operationsThatFindStoredRecordsByKeyAreRefusedNamingTheOption() throws Exception {
    String path = Files.createTempDirectory("generated-keys").resolve("events").toUri().toString();
    rows(0, 2).write().format("hudi").options(options(TableType.COPY_ON_WRITE)).mode("overwrite").save(path);
    for (String operation : List.of("upsert", "delete")) {
      assertThatThrownBy(() -> rows(0, 2).write().format("hudi").options(options(TableType.COPY_ON_WRITE))
          .option("hoodie.datasource.write.operation", operation).mode("append").save(path))
          .isInstanceOf(InvalidTableException.class)
          .hasMessageContaining("hoodie.datasource.write.operation=" + operation + " is not supported")
          .hasMessageContaining("no record key field");
    }
    Map<String, String> bucket = new HashMap<>(options(TableType.COPY_ON_WRITE));
    bucket.put("hoodie.index.type", "BUCKET");
    bucket.put("hoodie.datasource.write.operation", "insert");
    assertThatThrownBy(() -> rows(0, 2).write().format("hudi").options(bucket).mode("append").save(path))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("hoodie.index.type=BUCKET is not supported");
    assertThatThrownBy(() -> rows(0, 2).write().format("hudi").options(options(TableType.COPY_ON_WRITE))
        .option("hoodie.datasource.write.recordkey.field", "id").mode("append").save(path))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("hoodie.datasource.write.recordkey.field='id'");
    assertThat(operations(path)).containsExactly("bulk_insert");
    assertThat(stored(path)).hasSize(2);
  }
}
