package io.riverbed.spark.sql;

import io.riverbed.format.table.TableConfig;
import io.riverbed.format.write.batch.BatchWriteOptions;
import io.riverbed.hive.HiveSyncOptions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Hive sync settings of a SQL write on a catalog table, as Apache Hudi 0.15's
 * {@code ProvidesHoodieConfig} gives them: when the session uses Spark's Hive catalog, every SQL write
 * syncs the table to the metastore (hms mode) under the catalog's database and table name, with the
 * table's partition fields, {@code MultiPartKeysValueExtractor} and Hive timestamps (the base path
 * is the write's, which the sync takes from it); these are
 * defaults, so a {@code SET} or table property of the same key wins, as in Hudi.
 *
 * <p>Unlike Hudi's sync, which can open Spark's embedded (Derby) metastore in-process, Riverbed's
 * sync speaks thrift: with no metastore URI known, the defaulted sync is left off and a warning
 * names the table, rather than failing every write after its commit.
 */
final class SqlHiveSync {
  /** Spark's setting whose value {@value #HIVE_CATALOG} means the session catalog is the Hive metastore. */
  static final String CATALOG_IMPLEMENTATION = "spark.sql.catalogImplementation";
  static final String HIVE_CATALOG = "hive";
  /** The Hadoop (hive-site) setting that names a remote metastore. */
  static final String HIVE_METASTORE_URIS = "hive.metastore.uris";
  static final String MULTI_PART_KEYS_EXTRACTOR = "org.apache.hudi.hive.MultiPartKeysValueExtractor";

  /** Where Hudi's meta sync options live; the user's settings under them override the defaults. */
  private static final List<String> SYNC_PREFIXES = List.of("hoodie.datasource.hive_sync.", "hoodie.datasource.meta.sync.",
      "hoodie.meta.sync.", "hoodie.meta_sync.", "hoodie.datasource.meta_sync.");

  private static final Logger LOG = LoggerFactory.getLogger(SqlHiveSync.class);

  private SqlHiveSync() {}

  /** The sync options of a write on {@code entry} in {@code spark}'s session, given its {@code hoodie.*} settings. */
  static Map<String, String> syncOptions(SparkSession spark, CatalogEntry entry, TableConfig table,
      Map<String, String> settings) {
    boolean hiveCatalog = HIVE_CATALOG.equals(spark.conf().get(CATALOG_IMPLEMENTATION, "in-memory"));
    return syncOptions(hiveCatalog, entry, table, settings, spark.sessionState().newHadoopConf());
  }

  /**
   * The sync options of a write on {@code entry}: Hudi's SQL defaults, overridden by the sync options
   * among {@code settings} (the session's and the table's {@code hoodie.*} settings).
   *
   * @param hiveCatalog whether the session's catalog is Hive's ({@value #CATALOG_IMPLEMENTATION})
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
      if (SYNC_PREFIXES.stream().anyMatch(key::startsWith)) {
        options.put(key, value);
      }
    });
    boolean askedByUser = settings.containsKey(BatchWriteOptions.META_SYNC_ENABLED)
        || settings.containsKey(BatchWriteOptions.HIVE_SYNC_ENABLED);
    boolean metastoreKnown = !options.getOrDefault(HiveSyncOptions.METASTORE_URIS, "").isBlank()
        || !conf.getTrimmed(HIVE_METASTORE_URIS, "").isEmpty();
    if (enabled && !askedByUser && !metastoreKnown) {
      LOG.warn("Table {} is not synced to the Hive metastore: the session uses Spark's Hive catalog, as Hudi's SQL "
          + "writes sync on, but no metastore URI is known ({} or {}), and Riverbed's Hive sync reaches the metastore "
          + "over thrift only, not Spark's embedded one; the write itself is committed", entry.name(),
          HIVE_METASTORE_URIS, HiveSyncOptions.METASTORE_URIS);
      options.put(BatchWriteOptions.META_SYNC_ENABLED, "false");
      options.put(BatchWriteOptions.HIVE_SYNC_ENABLED, "false");
    }
    return options;
  }
}
