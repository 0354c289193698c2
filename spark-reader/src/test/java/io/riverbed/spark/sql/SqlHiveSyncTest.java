package io.riverbed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.TableConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The Hive sync options a SQL write passes, as Hudi 0.15's {@code ProvidesHoodieConfig} builds them:
 * the catalog's names and the table's partitioning as defaults under the user's sync settings, and
 * no other setting among them.
 */
class SqlHiveSyncTest {
  static final CatalogEntry ORDERS = new CatalogEntry("sales.orders", Map.of(), false,
      Optional.of(new CatalogEntry.CatalogName("sales", "orders")));
  static final TableConfig PARTITIONED = TableConfig.builder("orders").partitionFields(List.of("region", "dt")).build();

  @Test
  void aWriteOnACatalogTableSyncsUnderTheCatalogsNamesWithHudisSqlDefaults() {
    assertThat(SqlHiveSync.syncOptions(ORDERS, PARTITIONED, Map.of())).containsExactlyInAnyOrderEntriesOf(Map.of(
        "hoodie.datasource.hive_sync.mode", "hms",
        "hoodie.datasource.hive_sync.base_file_format", "PARQUET",
        "hoodie.datasource.hive_sync.database", "sales",
        "hoodie.datasource.hive_sync.table", "orders",
        "hoodie.datasource.hive_sync.partition_fields", "region,dt",
        "hoodie.datasource.hive_sync.partition_extractor_class", "org.apache.hudi.hive.MultiPartKeysValueExtractor",
        "hoodie.datasource.hive_sync.support_timestamp", "true"));
  }

  @Test
  void aTableLoadedByPathHasNoCatalogNamesToGive() {
    assertThat(SqlHiveSync.syncOptions(CatalogEntry.ofPath("file:/t"), PARTITIONED, Map.of()))
        .doesNotContainKeys("hoodie.datasource.hive_sync.database", "hoodie.datasource.hive_sync.table");
  }

  @Test
  void theUsersSyncSettingsWinOverTheDefaultsAndOtherSettingsAreLeftOut() {
    Map<String, String> options = SqlHiveSync.syncOptions(ORDERS, PARTITIONED, Map.of(
        "hoodie.datasource.hive_sync.enable", "true",
        "hoodie.datasource.meta.sync.enable", "true",
        "hoodie.datasource.hive_sync.table", "orders_v2",
        "hoodie.datasource.hive_sync.database", "reporting",
        "hoodie.datasource.hive_sync.support_timestamp", "false",
        "hoodie.datasource.hive_sync.partition_fields", "dt",
        "hoodie.datasource.write.operation", "upsert"));

    assertThat(options)
        .containsEntry("hoodie.datasource.hive_sync.enable", "true")
        .containsEntry("hoodie.datasource.meta.sync.enable", "true")
        .containsEntry("hoodie.datasource.hive_sync.table", "orders_v2")
        .containsEntry("hoodie.datasource.hive_sync.database", "reporting")
        .containsEntry("hoodie.datasource.hive_sync.support_timestamp", "false")
        .containsEntry("hoodie.datasource.hive_sync.partition_fields", "dt")
        .doesNotContainKey("hoodie.datasource.write.operation");
  }
}
