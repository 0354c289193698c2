package io.riverbed.format.table;

import io.riverbed.format.InvalidTableException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.Path;

/**
 * Immutable, typed view of {@code .hoodie/hoodie.properties}. Keeps every entry of the file, also
 * the ones Riverbed does not interpret, so that an update writes them back unchanged.
 * Reading and writing the file is {@link TableConfigFile}'s job.
 */
public final class TableConfig {

  /** Hudi 0.14/0.15's table version: the one Riverbed creates unless asked for version 8. */
  public static final int VERSION_6 = 6;

  /** Timeline layout of table version 6. */
  public static final int TIMELINE_LAYOUT_VERSION = 1;

  /** Hudi 1.x's table version, which Riverbed reads, and writes on tables that have it. */
  public static final int VERSION_8 = 8;

  /** Timeline layout of table version 8. */
  public static final int TIMELINE_LAYOUT_VERSION_2 = 2;

  /** The payload class whose merge is event-time ordering (the larger ordering value wins). */
  static final String EVENT_TIME_PAYLOAD = "org.apache.hudi.common.model.DefaultHoodieRecordPayload";

  /** The payload class whose merge is commit-time ordering (the latest write wins). */
  static final String COMMIT_TIME_PAYLOAD = "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload";

  /** Hudi's default record merger strategy id; in version 8 the id of event-time ordering. */
  public static final String DEFAULT_MERGER_STRATEGY = "eeb8d96f-b1e4-49fd-bbf8-28ac514178e5";

  /** Hudi 1.x's merge strategy id of commit-time ordering (the latest write wins). */
  static final String COMMIT_TIME_MERGE_STRATEGY = "ce9acb64-bde0-424c-9b91-f6ebba25356d";

  private final SortedMap<String, String> properties;

  private TableConfig(Map<String, String> properties) {
    this.properties = Collections.unmodifiableSortedMap(new TreeMap<>(properties));
  }

  /** A config holding exactly these entries (no defaults added, nothing validated). */
  public static TableConfig of(Map<String, String> properties) {
    Objects.requireNonNull(properties, "properties");
    return new TableConfig(properties);
  }

  /**
   * Reads {@code <metaPath>/hoodie.properties}, falling back to its backup; see
   * {@link TableConfigFile#read}.
   */
  public static TableConfig read(org.apache.hadoop.fs.FileSystem fs, Path metaPath) {
    return TableConfigFile.read(fs, metaPath);
  }

  public static Builder builder(String tableName) {
    return new Builder(tableName);
  }

  /** All entries of the file, sorted by key, including keys Riverbed does not know. */
  public SortedMap<String, String> properties() {
    return properties;
  }

  public Optional<String> get(TableProperty property) {
    return Optional.ofNullable(properties.get(property.key()));
  }

  /** The stored value, or Hudi's default for the key (null if Hudi has none). */
  public String getOrDefault(TableProperty property) {
    return properties.getOrDefault(property.key(), property.defaultValue());
  }

  /**
   * This config with entries changed: a null value removes the key. The checksum is recomputed
   * whenever the config is written, so callers need not touch it.
   */
  public TableConfig with(Map<String, String> changes) {
    var copy = new TreeMap<>(properties);
    changes.forEach((k, v) -> {
      if (v == null) {
        copy.remove(k);
      } else {
        copy.put(k, v);
      }
    });
    return new TableConfig(copy);
  }

  public TableConfig with(TableProperty property, String value) {
    var changes = new TreeMap<String, String>();
    changes.put(property.key(), value);
    return with(changes);
  }

  // ---- typed getters -------------------------------------------------------------------------

  public String name() {
    return get(TableProperty.NAME).orElseThrow(
        () -> new InvalidTableException("hoodie.properties has no " + TableProperty.NAME.key()));
  }

  public Optional<String> database() {
    return get(TableProperty.DATABASE_NAME);
  }

  public TableType type() {
    String v = getOrDefault(TableProperty.TYPE);
    try {
      return TableType.valueOf(v.trim());
    } catch (IllegalArgumentException e) {
      throw new InvalidTableException(
          "table " + nameOrUnknown() + ": unknown " + TableProperty.TYPE.key() + " '" + v + "'");
    }
  }

  /** {@code hoodie.table.version}; 0 when absent, as Hudi treats it. */
  public int version() {
    return parseInt(TableProperty.VERSION, getOrDefault(TableProperty.VERSION));
  }

  /** {@code hoodie.timeline.layout.version}; throws if absent, as Hudi readers do. */
  public int timelineLayoutVersion() {
    String v = get(TableProperty.TIMELINE_LAYOUT_VERSION).orElseThrow(() -> new InvalidTableException(
        "table " + nameOrUnknown() + ": hoodie.properties has no " + TableProperty.TIMELINE_LAYOUT_VERSION.key()
            + " (Hudi readers refuse such a table; table version 6 uses layout 1)"));
    return parseInt(TableProperty.TIMELINE_LAYOUT_VERSION, v);
  }

  public Optional<Long> checksum() {
    return get(TableProperty.CHECKSUM).map(v -> {
      try {
        return Long.parseLong(v.trim());
      } catch (NumberFormatException e) {
        throw new InvalidTableException(
            "table " + nameOrUnknown() + ": " + TableProperty.CHECKSUM.key() + " '" + v + "' is not a number");
      }
    });
  }

  public String archiveLogFolder() {
    return getOrDefault(TableProperty.ARCHIVELOG_FOLDER);
  }

  public List<String> recordKeyFields() {
    return commaList(TableProperty.RECORD_KEY_FIELDS);
  }

  /** Partition fields; empty for a non-partitioned table. */
  public List<String> partitionFields() {
    return commaList(TableProperty.PARTITION_FIELDS);
  }

  public Optional<String> precombineField() {
    return get(TableProperty.PRECOMBINE_FIELD).filter(s -> !s.isEmpty());
  }

  /**
   * The key generator class; on a version 8 table that stores only {@code hoodie.table.keygenerator.type},
   * the class Hudi 1.x maps that type to.
   */
  public Optional<String> keyGeneratorClass() {
    Optional<String> stored = get(TableProperty.KEY_GENERATOR_CLASS).filter(s -> !s.isEmpty());
    if (stored.isPresent()) {
      return stored;
    }
    return get(TableProperty.KEY_GENERATOR_TYPE).filter(s -> !s.isEmpty()).map(this::keyGeneratorClassOfType);
  }

  private String keyGeneratorClassOfType(String type) {
    String t = type.trim().toUpperCase(java.util.Locale.ROOT);
    boolean avro = t.endsWith("_AVRO");
    String base = avro ? t.substring(0, t.length() - "_AVRO".length()) : t;
    String simpleName = switch (base) {
      case "SIMPLE" -> "SimpleKeyGenerator";
      case "COMPLEX" -> "ComplexKeyGenerator";
      case "TIMESTAMP" -> "TimestampBasedKeyGenerator";
      case "CUSTOM" -> "CustomKeyGenerator";
      case "NON_PARTITION" -> "NonpartitionedKeyGenerator";
      case "GLOBAL_DELETE" -> "GlobalDeleteKeyGenerator";
      default -> throw new InvalidTableException("table " + nameOrUnknown() + ": "
          + TableProperty.KEY_GENERATOR_TYPE.key() + " '" + type + "' is not a key generator type Riverbed knows");
    };
    return "org.apache.hudi.keygen." + (avro ? simpleName.replace("KeyGenerator", "AvroKeyGenerator") : simpleName);
  }

  /**
   * The key generator type Hudi 1.x stores in {@code hoodie.table.keygenerator.type} for a key
   * generator class (the inverse of the type-to-class mapping {@link #keyGeneratorClass} applies).
   *
   * @throws InvalidTableException naming the class when it is not one of Hudi's key generators
   */
  public static String keyGeneratorTypeOfClass(String className) {
    String simpleName = className.substring(className.lastIndexOf('.') + 1);
    boolean avro = simpleName.endsWith("AvroKeyGenerator");
    String base = simpleName.replace("AvroKeyGenerator", "KeyGenerator");
    String type = switch (base) {
      case "SimpleKeyGenerator" -> "SIMPLE";
      case "ComplexKeyGenerator" -> "COMPLEX";
      case "TimestampBasedKeyGenerator" -> "TIMESTAMP";
      case "CustomKeyGenerator" -> "CUSTOM";
      case "NonpartitionedKeyGenerator" -> "NON_PARTITION";
      case "GlobalDeleteKeyGenerator" -> "GLOBAL_DELETE";
      default -> throw new InvalidTableException("key generator class " + className
          + " has no key generator type in Hudi 1.x (" + TableProperty.KEY_GENERATOR_TYPE.key() + ")");
    };
    return avro ? type + "_AVRO" : type;
  }

  /**
   * Version 8's merge keys for a payload class, as Hudi 1.x infers them: the event-time payload is
   * {@code EVENT_TIME_ORDERING}, the latest-write payload (Hudi 0.x's default)
   * {@code COMMIT_TIME_ORDERING}, any other payload {@code CUSTOM} merged by that payload class;
   * with the merge strategy id and the payload class.
   */
  public static Map<String, String> mergeKeysOf(String payloadClass) {
    String mode;
    String strategy;
    if (payloadClass.equals(EVENT_TIME_PAYLOAD)) {
      mode = "EVENT_TIME_ORDERING";
      strategy = DEFAULT_MERGER_STRATEGY;
    } else if (payloadClass.equals(COMMIT_TIME_PAYLOAD)) {
      mode = "COMMIT_TIME_ORDERING";
      strategy = COMMIT_TIME_MERGE_STRATEGY;
    } else {
      mode = "CUSTOM";
      strategy = PAYLOAD_BASED_MERGE_STRATEGY;
    }
    var keys = new TreeMap<String, String>();
    keys.put(TableProperty.RECORD_MERGE_MODE.key(), mode);
    keys.put(TableProperty.RECORD_MERGE_STRATEGY_ID.key(), strategy);
    keys.put(TableProperty.PAYLOAD_CLASS.key(), payloadClass);
    return keys;
  }

  public boolean hiveStylePartitioning() {
    return bool(TableProperty.HIVE_STYLE_PARTITIONING);
  }

  public boolean urlEncodePartitioning() {
    return bool(TableProperty.URL_ENCODE_PARTITIONING);
  }

  public boolean dropPartitionColumns() {
    return bool(TableProperty.DROP_PARTITION_COLUMNS);
  }

  /** Avro schema JSON the table was created with (no meta fields), if stored. */
  public Optional<String> createSchema() {
    return get(TableProperty.CREATE_SCHEMA).filter(s -> !s.isEmpty());
  }

  public String baseFileFormat() {
    return getOrDefault(TableProperty.BASE_FILE_FORMAT);
  }

  /**
   * The payload class that defines how records merge. On a version 8 table the merge mode decides:
   * event-time ordering merges as {@code DefaultHoodieRecordPayload} (the larger ordering value wins),
   * commit-time ordering as {@code OverwriteWithLatestAvroPayload} (the latest write wins), and only
   * {@code CUSTOM} leaves it to the stored payload class.
   */
  public String payloadClass() {
    Optional<String> mode = recordMergeMode();
    if (mode.isPresent()) {
      return switch (mode.get()) {
        case "EVENT_TIME_ORDERING" -> EVENT_TIME_PAYLOAD;
        case "COMMIT_TIME_ORDERING" -> COMMIT_TIME_PAYLOAD;
        case "CUSTOM" -> customPayloadClass();
        default -> throw new InvalidTableException("table " + nameOrUnknown() + ": unknown "
            + TableProperty.RECORD_MERGE_MODE.key() + " '" + mode.get() + "'");
      };
    }
    return getOrDefault(TableProperty.PAYLOAD_CLASS);
  }

  /** Hudi 1.x's merge strategy id of a CUSTOM merge mode that merges by the payload class. */
  static final String PAYLOAD_BASED_MERGE_STRATEGY = "00000000-0000-0000-0000-000000000000";

  /** CUSTOM merge mode: the payload class, if the strategy is payload based (Riverbed runs no merger classes). */
  private String customPayloadClass() {
    Optional<String> strategy = get(TableProperty.RECORD_MERGE_STRATEGY_ID).map(String::trim).filter(v -> !v.isEmpty());
    if (strategy.isPresent() && !strategy.get().equals(PAYLOAD_BASED_MERGE_STRATEGY)) {
      throw new InvalidTableException("table " + nameOrUnknown() + ": merge mode CUSTOM with "
          + TableProperty.RECORD_MERGE_STRATEGY_ID.key() + " '" + strategy.get()
          + "' needs a record merger class; Riverbed merges by payload class only (strategy "
          + PAYLOAD_BASED_MERGE_STRATEGY + ")");
    }
    return getOrDefault(TableProperty.PAYLOAD_CLASS);
  }

  /** {@code hoodie.record.merge.mode} (table version 8), upper case, if stored. */
  public Optional<String> recordMergeMode() {
    return get(TableProperty.RECORD_MERGE_MODE).map(String::trim).filter(s -> !s.isEmpty())
        .map(s -> s.toUpperCase(java.util.Locale.ROOT));
  }

  /**
   * The folder of the active timeline relative to {@code .hoodie}: empty for layout 1 (the timeline
   * lives in {@code .hoodie} itself), {@code hoodie.timeline.path} for layout 2.
   */
  public String timelineFolder() {
    return timelineLayoutVersion() >= TIMELINE_LAYOUT_VERSION_2 ? getOrDefault(TableProperty.TIMELINE_PATH) : "";
  }

  /**
   * True if log file names hold the delta commit that wrote them (table version 8) rather than the
   * base instant of their file slice (version 6).
   */
  public boolean logFilesNamedByDeltaCommit() {
    return version() >= VERSION_8;
  }

  /**
   * True if incremental queries take completion times as their bounds (table version 8, as Hudi 1.x
   * reads them) rather than requested instant times (version 6).
   */
  public boolean incrementalRangeByCompletionTime() {
    return version() >= VERSION_8;
  }

  public String recordMergerStrategy() {
    return getOrDefault(TableProperty.RECORD_MERGER_STRATEGY);
  }

  public TimelineTimezone timelineTimezone() {
    String v = getOrDefault(TableProperty.TIMELINE_TIMEZONE);
    try {
      return TimelineTimezone.valueOf(v.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidTableException("table " + nameOrUnknown() + ": unknown "
          + TableProperty.TIMELINE_TIMEZONE.key() + " '" + v + "' (LOCAL or UTC)");
    }
  }

  public boolean populateMetaFields() {
    return bool(TableProperty.POPULATE_META_FIELDS);
  }

  /** Completed metadata-table partitions; empty when the metadata table is not in use. */
  public List<String> metadataPartitions() {
    return commaList(TableProperty.METADATA_PARTITIONS);
  }

  public List<String> metadataPartitionsInflight() {
    return commaList(TableProperty.METADATA_PARTITIONS_INFLIGHT);
  }

  /** True if Hudi readers would use the metadata table: its {@code files} partition is complete. */
  public boolean isMetadataTableAvailable() {
    return metadataPartitions().contains("files");
  }

  // ---- checksum and validation ---------------------------------------------------------------

  /** Hudi's table checksum: CRC32 of UTF-8 {@code <database or "">.<table name>}, unsigned. */
  public static long checksumOf(String database, String tableName) {
    var crc = new CRC32();
    crc.update(((database == null ? "" : database) + "." + tableName).getBytes(StandardCharsets.UTF_8));
    return crc.getValue();
  }

  /** The checksum this config's name and database call for. */
  public long expectedChecksum() {
    return checksumOf(database().orElse(null), name());
  }

  /**
   * True if the stored checksum is absent (not validated, as in Hudi 0.15) or matches. A checksum
   * that is not a number, or one stored without a table name to check it against, does not match
   * (Hudi 0.15's {@code validateChecksum} rejects both).
   */
  public boolean hasValidChecksum() {
    String stored = properties.get(TableProperty.CHECKSUM.key());
    if (stored == null) {
      return true;
    }
    String name = properties.get(TableProperty.NAME.key());
    return name != null && stored.trim().equals(String.valueOf(checksumOf(database().orElse(null), name)));
  }

  /**
   * Fails unless Riverbed can write a table with this config: what {@link #requireReadable} checks
   * (table version 6 with timeline layout 1, or 8 with layout 2, and a table name).
   */
  public void requireSupported(Path basePath) {
    requireReadable(basePath);
  }

  /**
   * Checks that Riverbed can read the table: version 6 with timeline layout 1, or version 8 with
   * layout 2, and a table name.
   *
   * @throws InvalidTableException naming the table and what is wrong
   */
  public void requireReadable(Path basePath) {
    int version = version();
    if (version != VERSION_6 && version != VERSION_8) {
      throw new InvalidTableException("table " + basePath + " has table version " + version
          + versionHint(version) + "; Riverbed reads and writes table versions 6 and 8");
    }
    if (get(TableProperty.NAME).isEmpty()) {
      throw new InvalidTableException(
          "table " + basePath + ": hoodie.properties has no " + TableProperty.NAME.key());
    }
    int expectedLayout = version == VERSION_8 ? TIMELINE_LAYOUT_VERSION_2 : TIMELINE_LAYOUT_VERSION;
    if (get(TableProperty.TIMELINE_LAYOUT_VERSION).isEmpty()) {
      throw new InvalidTableException("table " + basePath + ": hoodie.properties has no "
          + TableProperty.TIMELINE_LAYOUT_VERSION.key() + " (table version " + version + " needs layout "
          + expectedLayout + ")");
    }
    int layout = timelineLayoutVersion();
    if (layout != expectedLayout) {
      throw new InvalidTableException("table " + basePath + " has timeline layout version " + layout
          + "; table version " + version + " uses layout " + expectedLayout);
    }
  }

  private static String versionHint(int version) {
    if (version < VERSION_6) {
      return " (written by Hudi older than 0.14; upgrade it to version 6 by writing once with Hudi 0.14/0.15)";
    }
    if (version == 7) {
      return " (written by a Hudi 1.0 pre-release; upgrade it to version 8 with Hudi 1.x)";
    }
    return " (unknown to Hudi 0.15)";
  }

  // ---- helpers -------------------------------------------------------------------------------

  private String nameOrUnknown() {
    return get(TableProperty.NAME).orElse("<unnamed>");
  }

  private int parseInt(TableProperty property, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidTableException(
          "table " + nameOrUnknown() + ": " + property.key() + " '" + value + "' is not a number");
    }
  }

  private boolean bool(TableProperty property) {
    return Boolean.parseBoolean(getOrDefault(property).trim());
  }

  private List<String> commaList(TableProperty property) {
    String v = properties.get(property.key());
    if (v == null || v.isBlank()) {
      return List.of();
    }
    return Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableConfig other && properties.equals(other.properties);
  }

  @Override
  public int hashCode() {
    return properties.hashCode();
  }

  @Override
  public String toString() {
    return "TableConfig" + properties;
  }

  /**
   * Builds the config of a new table: version 6, layout 1, archive folder, the writer keys of
   * §1.2, and the payload class and merger strategy for MERGE_ON_READ (the payload class for
   * COPY_ON_WRITE too when it is set explicitly); or, with {@link #tableVersion tableVersion(8)},
   * version 8's keys as Hudi 1.0.2 writes them (layout 2, timeline and history paths, initial
   * version, key generator type, merge mode, strategy id and payload class).
   */
  public static final class Builder {
    private final String name;
    private String database;
    private TableType type = TableType.COPY_ON_WRITE;
    private List<String> recordKeyFields = List.of();
    private List<String> partitionFields = List.of();
    private String precombineField;
    private String keyGeneratorClass;
    private boolean hiveStylePartitioning;
    private boolean urlEncodePartitioning;
    private boolean dropPartitionColumns;
    private String createSchema;
    private String baseFileFormat = "PARQUET";
    private String payloadClass;
    private String mergerStrategy = DEFAULT_MERGER_STRATEGY;
    private TimelineTimezone timelineTimezone;
    private boolean populateMetaFields = true;
    private int tableVersion = VERSION_6;
    private final TreeMap<String, String> extra = new TreeMap<>();

    private Builder(String name) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("table name must not be empty");
      }
      this.name = name;
    }

    public Builder database(String database) {
      this.database = database;
      return this;
    }

    public Builder type(TableType type) {
      this.type = Objects.requireNonNull(type);
      return this;
    }

    public Builder recordKeyFields(List<String> fields) {
      this.recordKeyFields = List.copyOf(fields);
      return this;
    }

    public Builder partitionFields(List<String> fields) {
      this.partitionFields = List.copyOf(fields);
      return this;
    }

    public Builder precombineField(String field) {
      this.precombineField = field;
      return this;
    }

    public Builder keyGeneratorClass(String className) {
      this.keyGeneratorClass = className;
      return this;
    }

    public Builder hiveStylePartitioning(boolean enabled) {
      this.hiveStylePartitioning = enabled;
      return this;
    }

    public Builder urlEncodePartitioning(boolean enabled) {
      this.urlEncodePartitioning = enabled;
      return this;
    }

    public Builder dropPartitionColumns(boolean enabled) {
      this.dropPartitionColumns = enabled;
      return this;
    }

    public Builder createSchema(String avroSchemaJson) {
      this.createSchema = avroSchemaJson;
      return this;
    }

    public Builder baseFileFormat(String format) {
      this.baseFileFormat = Objects.requireNonNull(format);
      return this;
    }

    /** Payload class; written for MERGE_ON_READ tables only (Hudi's builder does the same). */
    public Builder payloadClass(String className) {
      this.payloadClass = className;
      return this;
    }

    public Builder recordMergerStrategy(String strategyId) {
      this.mergerStrategy = Objects.requireNonNull(strategyId);
      return this;
    }

    public Builder timelineTimezone(TimelineTimezone zone) {
      this.timelineTimezone = zone;
      return this;
    }

    public Builder populateMetaFields(boolean populate) {
      this.populateMetaFields = populate;
      return this;
    }

    /**
     * The table version to create: 6 (the default, Hudi 0.14/0.15) or 8 (Hudi 1.x: timeline layout
     * 2 in {@code .hoodie/timeline}, merge mode keys, key generator type), as Hudi 1.0.2 creates it.
     *
     * @throws IllegalArgumentException for any other version
     */
    public Builder tableVersion(int version) {
      if (version != VERSION_6 && version != VERSION_8) {
        throw new IllegalArgumentException("table '" + name + "': cannot create table version " + version
            + "; Riverbed creates versions " + VERSION_6 + " and " + VERSION_8);
      }
      this.tableVersion = version;
      return this;
    }

    /** Any other key Hudi persists (e.g. {@code hoodie.keygen.timebased.*}). */
    public Builder property(String key, String value) {
      extra.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
      return this;
    }

    public TableConfig build() {
      var p = new TreeMap<String, String>(extra);
      put(p, TableProperty.NAME, name);
      if (database != null) {
        put(p, TableProperty.DATABASE_NAME, database);
      }
      put(p, TableProperty.TYPE, type.name());
      put(p, TableProperty.VERSION, String.valueOf(tableVersion));
      if (tableVersion == VERSION_8) {
        put(p, TableProperty.INITIAL_VERSION, String.valueOf(VERSION_8));
        put(p, TableProperty.TIMELINE_LAYOUT_VERSION, String.valueOf(TIMELINE_LAYOUT_VERSION_2));
        put(p, TableProperty.TIMELINE_PATH, TableProperty.TIMELINE_PATH.defaultValue());
        put(p, TableProperty.TIMELINE_HISTORY_PATH, TableProperty.TIMELINE_HISTORY_PATH.defaultValue());
        // Hudi 1.x names its history folder here too; the LSM history lives under the timeline folder
        put(p, TableProperty.ARCHIVELOG_FOLDER, TableProperty.TIMELINE_HISTORY_PATH.defaultValue());
      } else {
        put(p, TableProperty.TIMELINE_LAYOUT_VERSION, String.valueOf(TIMELINE_LAYOUT_VERSION));
        put(p, TableProperty.ARCHIVELOG_FOLDER, TableProperty.ARCHIVELOG_FOLDER.defaultValue());
      }
      if (!recordKeyFields.isEmpty()) {
        put(p, TableProperty.RECORD_KEY_FIELDS, String.join(",", recordKeyFields));
      }
      if (!partitionFields.isEmpty()) {
        put(p, TableProperty.PARTITION_FIELDS, String.join(",", partitionFields));
      }
      if (precombineField != null) {
        put(p, TableProperty.PRECOMBINE_FIELD, precombineField);
      }
      if (keyGeneratorClass != null) {
        put(p, TableProperty.KEY_GENERATOR_CLASS, keyGeneratorClass);
        if (tableVersion == VERSION_8) {
          put(p, TableProperty.KEY_GENERATOR_TYPE, keyGeneratorTypeOfClass(keyGeneratorClass));
        }
      }
      put(p, TableProperty.HIVE_STYLE_PARTITIONING, String.valueOf(hiveStylePartitioning));
      put(p, TableProperty.URL_ENCODE_PARTITIONING, String.valueOf(urlEncodePartitioning));
      put(p, TableProperty.DROP_PARTITION_COLUMNS, String.valueOf(dropPartitionColumns));
      put(p, TableProperty.BASE_FILE_FORMAT, baseFileFormat);
      put(p, TableProperty.CDC_ENABLED, "false");
      if (createSchema != null) {
        put(p, TableProperty.CREATE_SCHEMA, createSchema);
      }
      if (tableVersion == VERSION_8) {
        putMergeMode(p);
      } else if (type == TableType.MERGE_ON_READ) {
        put(p, TableProperty.PAYLOAD_CLASS,
            payloadClass != null ? payloadClass : TableProperty.PAYLOAD_CLASS.defaultValue());
        put(p, TableProperty.RECORD_MERGER_STRATEGY, mergerStrategy);
      } else if (payloadClass != null) {
        // Hudi's builder writes it for MOR only; a COW table whose creator chose merge semantics
        // keeps them, so every later writer merges the same way (COW readers never merge).
        put(p, TableProperty.PAYLOAD_CLASS, payloadClass);
      }
      if (timelineTimezone != null) {
        put(p, TableProperty.TIMELINE_TIMEZONE, timelineTimezone.name());
      }
      if (!populateMetaFields) {
        put(p, TableProperty.POPULATE_META_FIELDS, "false");
      }
      put(p, TableProperty.CHECKSUM, String.valueOf(checksumOf(database, name)));
      return new TableConfig(p);
    }

    private void putMergeMode(Map<String, String> p) {
      p.putAll(mergeKeysOf(payloadClass != null ? payloadClass : TableProperty.PAYLOAD_CLASS.defaultValue()));
    }

    private static void put(Map<String, String> p, TableProperty property, String value) {
      p.put(property.key(), value);
    }
  }
}
