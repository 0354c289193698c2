package io.riverbed.spark.sql;

import io.riverbed.format.table.TableConfig;
import io.riverbed.format.write.batch.BatchWriteOptions;
import io.riverbed.hive.HiveSyncOptions;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Hive sync settings of a SQL write on a catalog table, as Apache Hudi 0.15's
 * {@code ProvidesHoodieConfig} gives them: when the session's catalog is the Hive metastore, every SQL
 * write syncs the table (hms mode) under the catalog's database and table name, with the table's
 * partition fields, {@code MultiPartKeysValueExtractor} and Hive timestamps; these are defaults, so a
 * {@code SET} or table property of the same key wins (on another catalog,
 * {@code hoodie.datasource.hive_sync.enable=true} turns the sync on).
 *
 * <p>Unlike Hudi's sync, which can open Spark's embedded (Derby) metastore in-process, Riverbed's
 * speaks thrift: with no metastore URI known, the defaulted sync is left off and a warning names the
 * table, rather than failing every write after its commit. It stays beside the SQL write: it names
 * only hive-sync's option constants, which are compiled in, so a SQL write that does not sync loads
 * no class of the optional hive-sync module.
 */
final class SqlHiveSync {
  static final String HIVE_METASTORE_URIS = HiveCatalogSession.HIVE_METASTORE_URIS;
  static final String MULTI_PART_KEYS_EXTRACTOR = "org.apache.hudi.hive.MultiPartKeysValueExtractor";

  private static final Logger LOG = LoggerFactory.getLogger(SqlHiveSync.class);

  private SqlHiveSync() {}

  /** The sync options of a write on {@code entry} in {@code spark}'s session, given its {@code hoodie.*} settings. */
  static Map<String, String> syncOptions(SparkSession spark, CatalogEntry entry, TableConfig table,
      Map<String, String> settings) {
    return syncOptions(HiveCatalogSession.isHiveCatalog(spark), entry, table, settings,
        spark.sessionState().newHadoopConf());
  }

  /**
   * The sync options of a write on {@code entry}: Hudi's SQL defaults, overridden by the sync options
   * among {@code settings} (the session's and the table's {@code hoodie.*} settings).
   *
   * @param hiveCatalog whether the session's catalog is the Hive metastore
   * @param conf the session's Hadoop configuration, where {@value #HIVE_METASTORE_URIS} names the metastore
   */
  static Map<String, String> syncOptions(boolean hiveCatalog, CatalogEntry entry, TableConfig table,
      Map<String, String> settings, Configuration conf) {
    Map<String, String> options = new HashMap<>();
    boolean enabled = hiveCatalog && entry.catalogName().isPresent();
    options.put(BatchWriteOptions.META_SYNC_ENABLED, Boolean.toString(enabled));
    options.put(BatchWriteOptions.HIVE_SYNC_ENABLED, Boolean.toString(enabled));
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
    boolean askedByUser = settings.containsKey(BatchWriteOptions.META_SYNC_ENABLED)
        || settings.containsKey(BatchWriteOptions.HIVE_SYNC_ENABLED);
    boolean metastoreKnown = !options.getOrDefault(HiveSyncOptions.METASTORE_URIS, "").isBlank()
        || !conf.getTrimmed(HIVE_METASTORE_URIS, "").isEmpty();
    if (enabled && !askedByUser && !metastoreKnown) {
      LOG.warn("Table {} is not synced to the Hive metastore: the session's catalog is the Hive metastore, where Hudi's "
          + "SQL writes sync unasked, but no metastore URI is known ({} or {}), and Riverbed's Hive sync reaches the "
          + "metastore over thrift only, not Spark's embedded one; the write itself is committed", entry.name(),
          HIVE_METASTORE_URIS, HiveSyncOptions.METASTORE_URIS);
      options.put(BatchWriteOptions.META_SYNC_ENABLED, "false");
      options.put(BatchWriteOptions.HIVE_SYNC_ENABLED, "false");
    }
    return options;
  }
}
