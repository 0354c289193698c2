package io.riverbed.hive;

import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.table.TableConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The options of a Hive Metastore sync, under Apache Hudi's {@code hoodie.datasource.hive_sync.*}
 * / {@code hoodie.meta.sync.*} names with Hudi 0.15's defaults. Options whose Hudi default comes
 * from the table (table name, partition fields, partition value extractor, partition decoding)
 * are resolved against its {@code hoodie.properties} when not given.
 *
 * @param basePath the table's base path
 * @param database the metastore database
 * @param table the metastore table name; empty: the table's {@code hoodie.table.name}
 * @param metastoreUris thrift URIs of the metastore, comma separated
 * @param partitionFields partition columns; empty: the table's partition fields
 * @param partitionExtractorClass Hudi extractor class name; empty: inferred as Hudi does
 * @param decodePartition url-decode partition values; empty: the table's url-encode flag
 * @param skipRoSuffix MERGE_ON_READ: name the read-optimized table {@code <table>} instead of {@code <table>_ro}
 * @param tableStrategy MERGE_ON_READ: ALL, RO or RT
 * @param syncSnapshotWithTableName MERGE_ON_READ with ALL: also register the snapshot table as {@code <table>}
 * @param syncAsDataSource add Spark's data source table properties
 * @param schemaLengthThreshold length of one {@code spark.sql.sources.schema.part.N}
 * @param supportTimestamp timestamp-micros/millis as Hive {@code timestamp} instead of {@code bigint}
 * @param omitMetadataFields leave the five {@code _hoodie_*} columns out
 * @param createManagedTable register a managed table instead of an EXTERNAL one
 * @param autoCreateDatabase create the database when missing
 * @param tableProperties extra table properties
 * @param serdeProperties extra serde properties
 * @param batchNum partitions added per metastore call
 * @param sparkVersion value of {@code spark.sql.create.version}; empty: not set
 * @param incremental sync only partitions written since the last synced instant
 * @param conditionalSync advance the last synced instant only when something changed
 */
public record HiveSyncOptions(
    String basePath,
    String database,
    Optional<String> table,
    String metastoreUris,
    Optional<List<String>> partitionFields,
    Optional<String> partitionExtractorClass,
    Optional<Boolean> decodePartition,
    boolean skipRoSuffix,
    String tableStrategy,
    boolean syncSnapshotWithTableName,
    boolean syncAsDataSource,
    int schemaLengthThreshold,
    boolean supportTimestamp,
    boolean omitMetadataFields,
    boolean createManagedTable,
    boolean autoCreateDatabase,
    Map<String, String> tableProperties,
    Map<String, String> serdeProperties,
    int batchNum,
    String sparkVersion,
    boolean incremental,
    boolean conditionalSync) {

  public static final String BASE_PATH = "hoodie.datasource.meta.sync.base.path";
  public static final String DATABASE = "hoodie.datasource.hive_sync.database";
  public static final String TABLE = "hoodie.datasource.hive_sync.table";
  public static final String METASTORE_URIS = "hoodie.datasource.hive_sync.metastore.uris";
  public static final String PARTITION_FIELDS = "hoodie.datasource.hive_sync.partition_fields";
  public static final String PARTITION_EXTRACTOR_CLASS = "hoodie.datasource.hive_sync.partition_extractor_class";
  public static final String DECODE_PARTITION = "hoodie.meta.sync.decode_partition";
  public static final String SKIP_RO_SUFFIX = "hoodie.datasource.hive_sync.skip_ro_suffix";
  public static final String TABLE_STRATEGY = "hoodie.datasource.hive_sync.table.strategy";
  public static final String SYNC_SNAPSHOT_WITH_TABLE_NAME = "hoodie.meta.sync.sync_snapshot_with_table_name";
  public static final String SYNC_AS_DATA_SOURCE = "hoodie.datasource.hive_sync.sync_as_datasource";
  public static final String SCHEMA_LENGTH_THRESHOLD = "hoodie.datasource.hive_sync.schema_string_length_thresh";
  public static final String SUPPORT_TIMESTAMP = "hoodie.datasource.hive_sync.support_timestamp";
  public static final String OMIT_METADATA_FIELDS = "hoodie.datasource.hive_sync.omit_metadata_fields";
  public static final String CREATE_MANAGED_TABLE = "hoodie.datasource.hive_sync.create_managed_table";
  public static final String AUTO_CREATE_DATABASE = "hoodie.datasource.hive_sync.auto_create_database";
  public static final String TABLE_PROPERTIES = "hoodie.datasource.hive_sync.table_properties";
  public static final String SERDE_PROPERTIES = "hoodie.datasource.hive_sync.serde_properties";
  public static final String BATCH_NUM = "hoodie.datasource.hive_sync.batch_num";
  public static final String SPARK_VERSION = "hoodie.meta_sync.spark.version";
  public static final String INCREMENTAL = "hoodie.meta.sync.incremental";
  public static final String CONDITIONAL_SYNC = "hoodie.datasource.meta_sync.condition.sync";
  /** Only {@code hms} (thrift calls to the metastore) is supported; Hudi's jdbc and hiveql modes are not. */
  public static final String MODE = "hoodie.datasource.hive_sync.mode";
  /** Only {@code PARQUET} base files are supported. */
  public static final String BASE_FILE_FORMAT = "hoodie.datasource.hive_sync.base_file_format";

  public static final String DEFAULT_METASTORE_URIS = "thrift://localhost:9083";

  /** Each option's key → {default, description}, for the option reference. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  public HiveSyncOptions {
    tableProperties = Map.copyOf(tableProperties);
    serdeProperties = Map.copyOf(serdeProperties);
    partitionFields = partitionFields.map(List::copyOf);
  }

  /**
   * Reads the options from Hudi's keys; absent keys take Hudi's defaults.
   *
   * @throws HiveSyncException naming the key when a value is not valid, or the base path is missing
   */
  public static HiveSyncOptions fromMap(Map<String, String> conf) {
    String basePath = text(conf, BASE_PATH).orElseThrow(() -> new HiveSyncException("no table base path given ("
        + BASE_PATH + ", --base-path)"));
    String mode = text(conf, MODE).orElse("hms");
    if (!mode.equalsIgnoreCase("hms")) {
      throw new HiveSyncException(MODE + "='" + mode + "' is not supported; accepted: hms");
    }
    String format = text(conf, BASE_FILE_FORMAT).orElse("PARQUET");
    if (!format.equalsIgnoreCase("PARQUET")) {
      throw new HiveSyncException(BASE_FILE_FORMAT + "='" + format + "' is not supported; accepted: PARQUET");
    }
    String strategy = text(conf, TABLE_STRATEGY).orElse("ALL").toUpperCase(Locale.ROOT);
    if (!List.of("ALL", "RO", "RT").contains(strategy)) {
      throw new HiveSyncException(TABLE_STRATEGY + "='" + strategy + "' is not supported; accepted: ALL, RO, RT");
    }
    Optional<String> extractor = text(conf, PARTITION_EXTRACTOR_CLASS);
    extractor.ifPresent(PartitionValueExtractor::forClassName);
    return new HiveSyncOptions(
        basePath,
        text(conf, DATABASE).orElse("default"),
        text(conf, TABLE),
        text(conf, METASTORE_URIS).orElse(DEFAULT_METASTORE_URIS),
        Optional.ofNullable(conf.get(PARTITION_FIELDS)).map(KeyGeneratorOptions::splitFields),
        extractor,
        text(conf, DECODE_PARTITION).map(v -> bool(DECODE_PARTITION, v)),
        bool(conf, SKIP_RO_SUFFIX, false),
        strategy,
        bool(conf, SYNC_SNAPSHOT_WITH_TABLE_NAME, true),
        bool(conf, SYNC_AS_DATA_SOURCE, true),
        integer(conf, SCHEMA_LENGTH_THRESHOLD, 4000),
        bool(conf, SUPPORT_TIMESTAMP, false),
        bool(conf, OMIT_METADATA_FIELDS, false),
        bool(conf, CREATE_MANAGED_TABLE, false),
        bool(conf, AUTO_CREATE_DATABASE, true),
        properties(conf.get(TABLE_PROPERTIES)),
        properties(conf.get(SERDE_PROPERTIES)),
        integer(conf, BATCH_NUM, 1000),
        text(conf, SPARK_VERSION).orElse(""),
        bool(conf, INCREMENTAL, true),
        bool(conf, CONDITIONAL_SYNC, false));
  }

  /** The metastore table name: the option, else the table's name in {@code hoodie.properties}. */
  public String tableName(TableConfig config) {
    return table.orElseGet(config::name);
  }

  /** The partition columns: the option, else the table's partition fields. */
  public List<String> partitionFields(TableConfig config) {
    return partitionFields.orElseGet(config::partitionFields);
  }

  /**
   * The partition value extractor: the option, else what Hudi infers: none for a non-partitioned
   * table, {@code HiveStylePartitionValueExtractor} / {@code SinglePartPartitionValueExtractor} for
   * one field (hive style or not), {@code MultiPartKeysValueExtractor} for several.
   */
  public PartitionValueExtractor extractor(TableConfig config) {
    if (partitionExtractorClass.isPresent()) {
      return PartitionValueExtractor.forClassName(partitionExtractorClass.get());
    }
    List<String> fields = partitionFields(config);
    if (fields.isEmpty()) {
      return PartitionValueExtractor.NON_PARTITIONED;
    }
    if (fields.size() == 1) {
      return config.hiveStylePartitioning() ? PartitionValueExtractor.HIVE_STYLE : PartitionValueExtractor.SINGLE_PART;
    }
    return PartitionValueExtractor.MULTI_PART_KEYS;
  }

  /** Whether partition values are url-decoded: the option, else the table's url-encode flag. */
  public boolean decodePartition(TableConfig config) {
    return decodePartition.orElseGet(config::urlEncodePartitioning);
  }

  private static Optional<String> text(Map<String, String> conf, String key) {
    return Optional.ofNullable(conf.get(key)).map(String::trim).filter(v -> !v.isEmpty());
  }

  private static boolean bool(Map<String, String> conf, String key, boolean defaultValue) {
    return text(conf, key).map(v -> bool(key, v)).orElse(defaultValue);
  }

  private static boolean bool(String key, String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new HiveSyncException(key + "='" + value + "' is not a boolean (true or false)");
    };
  }

  private static int integer(Map<String, String> conf, String key, int defaultValue) {
    Optional<String> value = text(conf, key);
    if (value.isEmpty()) {
      return defaultValue;
    }
    try {
      int n = Integer.parseInt(value.get());
      if (n <= 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new HiveSyncException(key + "='" + value.get() + "' is not a positive integer");
    }
  }

  /** Hudi's {@code key=value} lines (one property per line). */
  static Map<String, String> properties(String text) {
    var result = new LinkedHashMap<String, String>();
    if (text == null) {
      return result;
    }
    for (String line : text.split("\n")) {
      String entry = line.trim();
      if (entry.isEmpty()) {
        continue;
      }
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new HiveSyncException("property '" + entry + "' is not key=value");
      }
      result.put(entry.substring(0, eq).trim(), entry.substring(eq + 1).trim());
    }
    return result;
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(BASE_PATH, new String[] {"", "Base path of the table to sync (required; --base-path)."});
    d.put(DATABASE, new String[] {"default", "Metastore database; created when missing (see auto_create_database)."});
    d.put(TABLE, new String[] {"<hoodie.table.name>", "Metastore table name. MERGE_ON_READ tables become <table>_ro "
        + "(read-optimized), <table>_rt (snapshot) and <table> (snapshot; see sync_snapshot_with_table_name)."});
    d.put(METASTORE_URIS, new String[] {DEFAULT_METASTORE_URIS, "Thrift URIs of the Hive Metastore, comma separated."});
    d.put(PARTITION_FIELDS, new String[] {"<table's partition fields>", "Partition columns of the metastore table, "
        + "comma separated; their types come from the table schema (string when not in it)."});
    d.put(PARTITION_EXTRACTOR_CLASS, new String[] {"<inferred>", "How partition values are read from partition paths, by "
        + "Hudi's class name: org.apache.hudi.hive.MultiPartKeysValueExtractor (a value per path segment, 'key=' "
        + "stripped), NonPartitionedExtractor, SinglePartPartitionValueExtractor, HiveStylePartitionValueExtractor, "
        + "SlashEncodedDayPartitionValueExtractor (yyyy/mm/dd -> yyyy-mm-dd), SlashEncodedHourPartitionValueExtractor. "
        + "Inferred as Hudi does: none for non-partitioned tables, HiveStyle/SinglePart for one field, MultiPartKeys "
        + "for several."});
    d.put(DECODE_PARTITION, new String[] {"<hoodie.datasource.write.partitionpath.urlencode>", "URL-decode partition "
        + "values read from paths."});
    d.put(SKIP_RO_SUFFIX, new String[] {"false", "MERGE_ON_READ: register the read-optimized table as <table> "
        + "instead of <table>_ro."});
    d.put(TABLE_STRATEGY, new String[] {"ALL", "MERGE_ON_READ: ALL (read-optimized and snapshot tables), RO (only "
        + "<table>, read-optimized) or RT (only <table>, snapshot)."});
    d.put(SYNC_SNAPSHOT_WITH_TABLE_NAME, new String[] {"true", "MERGE_ON_READ with strategy ALL: also register the "
        + "snapshot table under the plain name <table>."});
    d.put(SYNC_AS_DATA_SOURCE, new String[] {"true", "Add Spark's data source table properties "
        + "(spark.sql.sources.provider=hudi, the schema) so Spark SQL reads the table through a 'hudi' data source."});
    d.put(SCHEMA_LENGTH_THRESHOLD, new String[] {"4000", "Characters per spark.sql.sources.schema.part.N property."});
    d.put(SUPPORT_TIMESTAMP, new String[] {"false", "Register timestamp-micros/millis columns as Hive timestamp "
        + "(false: bigint, as Hudi's Spark writer does)."});
    d.put(OMIT_METADATA_FIELDS, new String[] {"false", "Leave the five _hoodie_* columns out of the metastore table."});
    d.put(CREATE_MANAGED_TABLE, new String[] {"false", "Register a managed table instead of an EXTERNAL one."});
    d.put(AUTO_CREATE_DATABASE, new String[] {"true", "Create the database when missing (false: fail)."});
    d.put(TABLE_PROPERTIES, new String[] {"", "Extra table properties, key=value, one per line."});
    d.put(SERDE_PROPERTIES, new String[] {"", "Extra serde properties, key=value, one per line."});
    d.put(BATCH_NUM, new String[] {"1000", "Partitions added per metastore call."});
    d.put(SPARK_VERSION, new String[] {"", "Value of the spark.sql.create.version table property (not set when empty)."});
    d.put(INCREMENTAL, new String[] {"true", "Sync only the partitions written since last_commit_time_sync (false: "
        + "compare every partition on storage with the metastore)."});
    d.put(CONDITIONAL_SYNC, new String[] {"false", "Advance last_commit_time_sync only when the schema, properties or "
        + "partitions changed."});
    d.put(MODE, new String[] {"hms", "How the metastore is changed; only hms (thrift calls) is supported."});
    d.put(BASE_FILE_FORMAT, new String[] {"PARQUET", "Base file format; only PARQUET is supported."});
    return java.util.Collections.unmodifiableMap(d);
  }
}
