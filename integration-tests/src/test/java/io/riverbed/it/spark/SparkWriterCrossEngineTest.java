package io.riverbed.it.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riverbed.it.oracle.NextHudiOracle;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Riverbed's Spark writer ({@code df.write.format(io.riverbed.spark.HudiDataSource)}) against Apache
 * Hudi 0.15 in one Spark session: tables Riverbed writes read the same in Hudi's reader as in
 * Riverbed's (rows and every {@code _hoodie_*} column) and as the model; and Riverbed upserts and
 * deletes into a table Hudi's writer wrote, which Hudi then reads as the model says; the same for
 * the overwrite operations (replacecommits), deletes by payload and by {@code _hoodie_is_deleted},
 * widened and added columns and the bucket index, with every query kind across them. Apache Hudi
 * 1.0.2, in one forked JVM after the other tests, reads the tables they queue for it
 * ({@link #alsoReadByHudi1}) as Hudi 0.15 does.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkWriterCrossEngineTest {
  static final String RIVERBED = "io.riverbed.spark.HudiDataSource";
  static final StructType TRIPS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("creation_date", DataTypes.StringType, false)
      .add("ts", DataTypes.LongType, false)
      .add("fare", DataTypes.DoubleType, true);
  /** The first write of every test: keys 1 and 2 in partition 2015-01-01, key 3 in 2015-01-02. */
  static final Object[][] FIRST_TRIPS = {{"1", "2015-01-01", 1L, 1.0}, {"2", "2015-01-01", 1L, 2.0},
      {"3", "2015-01-02", 1L, 3.0}};
  /** The tables outlive their tests: the last test reads the queued ones with Hudi 1.0.2. */
  @TempDir static Path dir;
  /** Every query kind over the tables the tests queued, for Hudi 1.0.2 to answer in one fork. */
  static final List<NextHudiOracle.Read> HUDI_1_READS = new ArrayList<>();

  static Map<String, String> options(String type) {
    return Map.of("hoodie.table.name", "trips", "hoodie.datasource.write.table.type", type,
        "hoodie.datasource.write.recordkey.field", "id", "hoodie.datasource.write.partitionpath.field", "creation_date",
        "hoodie.datasource.write.precombine.field", "ts", "hoodie.upsert.shuffle.parallelism", "2",
        "hoodie.insert.shuffle.parallelism", "2");
  }

  static Dataset<Row> trips(Object[]... rows) {
    SparkSession spark = SparkOracle.spark();
    return spark.createDataFrame(Arrays.stream(rows).map(RowFactory::create).toList(), TRIPS).repartition(2);
  }

  static void write(String source, Dataset<Row> df, Path path, Map<String, String> options, String operation,
      String mode) {
    df.write().format(source).options(options).option("hoodie.datasource.write.operation", operation).mode(mode)
        .save(path.toUri().toString());
  }

  /**
   * What the model holds after a write: id → the row's non-key columns. The overwrite operations
   * first drop the rows of the partitions they replace (insert_overwrite: those the rows are in;
   * insert_overwrite_table: all); delete_partition drops the partitions the rows are in.
   */
  static void apply(Map<String, String> model, String operation, Object[]... rows) {
    Set<String> partitions = Arrays.stream(rows).map(r -> (String) r[1]).collect(Collectors.toSet());
    switch (operation) {
      case "insert_overwrite", "delete_partition" -> model.values().removeIf(v -> partitions.contains(partitionOf(v)));
      case "insert_overwrite_table" -> model.clear();
      default -> { }
    }
    if (operation.equals("delete_partition")) {
      return;
    }
    for (Object[] r : rows) {
      if (operation.equals("delete")) {
        model.remove((String) r[0]);
      } else {
        model.put((String) r[0], r[1] + "|" + r[2] + "|" + r[3]);
      }
    }
  }

  private static String partitionOf(String modelValue) {
    return modelValue.substring(0, modelValue.indexOf('|'));
  }

  static Map<String, String> modelOf(Rows rows) {
    Map<String, String> out = new TreeMap<>();
    for (var n : rows.nodes()) {
      out.put(n.get("id").asText(), n.get("creation_date").asText() + "|" + n.get("ts").asLong() + "|"
          + n.get("fare").asDouble());
    }
    return out;
  }

  /** Writes each operation with {@code writer}, then checks Hudi's reader against Riverbed's and the model. */
  private static void writeAndCompare(String writer, Path path, Map<String, String> o, Map<String, String> model,
      String operation, String mode, Object[]... rows) {
    write(writer, trips(rows), path, o, operation, mode);
    apply(model, operation, rows);
    Rows hudi = SparkOracle.snapshot(path);
    assertThat(modelOf(hudi)).as(operation + " read by Hudi").isEqualTo(new TreeMap<>(model));
    SparkOracle.readWith(RIVERBED, path, Query.snapshot()).assertSameAs(hudi, operation + ": Riverbed vs Hudi");
  }

  /**
   * Queues for Hudi 1.0.2 (see the last test) every query kind over the table as it is now:
   * snapshot, read_optimized, time travel to each commit, incremental from the start and over each
   * commit.
   */
  static void alsoReadByHudi1(Path path) {
    List<String> times = SparkOracle.completedInstants(path).stream().map(TimelineInstant::time).toList();
    List<Query> queries = new ArrayList<>(List.of(Query.snapshot(), Query.readOptimized(), Query.incremental("000")));
    times.forEach(t -> queries.add(Query.asOf(t)));
    for (int i = 0; i + 1 < times.size(); i++) {
      queries.add(Query.incremental(times.get(i), times.get(i + 1)));
    }
    queries.forEach(q -> HUDI_1_READS.add(new NextHudiOracle.Read(path, q)));
  }

  /**
   * Queues for Hudi 1.0.2 the table's latest state only: snapshot, read_optimized and incremental
   * from the start, for the tables where that is what the 1.0.2 check adds (their history is compared with Hudi 0.15).
   */
  static void alsoReadByHudi1AsItIsNow(Path path) {
    List.of(Query.snapshot(), Query.readOptimized(), Query.incremental("000"))
        .forEach(q -> HUDI_1_READS.add(new NextHudiOracle.Read(path, q)));
  }

  /** Every query kind over the table, Riverbed's reader against Hudi 0.15's. */
  static void everyKindReadsTheSame(Path path) {
    List<String> times = SparkOracle.completedInstants(path).stream().map(TimelineInstant::time).toList();
    for (Query q : Query.everyKind(times)) {
      SparkOracle.readWith(RIVERBED, path, q).assertSameAs(SparkOracle.read(path, q), q.encode() + ": Riverbed vs Hudi");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void tablesRiverbedsSparkWriterWritesReadTheSameInHudi(String type) {
    Path path = dir.resolve("riverbed_" + type.toLowerCase());
    insertUpsertDeleteInsert(path, options(type), "bulk_insert");
    alsoReadByHudi1AsItIsNow(path);
  }

  /** A first write by {@code firstOperation}, two upserts, a delete and an insert, each compared with Hudi's reader. */
  private static void insertUpsertDeleteInsert(Path path, Map<String, String> o, String firstOperation) {
    Map<String, String> model = new HashMap<>();
    writeAndCompare(RIVERBED, path, o, model, firstOperation, "overwrite", FIRST_TRIPS);
    writeAndCompare(RIVERBED, path, o, model, "upsert", "append",
        new Object[] {"1", "2015-01-01", 2L, 10.0}, new Object[] {"4", "2015-01-02", 2L, 4.0});
    writeAndCompare(RIVERBED, path, o, model, "upsert", "append", new Object[] {"4", "2015-01-02", 3L, 40.0});
    writeAndCompare(RIVERBED, path, o, model, "delete", "append", new Object[] {"2", "2015-01-01", 4L, 0.0});
    writeAndCompare(RIVERBED, path, o, model, "insert", "append", new Object[] {"5", "2015-01-03", 5L, 5.0});
  }

  /**
   * The same inserts and upserts written into a MERGE_ON_READ table by Hudi's Spark writer and by
   * Riverbed's: after each, Hudi's reader reads Riverbed's table as Riverbed's reader does, for
   * snapshot and read_optimized queries, and the read_optimized view of both tables holds the same
   * rows: every new key in a base file, updates in logs except where a partition's small base-only
   * file group took new keys and was rewritten. Riverbed plans new keys once per write, as Hudi's
   * driver-side partitioner does, so even the updated rows match whatever the write's parallelism.
   */
  @Test
  void mergeOnReadInsertsAndUpsertsLeaveTheReadOptimizedViewHudisWriterLeaves() {
    Path hudiPath = dir.resolve("hudi_placement");
    Path riverbedPath = dir.resolve("riverbed_placement");
    Map<String, String> hudiOptions = new HashMap<>(options("MERGE_ON_READ"));
    hudiOptions.put("hoodie.metadata.enable", "false");
    Map<String, String> riverbedOptions = new HashMap<>(options("MERGE_ON_READ"));
    riverbedOptions.put("hoodie.upsert.shuffle.parallelism", "4");
    riverbedOptions.put("hoodie.insert.shuffle.parallelism", "4");
    Map<String, String> model = new HashMap<>();
    Object[][][] batches = {FIRST_TRIPS,
        {{"1", "2015-01-01", 2L, 10.0}, {"3", "2015-01-02", 2L, 30.0}, {"4", "2015-01-02", 2L, 4.0}},
        {{"5", "2015-01-03", 3L, 5.0}, {"6", "2015-01-01", 3L, 6.0}},
        {{"4", "2015-01-02", 4L, 40.0}, {"7", "2015-01-02", 4L, 7.0}, {"2", "2015-01-01", 4L, 20.0}}};
    String[] operations = {"insert", "upsert", "insert", "upsert"};
    for (int i = 0; i < batches.length; i++) {
      String mode = i == 0 ? "overwrite" : "append";
      writeAndCompare(SparkOracle.HUDI_SOURCE, hudiPath, hudiOptions, model, operations[i], mode, batches[i]);
      write(RIVERBED, trips(batches[i]), riverbedPath, riverbedOptions, operations[i], mode);
      String step = operations[i] + " #" + (i + 1);
      assertThat(modelOf(SparkOracle.snapshot(riverbedPath))).as(step + " read by Hudi").isEqualTo(new TreeMap<>(model));
      for (Query q : List.of(Query.snapshot(), Query.readOptimized())) {
        SparkOracle.readWith(RIVERBED, riverbedPath, q).assertSameAs(SparkOracle.read(riverbedPath, q),
            step + ", " + q.encode() + ": Riverbed vs Hudi");
      }
      Map<String, String> hudiWritten = modelOf(SparkOracle.readOptimized(hudiPath));
      assertThat(modelOf(SparkOracle.readOptimized(riverbedPath))).as(step + ": read_optimized of Riverbed's write "
          + "vs Hudi's").isEqualTo(hudiWritten);
      assertThat(hudiWritten.keySet()).as(step + ": read_optimized keys").isEqualTo(model.keySet());
    }
    alsoReadByHudi1AsItIsNow(riverbedPath);
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void riverbedUpsertsAndDeletesIntoAHudiWrittenTable(String type) {
    Path path = dir.resolve("hudi_" + type.toLowerCase());
    Map<String, String> hudiOptions = new HashMap<>(options(type));
    hudiOptions.put("hoodie.metadata.enable", "false");
    Map<String, String> model = new HashMap<>();
    writeAndCompare(SparkOracle.HUDI_SOURCE, path, hudiOptions, model, "insert", "overwrite", FIRST_TRIPS);
    writeAndCompare(SparkOracle.HUDI_SOURCE, path, hudiOptions, model, "upsert", "append",
        new Object[] {"3", "2015-01-02", 2L, 30.0});
    Map<String, String> o = options(type);
    writeAndCompare(RIVERBED, path, o, model, "upsert", "append",
        new Object[] {"3", "2015-01-02", 3L, 300.0}, new Object[] {"1", "2015-01-01", 3L, 100.0},
        new Object[] {"6", "2015-01-02", 3L, 6.0});
    writeAndCompare(RIVERBED, path, o, model, "delete", "append", new Object[] {"2", "2015-01-01", 4L, 0.0});
    writeAndCompare(SparkOracle.HUDI_SOURCE, path, hudiOptions, model, "upsert", "append",
        new Object[] {"6", "2015-01-02", 5L, 60.0});
    alsoReadByHudi1AsItIsNow(path);
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void overwriteOperationsRiverbedWritesReadTheSameInHudiAcrossTheReplaceCommits(String type) {
    Path path = dir.resolve("riverbed_overwrite_" + type.toLowerCase());
    Map<String, String> o = options(type);
    Map<String, String> model = new HashMap<>();
    writeAndCompare(RIVERBED, path, o, model, "bulk_insert", "overwrite", FIRST_TRIPS);
    writeAndCompare(RIVERBED, path, o, model, "upsert", "append", new Object[] {"3", "2015-01-02", 2L, 30.0});
    writeAndCompare(RIVERBED, path, o, model, "insert_overwrite", "append",
        new Object[] {"4", "2015-01-01", 3L, 4.0}, new Object[] {"1", "2015-01-01", 3L, 10.0});
    writeAndCompare(RIVERBED, path, o, model, "insert", "append", new Object[] {"5", "2015-01-03", 4L, 5.0});
    writeAndCompare(RIVERBED, path, o, model, "delete_partition", "append", new Object[] {"x", "2015-01-02", 5L, 0.0});
    writeAndCompare(RIVERBED, path, o, model, "insert_overwrite_table", "overwrite",
        new Object[] {"6", "2015-01-04", 6L, 6.0});

    List<String> times = SparkOracle.completedInstants(path).stream().map(TimelineInstant::time).toList();
    assertThat(SparkOracle.completedInstants(path).stream().map(TimelineInstant::action))
        .containsExactly(type.equals("COPY_ON_WRITE") ? "commit" : "deltacommit",
            type.equals("COPY_ON_WRITE") ? "commit" : "deltacommit", "replacecommit",
            type.equals("COPY_ON_WRITE") ? "commit" : "deltacommit", "replacecommit", "replacecommit");
    for (Query q : Query.everyKind(times)) {
      SparkOracle.readWith(RIVERBED, path, q).assertSameAs(SparkOracle.read(path, q), q.encode()
          + ": Riverbed vs Hudi");
    }
    alsoReadByHudi1(path);
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void riverbedInsertOverwriteIntoAHudiWrittenTable(String type) throws Exception {
    Path path = dir.resolve("hudi_overwrite_" + type.toLowerCase());
    Map<String, String> hudiOptions = new HashMap<>(options(type));
    hudiOptions.put("hoodie.metadata.enable", "false");
    Map<String, String> model = new HashMap<>();
    writeAndCompare(SparkOracle.HUDI_SOURCE, path, hudiOptions, model, "insert", "overwrite", FIRST_TRIPS);
    writeAndCompare(SparkOracle.HUDI_SOURCE, path, hudiOptions, model, "upsert", "append",
        new Object[] {"1", "2015-01-01", 2L, 10.0});
    String beforeReplace = SparkOracle.completedInstants(path).get(1).time();
    writeAndCompare(RIVERBED, path, options(type), model, "insert_overwrite", "append",
        new Object[] {"7", "2015-01-01", 3L, 7.0});
    writeAndCompare(SparkOracle.HUDI_SOURCE, path, hudiOptions, model, "upsert", "append",
        new Object[] {"7", "2015-01-01", 4L, 70.0}, new Object[] {"3", "2015-01-02", 4L, 30.0});
    for (Query q : List.of(Query.asOf(beforeReplace), Query.incremental(beforeReplace), Query.readOptimized())) {
      SparkOracle.readWith(RIVERBED, path, q).assertSameAs(SparkOracle.read(path, q), q.encode()
          + ": Riverbed vs Hudi");
    }

    // Hudi's own delete_partition of a partition the table lacks lists it with no file ids, as Riverbed does
    Map<String, String> drop = new HashMap<>(hudiOptions);
    drop.put("hoodie.datasource.write.partitions.to.delete", "2015-01-02,2099-12-31");
    write(SparkOracle.HUDI_SOURCE, trips(new Object[] {"3", "2015-01-02", 5L, 0.0}), path, drop, "delete_partition",
        "append");
    TimelineInstant last = SparkOracle.completedInstants(path).get(SparkOracle.completedInstants(path).size() - 1);
    JsonNode replaced = new ObjectMapper().readTree(path.resolve(".hoodie").resolve(last.time() + ".replacecommit")
        .toFile()).get("partitionToReplaceFileIds");
    assertThat(replaced.get("2099-12-31")).as("Hudi's entry for the partition it lacks: %s", replaced).isNotNull();
    assertThat(replaced.get("2099-12-31").size()).isZero();
    assertThat(replaced.get("2015-01-02").size()).isPositive();
    alsoReadByHudi1AsItIsNow(path);
  }

  /**
   * Deletes by {@code EmptyHoodieRecordPayload} and by {@code _hoodie_is_deleted}, a widened column
   * ({@code fare} float to double, {@code qty} int to long) and an added one ({@code note}).
   */
  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void payloadDeletesAndSchemaChangesRiverbedWritesReadTheSameInHudi(String type) {
    Path path = dir.resolve("riverbed_evolving_" + type.toLowerCase());
    Map<String, String> o = options(type);
    StructType narrow = new StructType().add("id", DataTypes.StringType, false)
        .add("creation_date", DataTypes.StringType, false).add("ts", DataTypes.LongType, false)
        .add("fare", DataTypes.FloatType, true).add("qty", DataTypes.IntegerType, true);
    StructType widened = new StructType().add("id", DataTypes.StringType, false)
        .add("creation_date", DataTypes.StringType, false).add("ts", DataTypes.LongType, false)
        .add("fare", DataTypes.DoubleType, true).add("qty", DataTypes.LongType, true);
    StructType added = widened.add("note", DataTypes.StringType, true);
    StructType softDeleting = added.add("_hoodie_is_deleted", DataTypes.BooleanType, true);

    write(RIVERBED, frame(narrow, new Object[] {"1", "2015-01-01", 1L, 1.5f, 1}, new Object[] {"2", "2015-01-01", 1L, 2.5f, 2},
        new Object[] {"3", "2015-01-02", 1L, 3.5f, 3}), path, o, "insert", "overwrite");
    Map<String, String> emptyPayload = new HashMap<>(o);
    emptyPayload.put("hoodie.datasource.write.payload.class", "org.apache.hudi.common.model.EmptyHoodieRecordPayload");
    write(RIVERBED, frame(narrow, new Object[] {"1", "2015-01-01", 2L, 0f, 0}), path, emptyPayload, "upsert", "append");
    write(RIVERBED, frame(widened, new Object[] {"2", "2015-01-01", 3L, 2.25, 5_000_000_000L},
        new Object[] {"4", "2015-01-02", 3L, 4.25, 4L}), path, o, "upsert", "append");
    write(RIVERBED, frame(added, new Object[] {"3", "2015-01-02", 4L, 3.25, 30L, "three"},
        new Object[] {"5", "2015-01-03", 4L, 5.25, 5L, "five"}), path, o, "upsert", "append");
    write(RIVERBED, frame(softDeleting, new Object[] {"2", "2015-01-01", 5L, 0.0, 0L, null, true},
        new Object[] {"6", "2015-01-01", 5L, 6.25, 6L, "six", false}), path, o, "upsert", "append");

    Rows hudi = SparkOracle.snapshot(path);
    assertThat(hudi.values("id")).as("keys read by Hudi").containsExactlyInAnyOrder("3", "4", "5", "6");
    assertThat(hudi.values("qty")).as("qty read by Hudi").containsExactlyInAnyOrder("30", "4", "5", "6");
    everyKindReadsTheSame(path);
    alsoReadByHudi1(path);
  }

  /** The bucket index (the setup for a Flink job beside Spark writes), partitioned and not. */
  @ParameterizedTest
  @CsvSource({"COPY_ON_WRITE,true", "COPY_ON_WRITE,false", "MERGE_ON_READ,true", "MERGE_ON_READ,false"})
  void bucketIndexTablesRiverbedWritesReadTheSameInHudi(String type, boolean partitioned) {
    Path path = dir.resolve("riverbed_bucket_" + type.toLowerCase() + (partitioned ? "_partitioned" : "_flat"));
    Map<String, String> o = new HashMap<>(options(type));
    o.put("hoodie.index.type", "BUCKET");
    o.put("hoodie.bucket.index.num.buckets", "2");
    if (!partitioned) {
      o.put("hoodie.datasource.write.partitionpath.field", "");
      o.put("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.NonpartitionedKeyGenerator");
    }
    insertUpsertDeleteInsert(path, o, "upsert");
    everyKindReadsTheSame(path);
    alsoReadByHudi1AsItIsNow(path);
  }

  /**
   * Hudi 1.0.2, in one forked JVM, answers every query the tests above queued as Hudi 0.15 does (as
   * Riverbed's reader does where Hudi 0.15 cannot answer; those reads are printed).
   */
  @Test
  @Order(Integer.MAX_VALUE)
  void hudi1ReadsEveryTableRiverbedsSparkWriterWroteAsHudi015Does() {
    assumeThat(HUDI_1_READS).as("reads queued by the other tests of the class").isNotEmpty();
    NextHudiOracle.Answer answer = NextHudiOracle.read(HUDI_1_READS);
    assertThat(answer.hudiOrigin()).contains("hudi-spark3.5-bundle_2.12-1.0.2");
    List<String> differences = new ArrayList<>();
    List<String> unansweredByHudi015 = new ArrayList<>();
    for (int i = 0; i < HUDI_1_READS.size(); i++) {
      NextHudiOracle.Read read = HUDI_1_READS.get(i);
      Rows reference;
      String against = "Hudi 0.15";
      try {
        reference = SparkOracle.read(read.table(), read.query());
      } catch (Exception e) { // Spark's AnalysisException is checked in Java's eyes but thrown undeclared
        unansweredByHudi015.add(read + ": " + e.getMessage().lines().findFirst().orElse(""));
        reference = SparkOracle.readWith(RIVERBED, read.table(), read.query());
        against = "Riverbed (Hudi 0.15 fails)";
      }
      try {
        answer.rows().get(i).assertSameAs(reference, read + ": Hudi 1.0.2 vs " + against);
      } catch (AssertionError e) {
        differences.add(e.getMessage());
      }
    }
    System.out.printf("HUDI 1.0.2: %d reads; Hudi 0.15 could not answer %d: %s%n", HUDI_1_READS.size(),
        unansweredByHudi015.size(), unansweredByHudi015);
    assertThat(differences).as("reads of %d where Hudi 1.0.2 differs", HUDI_1_READS.size()).isEmpty();
  }

  static Dataset<Row> frame(StructType schema, Object[]... rows) {
    return SparkOracle.spark().createDataFrame(Arrays.stream(rows).map(RowFactory::create).toList(), schema)
        .repartition(2);
  }
}
