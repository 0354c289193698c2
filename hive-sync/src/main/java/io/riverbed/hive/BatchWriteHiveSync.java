package io.riverbed.hive;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.TableException;
import io.riverbed.format.options.SecretOptions;
import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.table.Table;
import io.riverbed.format.write.batch.BatchWriteOptions;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metastore sync of a batch write (Spark's {@code df.write}, SQL statements), as Hudi's Spark
 * writer runs it: with
 * {@code hoodie.datasource.hive_sync.enable} or {@code hoodie.datasource.meta.sync.enable} the table
 * is synced to the Hive Metastore ({@code hive-sync}, {@code hms} mode) after the commit, and a failed
 * sync fails the write while the commit stands (Hudi's {@code HoodieMetaSyncException}). The sync
 * options are read, and refused by name, before anything is written.
 */
public final class BatchWriteHiveSync {
  private static final Logger LOG = LoggerFactory.getLogger(BatchWriteHiveSync.class);
  /** The Hadoop (hive-site) setting that names the metastore when the sync option does not. */
  static final String HIVE_METASTORE_URIS = "hive.metastore.uris";

  private final HiveSyncOptions options;
  private final Configuration conf;

  private BatchWriteHiveSync(HiveSyncOptions options, Configuration conf) {
    this.options = options;
    this.conf = conf;
  }

  /**
   * The sync {@code write} asks for ({@link BatchWriteOptions#metaSyncEnabled()} is true).
   *
   * @param base the table's base path as the write was given it, not qualified: Hudi's Spark writer
   *     registers it so (the serde {@code path} of the table and its partitions; the metastore
   *     qualifies the locations itself)
   * @param conf the session's Hadoop configuration: metastore client settings, and
   *     {@value #HIVE_METASTORE_URIS} when the write does not name the metastore
   * @throws InvalidTableException naming the option when a sync option is not valid or names a
   *     sync tool other than Hive's
   */
  public static BatchWriteHiveSync of(BatchWriteOptions write, Path base, Configuration conf, String sparkVersion) {
    Map<String, String> raw = write.raw();
    if (!Boolean.parseBoolean(raw.getOrDefault(BatchWriteOptions.HIVE_SYNC_ENABLED, "false").trim())) {
      String tools = raw.getOrDefault(BatchWriteOptions.META_SYNC_TOOLS, BatchWriteOptions.HIVE_SYNC_TOOL);
      for (String tool : KeyGeneratorOptions.splitFields(tools)) {
        if (!tool.equals(BatchWriteOptions.HIVE_SYNC_TOOL)) {
          throw new InvalidTableException("hudi: option " + BatchWriteOptions.META_SYNC_TOOLS + " names " + tool
              + "; Riverbed's Spark writer syncs only the Hive Metastore (" + BatchWriteOptions.HIVE_SYNC_TOOL + ")");
        }
      }
    }
    Map<String, String> sync = new HashMap<>();
    raw.forEach((k, v) -> {
      if (BatchWriteOptions.isMetaSyncOption(k)) {
        sync.put(k, v);
      }
    });
    sync.put(HiveSyncOptions.BASE_PATH, base.toString());
    String fromConf = conf.getTrimmed(HIVE_METASTORE_URIS, "");
    if (!sync.containsKey(HiveSyncOptions.METASTORE_URIS) && !fromConf.isEmpty()) {
      sync.put(HiveSyncOptions.METASTORE_URIS, fromConf);
    }
    sync.putIfAbsent(HiveSyncOptions.SPARK_VERSION, sparkVersion);
    try {
      return new BatchWriteHiveSync(HiveSyncOptions.fromMap(sync), conf);
    } catch (HiveSyncException e) {
      throw new InvalidTableException("hudi: Hive sync of " + base + ": " + e.getMessage(), e);
    }
  }

  /**
   * Syncs {@code table} after its commit {@code instant}.
   *
   * @throws TableException saying the commit stands when the sync fails
   */
  public void sync(Table table, String instant) {
    try (MetastoreClient client = MetastoreClient.connect(options.metastoreUris(), conf)) {
      HiveSync.of(table, options).run(client).forEach(r -> LOG.info("Hive sync of {} after {}: {}", table.basePath(), instant, r));
    } catch (TableException | UncheckedIOException e) {
      throw new TableException("hudi: commit " + instant + " of table " + table.basePath() + " is complete, but its Hive "
          + "sync to " + SecretOptions.redactText(options.metastoreUris()) + " failed: " + e.getMessage()
          + " (the next write with Hive sync, or riverbed-hive-sync, brings the metastore up to date)", e);
    }
  }
}
