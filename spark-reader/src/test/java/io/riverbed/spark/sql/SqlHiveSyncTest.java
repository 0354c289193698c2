package io.riverbed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.TableConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The Hive sync options a SQL write passes, as Hudi 0.15's {@code ProvidesHoodieConfig} builds them:
 * on with the Hive catalog and off without it, the catalog's names and the table's partitioning as
 * defaults under the user's settings, and off with a warning when no metastore can be reached.
 */
class SqlHiveSyncTest {
  static final String BASE = "file:/warehouse/sales.db/orders";
  static final CatalogEntry ORDERS = new CatalogEntry("sales.orders", Map.of(), false,
      Optional.of(new CatalogEntry.CatalogName("sales", "orders")));
  static final TableConfig PARTITIONED = TableConfig.builder("orders").partitionFields(List.of("region", "dt")).build();

  static Configuration metastoreAt(String uris) {
    Configuration conf = new Configuration(false);
    if (uris != null) {
      conf.set("hive.metastore.uris", uris);
    }
    return conf;
  }

  @Test
  void aWriteOnTheHiveCatalogSyncsUnderTheCatalogsNamesWithHudisSqlDefaults() {
    Map<String, String> options = SqlHiveSync.syncOptions(true, ORDERS, PARTITIONED, Map.of(),
        metastoreAt("thrift://hms:9083"));

    assertThat(options).containsExactlyInAnyOrderEntriesOf(Map.of(
        "hoodie.datasource.meta.sync.enable", "true",
        "hoodie.datasource.hive_sync.enable", "true",
        "hoodie.datasource.hive_sync.mode", "hms",
        "hoodie.datasource.hive_sync.base_file_format", "PARQUET",
        "hoodie.datasource.hive_sync.database", "sales",
        "hoodie.datasource.hive_sync.table", "orders",
        "hoodie.datasource.hive_sync.partition_fields", "region,dt",
        "hoodie.datasource.hive_sync.partition_extractor_class", "org.apache.hudi.hive.MultiPartKeysValueExtractor",
        "hoodie.datasource.hive_sync.support_timestamp", "true"));
  }

  @Test
  void withoutTheHiveCatalogOrACatalogEntryNothingIsSyncedUnlessAsked() {
    Configuration conf = metastoreAt("thrift://hms:9083");
    assertThat(SqlHiveSync.syncOptions(false, ORDERS, PARTITIONED, Map.of(), conf))
        .containsEntry("hoodie.datasource.meta.sync.enable", "false")
        .containsEntry("hoodie.datasource.hive_sync.enable", "false");
    assertThat(SqlHiveSync.syncOptions(true, CatalogEntry.ofPath(BASE), PARTITIONED, Map.of(), conf))
        .containsEntry("hoodie.datasource.hive_sync.enable", "false");
    assertThat(SqlHiveSync.syncOptions(false, ORDERS, PARTITIONED,
        Map.of("hoodie.datasource.hive_sync.enable", "true"), conf))
        .containsEntry("hoodie.datasource.hive_sync.enable", "true")
        .containsEntry("hoodie.datasource.hive_sync.table", "orders");
  }

  @Test
  void theUsersSyncSettingsWinOverTheDefaultsAndOtherSettingsAreLeftOut() {
    Map<String, String> options = SqlHiveSync.syncOptions(true, ORDERS, PARTITIONED, Map.of(
        "hoodie.datasource.hive_sync.table", "orders_v2",
        "hoodie.datasource.hive_sync.database", "reporting",
        "hoodie.datasource.hive_sync.support_timestamp", "false",
        "hoodie.datasource.hive_sync.partition_fields", "dt",
        "hoodie.datasource.meta.sync.enable", "false",
        "hoodie.datasource.hive_sync.enable", "false",
        "hoodie.datasource.write.operation", "upsert"), metastoreAt("thrift://hms:9083"));

    assertThat(options)
        .containsEntry("hoodie.datasource.hive_sync.table", "orders_v2")
        .containsEntry("hoodie.datasource.hive_sync.database", "reporting")
        .containsEntry("hoodie.datasource.hive_sync.support_timestamp", "false")
        .containsEntry("hoodie.datasource.hive_sync.partition_fields", "dt")
        .containsEntry("hoodie.datasource.meta.sync.enable", "false")
        .containsEntry("hoodie.datasource.hive_sync.enable", "false")
        .doesNotContainKey("hoodie.datasource.write.operation");
  }

  @Test
  void withNoMetastoreKnownTheDefaultedSyncIsLeftOffButAnAskedOneStays() {
    Configuration embedded = metastoreAt(null);
    assertThat(SqlHiveSync.syncOptions(true, ORDERS, PARTITIONED, Map.of(), embedded))
        .containsEntry("hoodie.datasource.meta.sync.enable", "false")
        .containsEntry("hoodie.datasource.hive_sync.enable", "false");
    assertThat(SqlHiveSync.syncOptions(true, ORDERS, PARTITIONED,
        Map.of("hoodie.datasource.hive_sync.metastore.uris", "thrift://hms:9083"), embedded))
        .containsEntry("hoodie.datasource.hive_sync.enable", "true");
    assertThat(SqlHiveSync.syncOptions(true, ORDERS, PARTITIONED,
        Map.of("hoodie.datasource.hive_sync.enable", "true"), embedded))
        .containsEntry("hoodie.datasource.hive_sync.enable", "true");
  }
}
