package io.riverbed.spark.sql;

import io.riverbed.format.table.TableConfig;
import io.riverbed.format.write.batch.BatchWriteOptions;
import io.riverbed.hive.HiveSyncOptions;
import java.util.HashMap;
import java.util.Map;

/**
 * The Hive sync settings of a SQL write on a catalog table, as Apache Hudi 0.15's
 * {@code ProvidesHoodieConfig} gives them when a write syncs: hms mode, the catalog's database and
 * table name, the table's partition fields, {@code MultiPartKeysValueExtractor} and Hive timestamps,
 * as defaults under the user's sync settings. The sync runs when the session or the table asks for
 * it ({@code hoodie.datasource.hive_sync.enable}); Hudi also turns it on for every SQL write on a
 * Hive-catalog session, which Riverbed does not yet: {@code RiverbedCatalog} registers a table in
 * Spark's own format, whose placeholder column the metastore refuses to alter into Hudi's columns.
 * It stays beside the SQL write: it names only hive-sync's option constants, which are compiled in,
 * so a SQL write that does not sync loads no class of the optional hive-sync module.
 */
final class SqlHiveSync {
  static final String MULTI_PART_KEYS_EXTRACTOR = "org.apache.hudi.hive.MultiPartKeysValueExtractor";

  private SqlHiveSync() {}

  /**
   * The sync options of a write on {@code entry}: Hudi's SQL defaults, overridden by the sync options
   * among {@code settings} (the session's and the table's {@code hoodie.*} settings).
   */
  static Map<String, String> syncOptions(CatalogEntry entry, TableConfig table, Map<String, String> settings) {
    Map<String, String> options = new HashMap<>();
    options.put(HiveSyncOptions.MODE, "hms");
    options.put(HiveSyncOptions.BASE_FILE_FORMAT, table.baseFileFormat());
    entry.catalogName().ifPresent(name -> {
      options.put(HiveSyncOptions.DATABASE, name.database());
      options.put(HiveSyncOptions.TABLE, name.table());
    });
    options.put(HiveSyncOptions.PARTITION_FIELDS, String.join(",", table.partitionFields()));
    options.put(HiveSyncOptions.PARTITION_EXTRACTOR_CLASS, MULTI_PART_KEYS_EXTRACTOR);
    options.put(HiveSyncOptions.SUPPORT_TIMESTAMP, "true");
    settings.forEach((key, value) -> {
      if (BatchWriteOptions.isMetaSyncOption(key)) {
        options.put(key, value);
      }
    });
    return options;
  }
}
