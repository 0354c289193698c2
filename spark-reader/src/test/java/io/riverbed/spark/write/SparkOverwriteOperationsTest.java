package io.riverbed.spark.write;

import static io.riverbed.spark.write.SparkWriteTest.newPath;
import static io.riverbed.spark.write.SparkWriteTest.options;
import static io.riverbed.spark.write.SparkWriteTest.read;
import static io.riverbed.spark.write.SparkWriteTest.table;
import static io.riverbed.spark.write.SparkWriteTest.trips;
import static io.riverbed.spark.write.SparkWriteTest.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riverbed.format.InvalidTableException;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.AvroTimelineFile;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineSchemas;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * insert_overwrite, insert_overwrite_table and delete_partition: the replacecommit each writes,
 * field by field as Hudi 0.15 writes it, and what Riverbed's reader reads across it.
 */
class SparkOverwriteOperationsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void session() {
    SparkWriteTest.session();
  }

  /** Two partitions in base files: keys 1, 2 on 2015-01-01 and 3 on 2015-01-02. */
  private static String twoPartitionTable(TableType type) throws Exception {
    String path = newPath();
    write(trips(new Object[] {"1", "2015-01-01", "t1", 1.0}, new Object[] {"2", "2015-01-01", "t1", 2.0},
        new Object[] {"3", "2015-01-02", "t1", 3.0}), path, options(type), "bulk_insert", "append");
    return path;
  }

  private static java.nio.file.Path local(String path) {
    return Paths.get(URI.create(path));
  }

  /** File ids of the data files in one partition folder. */
  private static Set<String> fileIds(String path, String partition) throws Exception {
    java.nio.file.Path folder = partition.isEmpty() ? local(path) : local(path).resolve(partition);
    try (Stream<java.nio.file.Path> files = Files.list(folder)) {
      return files.map(f -> f.getFileName().toString())
          .filter(n -> FileNames.isBaseFile(n) || FileNames.isLogFile(n))
          .map(n -> FileNames.isBaseFile(n) ? FileNames.parseBaseFileName(n).orElseThrow().fileId()
              : FileNames.parseLogFileName(n).orElseThrow().fileId())
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static Instant lastCompleted(String path) throws Exception {
    return table(path).refreshTimeline().completed().last().orElseThrow();
  }

  private static JsonNode completedJson(String path, Instant instant) throws Exception {
    return JSON.readTree(local(path).resolve(".hoodie").resolve(instant.time() + ".replacecommit").toFile());
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> out = new ArrayList<>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }

  private static Map<String, Set<String>> replaced(JsonNode json) {
    Map<String, Set<String>> out = new HashMap<>();
    json.get("partitionToReplaceFileIds").fields().forEachRemaining(e -> {
      Set<String> ids = new TreeSet<>();
      e.getValue().forEach(id -> ids.add(id.asText()));
      out.put(e.getKey(), ids);
    });
    return out;
  }

  /**
   * The last completed instant's HoodieReplaceCommitMetadata JSON, checked for what every replacecommit
   * of {@code operationType} has: Hudi's field order, not compacted, the table schema without meta
   * fields; its requested file Hudi's all-null HoodieRequestedReplaceMetadata, its inflight file there.
   */
  private static JsonNode lastReplaceCommit(String path, String operationType) throws Exception {
    Instant instant = lastCompleted(path);
    java.nio.file.Path meta = local(path).resolve(".hoodie");
    assertThat(instant.action()).isEqualTo(Action.REPLACE_COMMIT);
    assertThat(meta.resolve(instant.time() + ".replacecommit.inflight")).exists();
    byte[] requested = Files.readAllBytes(meta.resolve(instant.time() + ".replacecommit.requested"));
    GenericRecord plan = AvroTimelineFile.deserializeRequired(requested, TimelineSchemas.REQUESTED_REPLACE_METADATA,
        "requested");
    for (Schema.Field f : TimelineSchemas.REQUESTED_REPLACE_METADATA.getFields()) {
      assertThat(plan.get(f.name())).as(f.name()).isNull();
    }
    JsonNode json = completedJson(path, instant);
    assertThat(fieldNames(json)).containsExactly("partitionToWriteStats", "compacted", "extraMetadata",
        "operationType", "partitionToReplaceFileIds");
    assertThat(json.get("operationType").asText()).isEqualTo(operationType);
    assertThat(json.get("compacted").asBoolean()).isFalse();
    assertThat(json.get("extraMetadata").get("schema").asText()).contains("\"fare\"").doesNotContain("_hoodie");
    return json;
  }

  private static Map<String, String> readAsOf(String path, Map<String, String> readOptions) {
    return spark().read().format("hudi").options(readOptions).load(path).collectAsList().stream().collect(
        Collectors.toMap(r -> r.<String>getAs("id"), r -> r.getAs("creation_date") + "|" + r.getAs("fare")));
  }

  private static org.apache.spark.sql.SparkSession spark() {
    return SparkWriteTest.spark;
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void insertOverwriteReplacesTheFileGroupsOfThePartitionsItWrites(TableType type) throws Exception {
    String path = twoPartitionTable(type);
    if (type == TableType.MERGE_ON_READ) {
      // a log file in the replaced partition: its file group goes with the base file
      write(trips(new Object[] {"2", "2015-01-01", "t2", 20.0}), path, options(type), "upsert", "append");
    }
    Instant before = lastCompleted(path);
    Set<String> oldGroups = fileIds(path, "2015-01-01");
    Set<String> untouched = fileIds(path, "2015-01-02");

    write(trips(new Object[] {"4", "2015-01-01", "t3", 4.0}, new Object[] {"4", "2015-01-01", "t4", 4.5},
        new Object[] {"1", "2015-01-01", "t3", 10.0}), path, options(type), "insert_overwrite", "append");

    assertThat(read(path)).containsOnly(Map.entry("1", "2015-01-01|t3|10.0"), Map.entry("4", "2015-01-01|t4|4.5"),
        Map.entry("3", "2015-01-02|t1|3.0"));
    JsonNode json = lastReplaceCommit(path, "INSERT_OVERWRITE");
    assertThat(replaced(json)).isEqualTo(Map.of("2015-01-01", oldGroups));
    assertThat(fieldNames(json.get("partitionToWriteStats"))).containsExactly("2015-01-01");
    long inserts = 0;
    for (JsonNode stat : json.get("partitionToWriteStats").get("2015-01-01")) {
      assertThat(oldGroups).doesNotContain(stat.get("fileId").asText());
      assertThat(stat.get("path").asText()).startsWith("2015-01-01/").endsWith(".parquet");
      assertThat(stat.get("prevCommit").asText()).isEqualTo("null");
      assertThat(stat.get("partitionPath").asText()).isEqualTo("2015-01-01");
      inserts += stat.get("numInserts").asLong();
    }
    assertThat(inserts).isEqualTo(2);
    assertThat(fileIds(path, "2015-01-02")).isEqualTo(untouched);

    assertThat(readAsOf(path, Map.of("as.of.instant", before.time()))).containsOnlyKeys("1", "2", "3");
    assertThat(readAsOf(path, Map.of("hoodie.datasource.query.type", "incremental",
        "hoodie.datasource.read.begin.instanttime", before.time()))).containsOnly(
        Map.entry("1", "2015-01-01|10.0"), Map.entry("4", "2015-01-01|4.5"));
    assertThat(readAsOf(path, Map.of("hoodie.datasource.query.type", "read_optimized")))
        .containsOnlyKeys("1", "3", "4");
  }

  @Test
  void laterInsertsWriteNewFileGroupsNotTheReplacedSmallOnes() throws Exception {
    String path = twoPartitionTable(TableType.COPY_ON_WRITE);
    Set<String> replacedGroups = fileIds(path, "2015-01-01");
    Map<String, String> o = new HashMap<>(options(TableType.COPY_ON_WRITE));
    o.put("hoodie.datasource.write.partitions.to.delete", "2015-01-01");
    write(trips(), path, o, "delete_partition", "append");

    // one task owns every small group of the partition: only the replaced ones are there to top up
    o.put("hoodie.insert.shuffle.parallelism", "1");
    write(trips(new Object[] {"5", "2015-01-01", "t4", 5.0}), path, o, "insert", "append");

    assertThat(read(path)).containsOnlyKeys("3", "5");
    Instant insert = lastCompleted(path);
    JsonNode json = JSON.readTree(local(path).resolve(".hoodie").resolve(insert.time() + ".commit").toFile());
    for (JsonNode stat : json.get("partitionToWriteStats").get("2015-01-01")) {
      assertThat(replacedGroups).doesNotContain(stat.get("fileId").asText());
      assertThat(stat.get("prevCommit").asText()).isEqualTo("null");
    }
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void insertOverwriteTableReplacesEveryPartitionAndKeepsTheTableUnderOverwrite(TableType type) throws Exception {
    String path = twoPartitionTable(type);
    Instant first = lastCompleted(path);
    Map<String, Set<String>> old = Map.of("2015-01-01", fileIds(path, "2015-01-01"),
        "2015-01-02", fileIds(path, "2015-01-02"));

    write(trips(new Object[] {"7", "2015-01-03", "t2", 7.0}), path, options(type), "insert_overwrite_table",
        "overwrite");

    assertThat(read(path)).containsOnly(Map.entry("7", "2015-01-03|t2|7.0"));
    assertThat(table(path).refreshTimeline().completed().times()).startsWith(first.time()).hasSize(2);
    JsonNode json = lastReplaceCommit(path, "INSERT_OVERWRITE_TABLE");
    assertThat(replaced(json)).as("the partitions the table had before the write").isEqualTo(old);
    assertThat(readAsOf(path, Map.of("as.of.instant", first.time()))).containsOnlyKeys("1", "2", "3");

    write(trips(new Object[] {"8", "2015-01-01", "t3", 8.0}), path, options(type), "insert_overwrite_table",
        "append");
    assertThat(read(path)).containsOnly(Map.entry("8", "2015-01-01|t3|8.0"));
  }

  @Test
  void insertOverwriteOnANonPartitionedTableReplacesItsOnePartition() throws Exception {
    String path = newPath();
    Map<String, String> o = new HashMap<>(options(TableType.MERGE_ON_READ));
    o.put("hoodie.datasource.write.partitionpath.field", "");
    o.put("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.NonpartitionedKeyGenerator");
    write(trips(new Object[] {"1", "a", "t1", 1.0}, new Object[] {"2", "b", "t1", 2.0}), path, o, "bulk_insert",
        "append");
    Set<String> old = fileIds(path, "");

    write(trips(new Object[] {"3", "c", "t2", 3.0}), path, o, "insert_overwrite", "append");

    assertThat(read(path)).containsOnlyKeys("3");
    JsonNode json = completedJson(path, lastCompleted(path));
    assertThat(replaced(json)).isEqualTo(Map.of("", old));
    assertThat(fieldNames(json.get("partitionToWriteStats"))).containsExactly("");
  }

  @Test
  void insertOverwriteOfNoRowsReplacesNothingAndOfTheTableReplacesEverything() throws Exception {
    String path = twoPartitionTable(TableType.COPY_ON_WRITE);
    var none = trips();

    write(none, path, options(TableType.COPY_ON_WRITE), "insert_overwrite", "append");
    JsonNode json = completedJson(path, lastCompleted(path));
    assertThat(json.get("partitionToReplaceFileIds").size()).isZero();
    assertThat(json.get("partitionToWriteStats").size()).isZero();
    assertThat(read(path)).containsOnlyKeys("1", "2", "3");

    write(none, path, options(TableType.COPY_ON_WRITE), "insert_overwrite_table", "append");
    assertThat(read(path)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void deletePartitionReplacesTheNamedPartitionsWithNoNewFiles(TableType type) throws Exception {
    String path = twoPartitionTable(type);
    write(trips(new Object[] {"4", "2015-02-01", "t1", 4.0}), path, options(type), "bulk_insert", "append");
    Instant before = lastCompleted(path);
    Set<String> january1 = fileIds(path, "2015-01-01");
    Set<String> january2 = fileIds(path, "2015-01-02");

    Map<String, String> o = new HashMap<>(options(type));
    o.put("hoodie.datasource.write.partitions.to.delete", "2015-01-*, 2016-12-31");
    write(trips(), path, o, "delete_partition", "append");

    assertThat(read(path)).containsOnlyKeys("4");
    JsonNode json = lastReplaceCommit(path, "DELETE_PARTITION");
    assertThat(json.get("partitionToWriteStats").size()).isZero();
    assertThat(replaced(json)).isEqualTo(Map.of("2015-01-01", january1, "2015-01-02", january2,
        "2016-12-31", Set.of()));
    assertThat(readAsOf(path, Map.of("as.of.instant", before.time()))).containsOnlyKeys("1", "2", "3", "4");
    assertThat(readAsOf(path, Map.of("hoodie.datasource.query.type", "incremental",
        "hoodie.datasource.read.begin.instanttime", before.time()))).isEmpty();
  }

  @Test
  void deletePartitionWithoutTheOptionDeletesThePartitionsOfTheRows() throws Exception {
    String path = twoPartitionTable(TableType.COPY_ON_WRITE);
    write(trips(new Object[] {"9", "2015-01-02", "x", 0.0}), path, options(TableType.COPY_ON_WRITE),
        "delete_partition", "append");
    assertThat(read(path)).containsOnlyKeys("1", "2");
    assertThat(replaced(completedJson(path, lastCompleted(path)))).containsOnlyKeys("2015-01-02");
  }

  @Test
  void deletePartitionNeedsATableAndRefusesOverwrite() throws Exception {
    String missing = newPath();
    assertThatThrownBy(() -> write(trips(new Object[] {"1", "d", "t", 1.0}), missing,
        options(TableType.COPY_ON_WRITE), "delete_partition", "append"))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("no Hudi table at");
    String path = twoPartitionTable(TableType.COPY_ON_WRITE);
    assertThatThrownBy(() -> write(trips(new Object[] {"1", "2015-01-01", "t", 1.0}), path,
        options(TableType.COPY_ON_WRITE), "delete_partition", "overwrite"))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("mode Append");
    assertThat(read(path)).containsOnlyKeys("1", "2", "3");
  }

  @Test
  void insertOverwriteUnderOverwriteRecreatesTheTable() throws Exception {
    String path = twoPartitionTable(TableType.COPY_ON_WRITE);
    write(trips(new Object[] {"5", "2015-01-02", "t2", 5.0}), path, options(TableType.COPY_ON_WRITE),
        "insert_overwrite", "overwrite");
    assertThat(read(path)).containsOnlyKeys("5");
    assertThat(table(path).refreshTimeline().completed().size()).isEqualTo(1);
  }
}
