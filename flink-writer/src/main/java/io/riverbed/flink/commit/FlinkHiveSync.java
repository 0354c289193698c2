package io.riverbed.flink.commit;

import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.TableException;
import io.riverbed.hive.HiveSyncAction;
import io.riverbed.hive.HiveSyncOptions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Hudi's Flink {@code hive_sync.*} options, turned into the hive-sync module's post-commit action
 * ({@link HiveSyncAction}) that the write coordinator's committer runs after each commit (as Hudi's
 * Flink writer syncs after commits). A failed sync is logged and retried after the next commit; it
 * never fails the commit or the job.
 *
 * <p>Public for {@link FlinkWriteOptions}, whose option descriptions include these.
 */
public final class FlinkHiveSync {
  public static final String ENABLED = "hive_sync.enabled";
  static final String ENABLED_FALLBACK = "hive_sync.enable";
  public static final String METASTORE_URIS = "hive_sync.metastore.uris";
  public static final String DB = "hive_sync.db";
  public static final String TABLE = "hive_sync.table";
  public static final String MODE = "hive_sync.mode";
  static final String PARTITION_FIELDS = "hive_sync.partition_fields";
  static final String PARTITION_EXTRACTOR_CLASS = "hive_sync.partition_extractor_class";
  static final String SKIP_RO_SUFFIX = "hive_sync.skip_ro_suffix";
  public static final String SUPPORT_TIMESTAMP = "hive_sync.support_timestamp";

  /** Flink key → the sync option it sets. */
  private static final Map<String, String> TO_SYNC_OPTION = Map.of(
      METASTORE_URIS, HiveSyncOptions.METASTORE_URIS,
      DB, HiveSyncOptions.DATABASE,
      TABLE, HiveSyncOptions.TABLE,
      MODE, HiveSyncOptions.MODE,
      PARTITION_FIELDS, HiveSyncOptions.PARTITION_FIELDS,
      PARTITION_EXTRACTOR_CLASS, HiveSyncOptions.PARTITION_EXTRACTOR_CLASS,
      SKIP_RO_SUFFIX, HiveSyncOptions.SKIP_RO_SUFFIX,
      SUPPORT_TIMESTAMP, HiveSyncOptions.SUPPORT_TIMESTAMP);

  /** key → {default, description}, for docs (merged into {@link FlinkWriteOptions#DESCRIPTIONS}). */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  private FlinkHiveSync() {}

  /**
   * The sync the writer options ask for, or empty when {@code hive_sync.enabled} is not true.
   *
   * @throws IllegalArgumentException when enabled without {@code hive_sync.metastore.uris}, or a
   *     sync option is not valid (checked when the job starts, not at the first commit)
   */
  static Optional<HiveSyncAction> fromOptions(FlinkWriteOptions writer) {
    Map<String, String> raw = writer.raw();
    String enabled = raw.getOrDefault(ENABLED, raw.getOrDefault(ENABLED_FALLBACK, "false"));
    if (!Boolean.parseBoolean(enabled.trim().toLowerCase(Locale.ROOT))) {
      return Optional.empty();
    }
    if (raw.getOrDefault(METASTORE_URIS, "").isBlank()) {
      throw new IllegalArgumentException(ENABLED + " is true but " + METASTORE_URIS + " is not set");
    }
    // the writer's table and Hudi Flink's defaults, then any sync option under its Hudi name, then the Flink keys
    Map<String, String> sync = new HashMap<>();
    sync.put(HiveSyncOptions.TABLE, writer.tableName());
    sync.put(HiveSyncOptions.SUPPORT_TIMESTAMP, "true");
    raw.forEach((k, v) -> {
      if (k.startsWith("hoodie.datasource.hive_sync.") || k.startsWith("hoodie.meta.sync.") || k.startsWith("hoodie.meta_sync.")) {
        sync.put(k, v);
      }
    });
    sync.put(HiveSyncOptions.BASE_PATH, writer.path());
    TO_SYNC_OPTION.forEach((flinkKey, syncKey) -> {
      if (raw.containsKey(flinkKey)) {
        sync.put(syncKey, raw.get(flinkKey));
      }
    });
    try {
      return Optional.of(HiveSyncAction.of(HiveSyncOptions.fromMap(sync)));
    } catch (TableException e) {
      throw new IllegalArgumentException("hive sync: " + e.getMessage(), e);
    }
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(ENABLED, new String[] {"false", "Sync the table to a Hive Metastore after each commit (the coordinator, "
        + "once a checkpoint's instants are committed); a failed sync is logged and retried after the next commit. "
        + "Fallback key " + ENABLED_FALLBACK + ". What is registered: see HIVE_SYNC.md."});
    d.put(METASTORE_URIS, new String[] {"", "Thrift URIs of the Hive Metastore (required when hive_sync.enabled)."});
    d.put(DB, new String[] {"default", "Metastore database (created when missing)."});
    d.put(TABLE, new String[] {"<hoodie.table.name>", "Metastore table name (MERGE_ON_READ: <table>_ro, <table>_rt, <table>)."});
    d.put(MODE, new String[] {"hms", "Only hms (thrift calls to the metastore) is supported."});
    d.put(PARTITION_FIELDS, new String[] {"<partition path fields>", "Partition columns of the metastore table."});
    d.put(PARTITION_EXTRACTOR_CLASS, new String[] {"<inferred>", "Hudi's partition value extractor class name (see "
        + HiveSyncOptions.PARTITION_EXTRACTOR_CLASS + ")."});
    d.put(SKIP_RO_SUFFIX, new String[] {"false", "MERGE_ON_READ: name the read-optimized table <table>, not <table>_ro."});
    d.put(SUPPORT_TIMESTAMP, new String[] {"true", "Timestamp columns as Hive timestamp (Hudi's Flink default; "
        + "false: bigint)."});
    return Map.copyOf(d);
  }
}
