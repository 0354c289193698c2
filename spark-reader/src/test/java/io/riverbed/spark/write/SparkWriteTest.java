package io.riverbed.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.InvalidTableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableExistsException;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.write.WriterLease;
import io.riverbed.spark.SparkTestSession;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
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

/** {@code df.write.format("hudi")}: each operation and save mode, read back through Riverbed's reader. */
class SparkWriteTest {
  static final StructType TRIPS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("creation_date", DataTypes.StringType, true)
      .add("last_update_time", DataTypes.StringType, true)
      .add("fare", DataTypes.DoubleType, true);
  static SparkSession spark;

  @BeforeAll
  static void session() {
    spark = SparkTestSession.get();
  }

  static Map<String, String> options(TableType type) {
    return Map.of(
        "hoodie.table.name", "trips",
        "hoodie.datasource.write.table.type", type.name(),
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.partitionpath.field", "creation_date",
        "hoodie.datasource.write.precombine.field", "last_update_time",
        "hoodie.upsert.shuffle.parallelism", "2",
        "hoodie.insert.shuffle.parallelism", "2");
  }

  static Dataset<Row> trips(Object[]... rows) {
    return spark.createDataFrame(java.util.Arrays.stream(rows).map(RowFactory::create).toList(), TRIPS).repartition(2);
  }

  static String newPath() throws Exception {
    return Files.createTempDirectory("spark-write").resolve("trips").toUri().toString();
  }

  static void write(Dataset<Row> df, String path, Map<String, String> options, String operation, String mode) {
    df.write().format("hudi").options(options).option("hoodie.datasource.write.operation", operation).mode(mode)
        .save(path);
  }

  /** id → "date|time|fare" as read back. */
  static Map<String, String> read(String path) {
    return spark.read().format("hudi").load(path).collectAsList().stream().collect(Collectors.toMap(
        r -> r.getAs("id"), r -> r.getAs("creation_date") + "|" + r.getAs("last_update_time") + "|" + r.getAs("fare")));
  }

  /** A new table holding the row of key "1". */
  static String oneRowTable(TableType type) throws Exception {
    String path = newPath();
    write(trips(new Object[] {"1", "d", "t", 1.0}), path, options(type), "insert", "append");
    return path;
  }

  static Table table(String path) throws Exception {
    return Table.open(FileSystem.getLocal(new Configuration()), new Path(path));
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void insertThenUpsertThenDeleteKeepsOneRowPerKeyAndTheLargerOrderingValue(TableType type) throws Exception {
    String path = newPath();
    Map<String, String> o = new java.util.HashMap<>(options(type));
    // event-time merges: a change older than the stored row loses (Hudi 0.15's default payload lets the latest write win)
    o.put("hoodie.datasource.write.payload.class", "org.apache.hudi.common.model.DefaultHoodieRecordPayload");
    write(trips(new Object[] {"100", "2015-01-01", "2015-01-01T13:51:39Z", 1.0},
        new Object[] {"101", "2015-01-01", "2015-01-01T12:14:58Z", 2.0},
        new Object[] {"102", "2015-01-02", "2015-01-01T13:51:40Z", 3.0},
        new Object[] {"102", "2015-01-02", "2015-01-01T13:51:41Z", 3.5}), path, o, "insert", "overwrite");
    assertThat(read(path)).containsOnly(
        Map.entry("100", "2015-01-01|2015-01-01T13:51:39Z|1.0"),
        Map.entry("101", "2015-01-01|2015-01-01T12:14:58Z|2.0"),
        Map.entry("102", "2015-01-02|2015-01-01T13:51:41Z|3.5"));

    // 100 newer wins, 101 older loses against the stored row, 103 is new
    write(trips(new Object[] {"100", "2015-01-01", "2015-01-02T00:00:00Z", 10.0},
        new Object[] {"101", "2015-01-01", "2015-01-01T00:00:00Z", 20.0},
        new Object[] {"103", "2015-01-02", "2015-01-01T00:00:00Z", 4.0}), path, o, "upsert", "append");
    assertThat(read(path)).containsOnly(
        Map.entry("100", "2015-01-01|2015-01-02T00:00:00Z|10.0"),
        Map.entry("101", "2015-01-01|2015-01-01T12:14:58Z|2.0"),
        Map.entry("102", "2015-01-02|2015-01-01T13:51:41Z|3.5"),
        Map.entry("103", "2015-01-02|2015-01-01T00:00:00Z|4.0"));

    // an upsert again of a key the last upsert wrote: found, not duplicated
    write(trips(new Object[] {"103", "2015-01-02", "2015-01-03T00:00:00Z", 5.0}), path, o, "upsert", "append");
    assertThat(spark.read().format("hudi").load(path).count()).isEqualTo(4);
    assertThat(read(path)).containsEntry("103", "2015-01-02|2015-01-03T00:00:00Z|5.0");

    write(trips(new Object[] {"100", "2015-01-01", "2015-01-05T00:00:00Z", 0.0},
        new Object[] {"999", "2015-01-01", "2015-01-05T00:00:00Z", 0.0}), path, o, "delete", "append");
    assertThat(read(path)).containsOnlyKeys("101", "102", "103");
    assertThat(table(path).type()).isEqualTo(type);
  }

  @Test
  void emptyPayloadAndIsDeletedColumnDelete() throws Exception {
    String path = newPath();
    Map<String, String> o = options(TableType.MERGE_ON_READ);
    write(trips(new Object[] {"1", "d", "t1", 1.0}, new Object[] {"2", "d", "t1", 2.0}, new Object[] {"3", "d", "t1", 3.0}),
        path, o, "bulk_insert", "overwrite");
    assertThat(read(path)).containsOnlyKeys("1", "2", "3");
    trips(new Object[] {"1", "d", "t2", 1.0}).write().format("hudi").options(o)
        .option("hoodie.datasource.write.payload.class", "org.apache.hudi.common.model.EmptyHoodieRecordPayload")
        .mode("append").save(path);
    assertThat(read(path)).containsOnlyKeys("2", "3");
    StructType withDeleted = TRIPS.add("_hoodie_is_deleted", DataTypes.BooleanType, true);
    Dataset<Row> df = spark.createDataFrame(List.of(RowFactory.create("2", "d", "t3", 2.0, true),
        RowFactory.create("4", "d", "t3", 4.0, false)), withDeleted);
    df.write().format("hudi").options(o).mode("append").save(path);
    assertThat(read(path)).containsOnlyKeys("3", "4");
  }

  @Test
  void saveModesAsHudiTreatsThem() throws Exception {
    String path = newPath();
    Map<String, String> o = options(TableType.COPY_ON_WRITE);
    write(trips(new Object[] {"1", "d", "t", 1.0}), path, o, "upsert", "append");
    assertThat(read(path)).containsOnlyKeys("1");
    assertThatThrownBy(() -> write(trips(new Object[] {"2", "d", "t", 1.0}), path, o, "upsert", "errorifexists"))
        .isInstanceOf(TableExistsException.class).hasMessageContaining("already exists");
    write(trips(new Object[] {"3", "d", "t", 1.0}), path, o, "upsert", "ignore");
    assertThat(read(path)).containsOnlyKeys("1");
    write(trips(new Object[] {"4", "d", "t", 1.0}), path, o, "upsert", "overwrite");
    assertThat(read(path)).containsOnlyKeys("4");
    assertThat(table(path).refreshTimeline().writeTimeline().completed().instants()).hasSize(1);

    String fresh = newPath();
    write(trips(new Object[] {"5", "d", "t", 1.0}), fresh, o, "insert", "errorifexists");
    write(trips(new Object[] {"6", "d", "t", 1.0}), newPath(), o, "insert", "ignore");
    assertThat(read(fresh)).containsOnlyKeys("5");
  }

  @Test
  void laterWritesMayAddNullableColumnsOnly() throws Exception {
    Map<String, String> o = options(TableType.COPY_ON_WRITE);
    String path = oneRowTable(TableType.COPY_ON_WRITE);
    StructType wider = TRIPS.add("note", DataTypes.StringType, true);
    spark.createDataFrame(List.of(RowFactory.create("2", "d", "t", 2.0, "hi")), wider)
        .write().format("hudi").options(o).mode("append").save(path);
    List<Row> rows = spark.read().format("hudi").load(path).orderBy("id").collectAsList();
    assertThat(rows).extracting(r -> (Object) r.getAs("note")).containsExactly(null, "hi");

    StructType notNull = wider.add("extra", DataTypes.IntegerType, false);
    assertThatThrownBy(() -> spark.createDataFrame(List.of(RowFactory.create("3", "d", "t", 3.0, "n", 1)), notNull)
        .write().format("hudi").options(o).mode("append").save(path))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("new column 'extra' is not nullable");
    StructType changed = new StructType().add("id", DataTypes.StringType).add("creation_date", DataTypes.StringType)
        .add("last_update_time", DataTypes.StringType).add("fare", DataTypes.StringType)
        .add("note", DataTypes.StringType);
    assertThatThrownBy(() -> spark.createDataFrame(List.of(RowFactory.create("3", "d", "t", "x", null)), changed)
        .write().format("hudi").options(o).mode("append").save(path))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("column 'fare'");
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void laterWritesMayWidenAColumnsTypeAndNarrowerDataIsWrittenInTheTablesType(TableType type) throws Exception {
    Map<String, String> o = options(type);
    String path = newPath();
    StructType ints = new StructType().add("id", DataTypes.StringType).add("creation_date", DataTypes.StringType)
        .add("last_update_time", DataTypes.StringType).add("fare", DataTypes.FloatType).add("qty", DataTypes.IntegerType);
    spark.createDataFrame(List.of(RowFactory.create("1", "d", "t1", 1.5f, 1), RowFactory.create("2", "d", "t1", 2.5f, 2)),
        ints).write().format("hudi").options(o).mode("append").save(path);
    StructType longs = new StructType().add("id", DataTypes.StringType).add("creation_date", DataTypes.StringType)
        .add("last_update_time", DataTypes.StringType).add("fare", DataTypes.DoubleType).add("qty", DataTypes.LongType);
    spark.createDataFrame(List.of(RowFactory.create("2", "d", "t2", 2.25, 5_000_000_000L),
        RowFactory.create("3", "d", "t2", 3.25, 3L)), longs).write().format("hudi").options(o).mode("append").save(path);
    spark.createDataFrame(List.of(RowFactory.create("4", "d", "t3", 4.5f, 4)), ints)
        .write().format("hudi").options(o).mode("append").save(path);

    Dataset<Row> read = spark.read().format("hudi").load(path);
    assertThat(read.schema().apply("qty").dataType()).isEqualTo(DataTypes.LongType);
    assertThat(read.schema().apply("fare").dataType()).isEqualTo(DataTypes.DoubleType);
    assertThat(read.orderBy("id").collectAsList()).extracting(r -> r.getAs("id") + "|" + r.getAs("fare") + "|" + r.getAs("qty"))
        .containsExactly("1|1.5|1", "2|2.25|5000000000", "3|3.25|3", "4|4.5|4");
    assertThatThrownBy(() -> spark.createDataFrame(List.of(RowFactory.create("5", "d", "t4", 5.5f, 5)),
        ints).withColumn("qty", org.apache.spark.sql.functions.lit("x"))
        .write().format("hudi").options(o).mode("append").save(path))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("column 'qty'").hasMessageContaining("widened");
  }

  @Test
  void badOptionsFailNamingTheOption() throws Exception {
    String path = newPath();
    Map<String, String> o = options(TableType.COPY_ON_WRITE);
    Dataset<Row> df = trips(new Object[] {"1", "d", "t", 1.0});
    assertThatThrownBy(() -> df.write().format("hudi").options(o).option("hoodie.index.type", "BLOOM").mode("append")
        .save(path)).isInstanceOf(InvalidTableException.class).hasMessageContaining("hoodie.index.type");
    assertThatThrownBy(() -> write(df, path, o, "cluster", "append"))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("cluster");
    assertThatThrownBy(() -> df.write().format("hudi").option("hoodie.datasource.write.recordkey.field", "id")
        .mode("append").save(path)).isInstanceOf(InvalidTableException.class).hasMessageContaining("hoodie.table.name");
    write(df, path, o, "insert", "append");
    assertThatThrownBy(() -> df.write().format("hudi").options(o)
        .option("hoodie.datasource.write.recordkey.field", "fare").mode("append").save(path))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("hoodie.datasource.write.recordkey.field");
  }

  @Test
  void aTableLeasedByALiveWriterIsRefusedNamingIt() throws Exception {
    Map<String, String> o = options(TableType.MERGE_ON_READ);
    String path = oneRowTable(TableType.MERGE_ON_READ);
    WriterLease flink = WriterLease.acquire(table(path), "flink-lineage-1", "Flink job abc123", Duration.ofMinutes(5));
    try {
      assertThatThrownBy(() -> write(trips(new Object[] {"2", "d", "t", 1.0}), path, o, "upsert", "append"))
          .isInstanceOf(CommitConflictException.class).hasMessageContaining("Flink job abc123");
      assertThatThrownBy(() -> write(trips(new Object[] {"2", "d", "t", 1.0}), path, o, "upsert", "overwrite"))
          .isInstanceOf(CommitConflictException.class).hasMessageContaining("Flink job abc123");
    } finally {
      flink.release();
    }
    assertThat(read(path)).containsOnlyKeys("1");
  }

  @Test
  void aFailedJobCommitsNothingAndTheNextWriterRollsItBack() throws Exception {
    Map<String, String> o = options(TableType.COPY_ON_WRITE);
    String path = oneRowTable(TableType.COPY_ON_WRITE);
    // an insert looks nothing up: the rows are converted in the write job, after the instant began
    StructType nullableId = new StructType(java.util.Arrays.stream(TRIPS.fields())
        .map(f -> f.copy(f.name(), f.dataType(), true, f.metadata())).toArray(org.apache.spark.sql.types.StructField[]::new));
    Dataset<Row> badRow = spark.createDataFrame(List.of(RowFactory.create(null, "d", "t", 2.0)), nullableId);
    assertThatThrownBy(() -> write(badRow, path, o, "insert", "append"))
        .hasStackTraceContaining("column 'id' is null in a written row");
    assertThat(table(path).refreshTimeline().commitsTimeline().pending().instants()).hasSize(1);
    assertThat(read(path)).containsOnlyKeys("1");
    write(trips(new Object[] {"3", "d", "t", 1.0}), path, o, "upsert", "append");
    assertThat(read(path)).containsOnlyKeys("1", "3");
    assertThat(table(path).refreshTimeline().commitsTimeline().pending().instants()).isEmpty();
    assertThat(table(path).refreshTimeline().instants()).extracting(Instant::action).map(Object::toString)
        .contains("ROLLBACK");
  }

  @Test
  void complexAndNonpartitionedKeysAndHiveStylePartitionsAsHudiNamesThem() throws Exception {
    String complex = newPath();
    trips(new Object[] {"1", "2015-01-01", "t", 1.0}).write().format("hudi").options(options(TableType.COPY_ON_WRITE))
        .option("hoodie.datasource.write.recordkey.field", "id,creation_date")
        .option("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.ComplexKeyGenerator")
        .option("hoodie.datasource.write.hive_style_partitioning", "true").mode("overwrite").save(complex);
    Row row = spark.read().format("hudi").load(complex).first();
    assertThat((String) row.getAs("_hoodie_record_key")).isEqualTo("id:1,creation_date:2015-01-01");
    assertThat((String) row.getAs("_hoodie_partition_path")).isEqualTo("creation_date=2015-01-01");

    String flat = newPath();
    trips(new Object[] {"1", "2015-01-01", "t", 1.0}).write().format("hudi").options(options(TableType.MERGE_ON_READ))
        .option("hoodie.datasource.write.partitionpath.field", "")
        .option("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.NonpartitionedKeyGenerator")
        .mode("overwrite").save(flat);
    Row unpartitioned = spark.read().format("hudi").load(flat).first();
    assertThat((String) unpartitioned.getAs("_hoodie_partition_path")).isEmpty();
    assertThat(table(flat).config().keyGeneratorClass()).hasValue("org.apache.hudi.keygen.NonpartitionedKeyGenerator");
  }

  @Test
  void everySparkTypeReadsBackAsWritten() throws Exception {
    String path = newPath();
    Dataset<Row> df = spark.sql("select 'k1' as id, 'p' as part, cast(12.34 as decimal(10,2)) as amount,"
        + " cast('2024-02-29' as date) as day, cast('2024-02-29 10:11:12.123456' as timestamp) as at,"
        + " cast(7 as tinyint) as small, cast(8 as smallint) as mid, 9L as big, true as flag, 1.5f as f,"
        + " cast('ab' as binary) as bin, named_struct('a', 1, 'b', 'x') as nested, array(1, 2, 3) as list,"
        + " map('m', 2.5d) as dict");
    df.write().format("hudi").option("hoodie.table.name", "types")
        .option("hoodie.datasource.write.recordkey.field", "id")
        .option("hoodie.datasource.write.partitionpath.field", "part").mode("overwrite").save(path);
    Dataset<Row> back = spark.read().format("hudi").load(path).select(df.columns()[0],
        java.util.Arrays.copyOfRange(df.columns(), 1, df.columns().length));
    assertThat(back.toJSON().first()).isEqualTo(df.toJSON().first());
  }
}
