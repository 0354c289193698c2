package io.riverbed.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.apache.spark.sql.functions.lit;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hudi.DataSourceReadOptions;
import org.apache.hudi.DataSourceWriteOptions;
import org.apache.hudi.common.model.EmptyHoodieRecordPayload;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.hive.HiveSyncConfig;
import org.apache.hudi.hive.MultiPartKeysValueExtractor;
import org.apache.hudi.sync.common.HoodieSyncConfig;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.hudi.catalog.HoodieCatalog;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The EMR guide's Scala steps written in Java with the same Hudi class names: {@code format("org.apache.hudi")}
 * writes and reads through Riverbed, the option constants, the {@code EmptyHoodieRecordPayload} delete, and
 * a session whose catalog and extension are configured by Hudi's names.
 */
class HudiClassNamesSparkTest {
  private static final StructType INPUT = new StructType()
      .add("id", DataTypes.StringType)
      .add("creation_date", DataTypes.StringType)
      .add("last_update_time", DataTypes.StringType);
  private static SparkSession spark;

  @BeforeAll
  static void session() {
    spark = HudiNamedSession.get();
  }

  /** The guide's hudiOptions (EMR 6.7 and 6.6 spellings mixed, as users copy them), with sync off. */
  private static Map<String, String> hudiOptions(String tableName) {
    Map<String, String> options = new HashMap<>();
    options.put(HoodieWriteConfig.TBL_NAME.key(), tableName);
    options.put(DataSourceWriteOptions.TABLE_TYPE.key(), DataSourceWriteOptions.COW_TABLE_TYPE_OPT_VAL);
    options.put(DataSourceWriteOptions.RECORDKEY_FIELD_OPT_KEY, "id");
    options.put(DataSourceWriteOptions.PARTITIONPATH_FIELD_OPT_KEY, "creation_date");
    options.put(DataSourceWriteOptions.PRECOMBINE_FIELD_OPT_KEY, "last_update_time");
    options.put(DataSourceWriteOptions.HIVE_SYNC_ENABLED_OPT_KEY, "false");
    options.put(DataSourceWriteOptions.HIVE_TABLE_OPT_KEY, tableName);
    options.put(DataSourceWriteOptions.HIVE_PARTITION_FIELDS_OPT_KEY, "creation_date");
    options.put(DataSourceWriteOptions.HIVE_PARTITION_EXTRACTOR_CLASS_OPT_KEY, MultiPartKeysValueExtractor.class.getName());
    options.put(HoodieSyncConfig.META_SYNC_PARTITION_EXTRACTOR_CLASS.key(), MultiPartKeysValueExtractor.class.getName());
    options.put(HoodieSyncConfig.META_SYNC_ENABLED.key(), "false");
    options.put(HiveSyncConfig.HIVE_SYNC_MODE.key(), "hms");
    options.put(HoodieSyncConfig.META_SYNC_TABLE_NAME.key(), tableName);
    options.put(HoodieSyncConfig.META_SYNC_PARTITION_FIELDS.key(), "creation_date");
    return options;
  }

  private static Dataset<Row> inputDF() {
    return spark.createDataFrame(List.of(
        RowFactory.create("100", "2015-01-01", "2015-01-01T13:51:39.340396Z"),
        RowFactory.create("101", "2015-01-01", "2015-01-01T12:14:58.597216Z"),
        RowFactory.create("102", "2015-01-01", "2015-01-01T13:51:40.417052Z"),
        RowFactory.create("103", "2015-01-01", "2015-01-01T13:51:40.519832Z"),
        RowFactory.create("104", "2015-01-02", "2015-01-01T12:15:00.512679Z"),
        RowFactory.create("105", "2015-01-02", "2015-01-01T13:51:42.248818Z")), INPUT);
  }

  private static String newTablePath(String name) throws Exception {
    return Files.createTempDirectory(name).toUri().toString();
  }

  private static List<String> idsAndDates(Dataset<Row> df) {
    return df.selectExpr("concat(id, '@', creation_date)").orderBy("concat(id, @, creation_date)").collectAsList().stream()
        .map(r -> r.getString(0)).toList();
  }

  @Test
  void guidesInsertUpsertIncrementalReadAndEmptyPayloadDelete() throws Exception {
    String path = newTablePath("myhudidataset");
    inputDF().write().format("org.apache.hudi")
        .option(DataSourceWriteOptions.OPERATION_OPT_KEY, DataSourceWriteOptions.INSERT_OPERATION_OPT_VAL)
        .options(hudiOptions("tableName"))
        .mode(SaveMode.Overwrite)
        .save(path);
    Dataset<Row> snapshot = spark.read().format("org.apache.hudi").load(path + "/*/*");
    assertThat(idsAndDates(snapshot)).containsExactly("100@2015-01-01", "101@2015-01-01", "102@2015-01-01",
        "103@2015-01-01", "104@2015-01-02", "105@2015-01-02");
    String insertCommit = snapshot.select("_hoodie_commit_time").first().getString(0);

    Dataset<Row> updateDF = inputDF().filter("id = '100'").withColumn("creation_date", lit("new_value"));
    updateDF.write().format("org.apache.hudi")
        .option(DataSourceWriteOptions.OPERATION_OPT_KEY, DataSourceWriteOptions.UPSERT_OPERATION_OPT_VAL)
        .options(hudiOptions("tableName"))
        .mode(SaveMode.Append)
        .save(path);
    assertThat(idsAndDates(spark.read().format("org.apache.hudi").load(path))).hasSize(7).contains("100@new_value");

    Dataset<Row> incremental = spark.read().format("org.apache.hudi")
        .option(DataSourceReadOptions.QUERY_TYPE_OPT_KEY, DataSourceReadOptions.QUERY_TYPE_INCREMENTAL_OPT_VAL)
        .option(DataSourceReadOptions.BEGIN_INSTANTTIME_OPT_KEY, insertCommit)
        .load(path);
    assertThat(idsAndDates(incremental)).containsExactly("100@new_value");

    updateDF.write().format("org.apache.hudi")
        .option(DataSourceWriteOptions.OPERATION_OPT_KEY, DataSourceWriteOptions.UPSERT_OPERATION_OPT_VAL)
        .option(DataSourceWriteOptions.PAYLOAD_CLASS_OPT_KEY, EmptyHoodieRecordPayload.class.getName())
        .mode(SaveMode.Append)
        .save(path);
    assertThat(idsAndDates(spark.read().format("org.apache.hudi").load(path))).containsExactly("100@2015-01-01",
        "101@2015-01-01", "102@2015-01-01", "103@2015-01-01", "104@2015-01-02", "105@2015-01-02");
  }

  @Test
  void newStyleKeysAndTheDeleteOperation() throws Exception {
    String path = newTablePath("newstyle");
    Map<String, String> options = new HashMap<>(hudiOptions("newstyle"));
    options.put(DataSourceWriteOptions.TABLE_TYPE.key(), DataSourceWriteOptions.MOR_TABLE_TYPE_OPT_VAL);
    inputDF().write().format("org.apache.hudi").options(options)
        .option(DataSourceWriteOptions.OPERATION.key(), DataSourceWriteOptions.BULK_INSERT_OPERATION_OPT_VAL)
        .mode(SaveMode.Overwrite).save(path);
    inputDF().filter("id in ('101', '104')").write().format("org.apache.hudi").options(options)
        .option(DataSourceWriteOptions.OPERATION.key(), DataSourceWriteOptions.DELETE_OPERATION_OPT_VAL)
        .mode(SaveMode.Append).save(path);
    assertThat(idsAndDates(spark.read().format("org.apache.hudi")
        .option(DataSourceReadOptions.QUERY_TYPE.key(), DataSourceReadOptions.QUERY_TYPE_SNAPSHOT_OPT_VAL).load(path)))
        .containsExactly("100@2015-01-01", "102@2015-01-01", "103@2015-01-01", "105@2015-01-02");
  }

  @Test
  void guidesHiveSyncOnWriteRunsAfterTheCommit() throws Exception {
    String path = newTablePath("withsync");
    Map<String, String> options = new HashMap<>(hudiOptions("withsync"));
    options.put(DataSourceWriteOptions.HIVE_SYNC_ENABLED_OPT_KEY, "true");
    options.put(HoodieSyncConfig.META_SYNC_ENABLED.key(), "true");
    options.put(HiveSyncConfig.METASTORE_URIS.key(), "thrift://127.0.0.1:1");
    assertThatThrownBy(() -> inputDF().write().format("org.apache.hudi").options(options).mode(SaveMode.Overwrite).save(path))
        .hasMessageContaining("is complete, but its Hive sync to thrift://127.0.0.1:1 failed");
    assertThat(spark.read().format("org.apache.hudi").load(path).count()).isEqualTo(inputDF().count());
  }

  @Test
  void hudisCatalogNameRegistersAndQueriesATable() throws Exception {
    assertThat(spark.sessionState().catalogManager().v2SessionCatalog()).isInstanceOf(HoodieCatalog.class);
    String path = newTablePath("catalogued");
    inputDF().write().format("org.apache.hudi").options(hudiOptions("catalogued")).mode(SaveMode.Overwrite).save(path);

    spark.sql("CREATE TABLE catalogued_by_package USING org.apache.hudi LOCATION '" + path + "'");
    assertThat(spark.sql("SELECT count(*) FROM catalogued_by_package WHERE creation_date = '2015-01-02'").first().getLong(0))
        .isEqualTo(2);
    assertThat(spark.sessionState().catalog().getTableMetadata(TableIdentifier.apply("catalogued_by_package"))
        .provider().get()).isEqualTo("hudi");
  }

  @Test
  void hudisSessionExtensionNameRunsRiverbedsRowLevelStatements() throws Exception {
    assertThat(spark.conf().get("spark.sql.extensions")).isEqualTo(HudiNamedSession.EXTENSION);
    String path = newTablePath("changed_by_sql");
    inputDF().write().format("org.apache.hudi").options(hudiOptions("changed_by_sql")).mode(SaveMode.Overwrite).save(path);
    spark.sql("CREATE TABLE changed_by_sql USING org.apache.hudi LOCATION '" + path + "'");

    spark.sql("UPDATE changed_by_sql SET last_update_time = '2015-01-02T00:00:00Z' WHERE id = '101'");
    spark.sql("DELETE FROM changed_by_sql WHERE creation_date = '2015-01-02'");

    assertThat(spark.sql("SELECT concat(id, '@', last_update_time) FROM changed_by_sql ORDER BY id").collectAsList())
        .extracting(r -> r.getString(0)).containsExactly("100@2015-01-01T13:51:39.340396Z", "101@2015-01-02T00:00:00Z",
            "102@2015-01-01T13:51:40.417052Z", "103@2015-01-01T13:51:40.519832Z");
  }
}
