package io.riverbed.hive;

import io.riverbed.format.options.SecretOptions;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The command line of {@code riverbed-hive-sync}: Apache Hudi's {@code HiveSyncTool} flags, turned
 * into sync options under Hudi's keys, plus Hadoop settings for the file system and metastore client.
 *
 * @param options sync options (Hudi keys)
 * @param hadoop Hadoop/metastore configuration entries
 */
public record HiveSyncArguments(Map<String, String> options, Map<String, String> hadoop) {
  public static final String USAGE = """
      Usage: riverbed-hive-sync --base-path P [--database D] [--table T] [--metastore-uris thrift://H:P] [options]
        Registers a Hudi table (version 6) in a Hive Metastore as Apache Hudi's HiveSyncTool (hms mode) does,
        or brings it up to date: columns, properties, partitions written since the last sync.

        --base-path P                  table base path (file:/..., hdfs://..., s3a://...)
        --database D                   metastore database (default default; created when missing)
        --table T                      metastore table (default: hoodie.table.name); MERGE_ON_READ
                                       tables become T_ro, T_rt and T
        --metastore-uris U             thrift://host:port[,...] (default thrift://localhost:9083)
        --partitioned-by F[,F]         partition columns (default: the table's partition fields)
        --partition-value-extractor C  Hudi extractor class (default: inferred from the fields)
        --decode-partition             url-decode partition values
        --skip-ro-suffix               MERGE_ON_READ: read-optimized table named T, not T_ro
        --sync-strategy ALL|RO|RT      MERGE_ON_READ: which tables to register (default ALL)
        --spark-datasource true|false  add Spark's data source properties (default true)
        --spark-schema-length-threshold N   characters per spark.sql.sources.schema.part.N
        --spark-version V              spark.sql.create.version property
        --support-timestamp            timestamp columns as Hive timestamp (default bigint)
        --omit-metafields              leave the _hoodie_* columns out
        --managed-table                register a managed table instead of EXTERNAL
        --auto-create-database true|false   (default true)
        --table-properties K=V[\\nK=V]  extra table properties (one per line)
        --serde-properties K=V[\\nK=V]  extra serde properties (one per line)
        --batch-sync-num N             partitions added per metastore call (default 1000)
        --sync-incremental true|false  only partitions written since the last sync (default true)
        --conditional-sync             advance last_commit_time_sync only when something changed
        --sync-mode hms                (only hms is supported)
        --base-file-format PARQUET     (only PARQUET is supported)
        --set KEY=VALUE                any sync option under its Hudi name (repeatable)
        --hadoop-conf KEY=VALUE        a Hadoop or metastore client setting (repeatable)
        --help
      Prints one line per metastore table synced; exit status 0, 1 on a failed sync, 2 on a bad command line.
      """;

  private static final Map<String, String> VALUED = Map.ofEntries(
      Map.entry("--base-path", HiveSyncOptions.BASE_PATH),
      Map.entry("--database", HiveSyncOptions.DATABASE),
      Map.entry("--table", HiveSyncOptions.TABLE),
      Map.entry("--metastore-uris", HiveSyncOptions.METASTORE_URIS),
      Map.entry("--partitioned-by", HiveSyncOptions.PARTITION_FIELDS),
      Map.entry("--partition-value-extractor", HiveSyncOptions.PARTITION_EXTRACTOR_CLASS),
      Map.entry("--sync-strategy", HiveSyncOptions.TABLE_STRATEGY),
      Map.entry("--spark-datasource", HiveSyncOptions.SYNC_AS_DATA_SOURCE),
      Map.entry("--spark-schema-length-threshold", HiveSyncOptions.SCHEMA_LENGTH_THRESHOLD),
      Map.entry("--spark-version", HiveSyncOptions.SPARK_VERSION),
      Map.entry("--auto-create-database", HiveSyncOptions.AUTO_CREATE_DATABASE),
      Map.entry("--table-properties", HiveSyncOptions.TABLE_PROPERTIES),
      Map.entry("--serde-properties", HiveSyncOptions.SERDE_PROPERTIES),
      Map.entry("--batch-sync-num", HiveSyncOptions.BATCH_NUM),
      Map.entry("--sync-incremental", HiveSyncOptions.INCREMENTAL),
      Map.entry("--sync-mode", HiveSyncOptions.MODE),
      Map.entry("--base-file-format", HiveSyncOptions.BASE_FILE_FORMAT));

  private static final Map<String, String> FLAGS = Map.of(
      "--decode-partition", HiveSyncOptions.DECODE_PARTITION,
      "--skip-ro-suffix", HiveSyncOptions.SKIP_RO_SUFFIX,
      "--support-timestamp", HiveSyncOptions.SUPPORT_TIMESTAMP,
      "--omit-metafields", HiveSyncOptions.OMIT_METADATA_FIELDS,
      "--managed-table", HiveSyncOptions.CREATE_MANAGED_TABLE,
      "--conditional-sync", HiveSyncOptions.CONDITIONAL_SYNC);

  /** Thrown for {@code --help} (null message) and for a command line that cannot be read. */
  public static final class UsageException extends RuntimeException {
    public UsageException(String message) {
      super(message);
    }
  }

  /**
   * Parses the arguments.
   *
   * @throws UsageException for {@code --help} or an unknown or incomplete flag
   */
  public static HiveSyncArguments parse(String... args) {
    var options = new LinkedHashMap<String, String>();
    var hadoop = new LinkedHashMap<String, String>();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("--help") || flag.equals("-h")) {
        throw new UsageException(null);
      }
      if (FLAGS.containsKey(flag)) {
        options.put(FLAGS.get(flag), "true");
        continue;
      }
      if (!VALUED.containsKey(flag) && !flag.equals("--set") && !flag.equals("--hadoop-conf")) {
        throw new UsageException("unknown argument '" + flag + "'");
      }
      if (i + 1 >= args.length) {
        throw new UsageException(flag + " needs a value");
      }
      String value = args[++i];
      switch (flag) {
        case "--set" -> putEntry(options, flag, value);
        case "--hadoop-conf" -> putEntry(hadoop, flag, value);
        default -> options.put(VALUED.get(flag), value.replace("\\n", "\n"));
      }
    }
    if (!options.containsKey(HiveSyncOptions.BASE_PATH)) {
      throw new UsageException("--base-path is required");
    }
    return new HiveSyncArguments(Map.copyOf(options), Map.copyOf(hadoop));
  }

  /** The arguments with secret values redacted ({@link SecretOptions}). */
  @Override
  public String toString() {
    return "HiveSyncArguments[options=" + SecretOptions.redact(options) + ", hadoop=" + SecretOptions.redact(hadoop) + "]";
  }

  private static void putEntry(Map<String, String> into, String flag, String entry) {
    int eq = entry.indexOf('=');
    if (eq <= 0) {
      throw new UsageException(flag + " '" + SecretOptions.redact(entry, entry) + "' is not KEY=VALUE");
    }
    into.put(entry.substring(0, eq), entry.substring(eq + 1));
  }
}
