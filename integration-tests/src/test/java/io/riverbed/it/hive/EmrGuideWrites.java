package io.riverbed.it.hive;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The two Spark writes with Hive sync that the EMR Hudi guide's "Write using PySpark" example makes
 * (record key {@code id}, partition {@code creation_date}, precombine {@code last_update_time},
 * {@code MultiPartKeysValueExtractor}, meta sync on, {@code hms} mode), run alike by Hudi's writer and
 * by Riverbed's: an insert that overwrites, then an upsert that updates a row, adds a partition and
 * adds a nullable column {@code note}.
 */
final class EmrGuideWrites {
  static final String ALL_IDS = "100,101,102,103,104,105,106";

  private static final StructType FIRST = new StructType()
      .add("id", DataTypes.StringType).add("creation_date", DataTypes.StringType)
      .add("last_update_time", DataTypes.StringType);
  private static final StructType SECOND = FIRST.add("note", DataTypes.StringType, true);

  private EmrGuideWrites() {}

  /** The guide's options for {@code table} of {@code tableType}, syncing into {@code database} of {@code metastoreUri}. */
  static Map<String, String> options(String table, String tableType, String database, String metastoreUri) {
    var o = new LinkedHashMap<String, String>();
    o.put("hoodie.table.name", table);
    o.put("hoodie.datasource.write.table.type", tableType);
    o.put("hoodie.datasource.write.recordkey.field", "id");
    o.put("hoodie.datasource.write.partitionpath.field", "creation_date");
    o.put("hoodie.datasource.write.precombine.field", "last_update_time");
    o.put("hoodie.datasource.hive_sync.enable", "true");
    o.put("hoodie.datasource.hive_sync.table", table);
    o.put("hoodie.datasource.hive_sync.partition_fields", "creation_date");
    o.put("hoodie.datasource.hive_sync.partition_extractor_class", "org.apache.hudi.hive.MultiPartKeysValueExtractor");
    o.put("hoodie.datasource.meta.sync.enable", "true");
    o.put("hoodie.datasource.hive_sync.mode", "hms");
    o.put("hoodie.datasource.hive_sync.metastore.uris", metastoreUri);
    o.put("hoodie.datasource.hive_sync.database", database);
    o.put("hoodie.insert.shuffle.parallelism", "2");
    o.put("hoodie.upsert.shuffle.parallelism", "2");
    return o;
  }

  /** The guide's six rows, inserted over whatever is at {@code basePath}. */
  static void first(SparkSession spark, String format, String basePath, Map<String, String> options) {
    Dataset<Row> rows = spark.createDataFrame(List.of(
        RowFactory.create("100", "2015-01-01", "2015-01-01T13:51:39.340396Z"),
        RowFactory.create("101", "2015-01-01", "2015-01-01T12:14:58.597216Z"),
        RowFactory.create("102", "2015-01-01", "2015-01-01T13:51:40.417052Z"),
        RowFactory.create("103", "2015-01-01", "2015-01-01T13:51:40.519832Z"),
        RowFactory.create("104", "2015-01-02", "2015-01-01T12:15:00.512679Z"),
        RowFactory.create("105", "2015-01-02", "2015-01-01T13:51:42.248818Z")), FIRST).repartition(2);
    rows.write().format(format).options(options).option("hoodie.datasource.write.operation", "insert")
        .mode(SaveMode.Overwrite).save(basePath);
  }

  /** An upsert of row 100 and of a new row 106 in a new partition, both with the new column {@code note}. */
  static void second(SparkSession spark, String format, String basePath, Map<String, String> options) {
    Dataset<Row> rows = spark.createDataFrame(List.of(
        RowFactory.create("100", "2015-01-01", "2015-01-02T09:00:00.000000Z", "updated"),
        RowFactory.create("106", "2015-01-03", "2015-01-03T10:00:00.000000Z", null)), SECOND).repartition(2);
    rows.write().format(format).options(options).option("hoodie.datasource.write.operation", "upsert")
        .mode(SaveMode.Append).save(basePath);
  }
}
