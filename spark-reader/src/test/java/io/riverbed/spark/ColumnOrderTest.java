package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a read puts the partition columns, as Hudi 0.15's reader does on the EMR guide's table (its
 * partition column {@code creation_date} written between two data columns): last in snapshot and time
 * travel queries of the base path; in the table's order for a globbed path and for an incremental
 * query of a copy-on-write table.
 */
class ColumnOrderTest {
  static final List<String> META = List.of("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
      "_hoodie_partition_path", "_hoodie_file_name");
  static final SparkSession spark = SparkTestSession.get();

  @TempDir
  static Path dir;
  static String table;

  @BeforeAll
  static void writeTheGuidesTable() {
    table = dir.resolve("guide").toString();
    StructType schema = new StructType().add("id", DataTypes.StringType).add("creation_date", DataTypes.StringType)
        .add("last_update_time", DataTypes.StringType);
    Dataset<Row> rows = spark.createDataFrame(List.of(RowFactory.create("100", "2015-01-01", "2015-01-01T13:51:39Z"),
        RowFactory.create("104", "2015-01-02", "2015-01-01T12:15:00Z")), schema);
    rows.write().format("hudi").option("hoodie.table.name", "guide")
        .option("hoodie.datasource.write.recordkey.field", "id")
        .option("hoodie.datasource.write.partitionpath.field", "creation_date")
        .option("hoodie.datasource.write.precombine.field", "last_update_time")
        .option("hoodie.datasource.write.operation", "insert").mode("overwrite").save(table);
  }

  static List<String> columns(Dataset<Row> df) {
    return List.of(df.columns()).subList(META.size(), df.columns().length);
  }

  @Test
  void snapshotPutsThePartitionColumnLast() {
    assertThat(List.of(spark.read().format("hudi").load(table).columns()).subList(0, META.size())).isEqualTo(META);
    assertThat(columns(spark.read().format("hudi").load(table))).containsExactly("id", "last_update_time", "creation_date");
  }

  @Test
  void globbedPathKeepsTheTablesOrder() {
    assertThat(columns(spark.read().format("hudi").load(table + "/*/*"))).containsExactly("id", "creation_date", "last_update_time");
  }

  @Test
  void copyOnWriteIncrementalKeepsTheTablesOrder() {
    Dataset<Row> incremental = spark.read().format("hudi").option("hoodie.datasource.query.type", "incremental")
        .option("hoodie.datasource.read.begin.instanttime", "000").load(table);
    assertThat(columns(incremental)).containsExactly("id", "creation_date", "last_update_time");
    assertThat(incremental.select("id", "creation_date").orderBy("id").collectAsList().toString())
        .isEqualTo("[[100,2015-01-01], [104,2015-01-02]]");
  }
}
