package io.riverbed.spark.write;

import static io.riverbed.spark.write.SparkWriteTest.newPath;
import static io.riverbed.spark.write.SparkWriteTest.options;
import static io.riverbed.spark.write.SparkWriteTest.table;
import static io.riverbed.spark.write.SparkWriteTest.trips;
import static io.riverbed.spark.write.SparkWriteTest.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Where a Spark upsert puts a MERGE_ON_READ table's rows, as Hudi 0.15's Spark writer does: new
 * keys in base files (so the read-optimized view shows them at once), updates of existing keys in
 * logs, except in the one smallest base-only file group of a partition, which takes all of the
 * partition's new keys and is rewritten with its updates.
 */
class MergeOnReadInsertPlacementTest {
  static final String[] DATES = {"2015-01-01", "2015-01-02"};
  static SparkSession spark;

  @BeforeAll
  static void session() {
    SparkWriteTest.session();
    spark = SparkWriteTest.spark;
  }

  @Test
  void newKeysGoToBaseFilesAndUpdatesOfOtherFileGroupsToLogs() throws Exception {
    String path = newPath();
    Map<String, String> o = options(TableType.MERGE_ON_READ);
    Map<String, String> model = new TreeMap<>();
    List<Object[]> inserts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      inserts.add(row("k" + i, DATES[i % 2], "t1", i));
      model.put("k" + i, DATES[i % 2] + "|t1|" + (double) i);
    }
    // a bulk_insert writes a file group per partition per task: several small groups per partition
    Map<String, String> bulk = new java.util.HashMap<>(o);
    bulk.put("hoodie.bulkinsert.shuffle.parallelism", "3");
    write(trips(inserts.toArray(Object[][]::new)).repartition(3), path, bulk, "bulk_insert", "append");
    assertThat(latestSlices(path)).as("several groups per partition").hasSizeGreaterThan(DATES.length);
    assertThat(latestSlices(path)).allSatisfy(s -> assertThat(s.hasLogs()).isFalse());
    assertThat(readOptimized(path)).isEqualTo(model).isEqualTo(baseFileRows(path));

    List<Object[]> upserts = new ArrayList<>();
    Set<String> updated = new TreeSet<>();
    for (int i = 0; i < 20; i++) {
      upserts.add(row("k" + i, DATES[i % 2], "t2", 100 + i));
      upserts.add(row("n" + i, DATES[i % 2], "t2", 200 + i));
      model.put("k" + i, DATES[i % 2] + "|t2|" + (double) (100 + i));
      model.put("n" + i, DATES[i % 2] + "|t2|" + (double) (200 + i));
      updated.add("k" + i);
    }
    write(trips(upserts.toArray(Object[][]::new)), path, o, "upsert", "append");

    Map<String, String> readOptimized = readOptimized(path);
    assertThat(readOptimized).isEqualTo(baseFileRows(path)).containsOnlyKeys(model.keySet());
    assertThat(latestSlices(path)).allSatisfy(s -> assertThat(s.baseFile()).isPresent());
    Set<String> waitingInLogs = model.keySet().stream().filter(k -> !model.get(k).equals(readOptimized.get(k)))
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(waitingInLogs).isNotEmpty().isSubsetOf(updated);
    assertThat(latestSlices(path)).anyMatch(FileSlice::hasLogs);
    assertThat(groupsWithUpdatesInBase(path, updated)).allSatisfy((date, groups) -> assertThat(groups).hasSize(1));
    assertThat(SparkWriteTest.read(path)).isEqualTo(model);
  }

  private static Object[] row(String id, String date, String time, double fare) {
    return new Object[] {id, date, time, fare};
  }

  /** id → "date|time|fare" of a read-optimized query. */
  private static Map<String, String> readOptimized(String path) {
    return rows(spark.read().format("hudi").option("hoodie.datasource.query.type", "read_optimized").load(path));
  }

  /** id → "date|time|fare" of the base files of the latest committed slices, read as plain Parquet. */
  private static Map<String, String> baseFileRows(String path) throws Exception {
    String[] files = latestSlices(path).stream().flatMap(s -> s.baseFile().stream())
        .map(b -> b.path().toString()).toArray(String[]::new);
    return rows(spark.read().parquet(files));
  }

  /** Per partition, the file groups whose base file holds a key's updated row. */
  private static Map<String, Set<String>> groupsWithUpdatesInBase(String path, Set<String> updated) {
    Map<String, Set<String>> out = new TreeMap<>();
    for (Row r : spark.read().format("hudi").option("hoodie.datasource.query.type", "read_optimized").load(path)
        .collectAsList()) {
      if (updated.contains(r.<String>getAs("id")) && r.<String>getAs("last_update_time").equals("t2")) {
        String fileName = r.getAs("_hoodie_file_name");
        out.computeIfAbsent(r.getAs("creation_date"), d -> new TreeSet<>()).add(fileName.substring(0, fileName.indexOf('_')));
      }
    }
    return out;
  }

  private static Map<String, String> rows(Dataset<Row> df) {
    return df.collectAsList().stream().collect(Collectors.toMap(r -> r.getAs("id"),
        r -> r.getAs("creation_date") + "|" + r.getAs("last_update_time") + "|" + r.getAs("fare"), (a, b) -> {
          throw new AssertionError("two rows of one key: " + a + ", " + b);
        }, TreeMap::new));
  }

  private static List<FileSlice> latestSlices(String path) throws Exception {
    Table table = table(path);
    FileSystemView view = FileSystemViewLoader.load(table, table.refreshTimeline());
    return view.latestSlicesBeforeOrOn(view.defaultQueryInstant().orElseThrow());
  }
}
