package io.riverbed.format.record;

import io.riverbed.format.InvalidTableException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Key generator configuration, read from a map with Hudi's key names.
 *
 * @param recordKeyFields record key fields, in order ({@value #RECORD_KEY_FIELD}); empty for a table
 *     whose writers generate its record keys ({@link #generatesKeys()})
 * @param partitionFields partition path fields, in order ({@value #PARTITION_PATH_FIELD}); empty
 *     for a non-partitioned table
 * @param hiveStylePartitioning {@code field=value} segments ({@value #HIVE_STYLE_PARTITIONING}, default false)
 * @param urlEncodePartitionPath Hive path escaping of values ({@value #URL_ENCODE_PARTITION_PATH}, default false)
 * @param consistentLogicalTimestamp timestamp-millis/micros values as {@code java.sql.Timestamp}
 *     strings instead of raw longs ({@value #CONSISTENT_LOGICAL_TIMESTAMP}, default false)
 * @param type the key generator; inferred from the field counts unless
 *     {@value #KEY_GENERATOR_CLASS}, {@value #KEY_GENERATOR_TYPE} or {@value #TABLE_KEY_GENERATOR_CLASS} name one
 */
public record KeyGeneratorOptions(
    List<String> recordKeyFields,
    List<String> partitionFields,
    boolean hiveStylePartitioning,
    boolean urlEncodePartitionPath,
    boolean consistentLogicalTimestamp,
    KeyGeneratorType type) {

  public static final String RECORD_KEY_FIELD = "hoodie.datasource.write.recordkey.field";
  public static final String PARTITION_PATH_FIELD = "hoodie.datasource.write.partitionpath.field";
  public static final String HIVE_STYLE_PARTITIONING = "hoodie.datasource.write.hive_style_partitioning";
  public static final String URL_ENCODE_PARTITION_PATH = "hoodie.datasource.write.partitionpath.urlencode";
  public static final String CONSISTENT_LOGICAL_TIMESTAMP =
      "hoodie.datasource.write.keygenerator.consistent.logical.timestamp.enabled";
  public static final String KEY_GENERATOR_CLASS = "hoodie.datasource.write.keygenerator.class";
  public static final String KEY_GENERATOR_TYPE = "hoodie.datasource.write.keygenerator.type";
  /** Table config fallbacks, as stored in {@code hoodie.properties}. */
  public static final String TABLE_RECORD_KEY_FIELDS = "hoodie.table.recordkey.fields";
  public static final String TABLE_PARTITION_FIELDS = "hoodie.table.partition.fields";
  public static final String TABLE_KEY_GENERATOR_CLASS = "hoodie.table.keygenerator.class";

  /** Each write option's key → {default, description}, for documentation. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  public KeyGeneratorOptions {
    recordKeyFields = List.copyOf(recordKeyFields);
    partitionFields = List.copyOf(partitionFields);
    for (String field : partitionFields) {
      if (field.contains(":")) {
        throw new InvalidTableException("partition field '" + field + "' uses CustomKeyGenerator syntax "
            + "(field:type), which is not supported");
      }
    }
    if (type == null) {
      type = KeyGeneratorType.infer(recordKeyFields, partitionFields);
    }
    switch (type) {
      case SIMPLE -> {
        if (recordKeyFields.size() > 1 || partitionFields.size() != 1) {
          throw new InvalidTableException("SimpleKeyGenerator needs at most one record key field and one partition "
              + "field, got record key fields " + recordKeyFields + " and partition fields " + partitionFields);
        }
      }
      case NON_PARTITION -> partitionFields = List.of();
      case COMPLEX -> { }
      default -> throw new IllegalStateException(type.name());
    }
  }

  /**
   * True when no record key field is configured: as in Hudi 0.14+, the writer generates each
   * record's key ({@link GeneratedRecordKeys}) and the table takes only inserts.
   */
  public boolean generatesKeys() {
    return recordKeyFields.isEmpty();
  }

  /** Options for the given fields with Hudi's defaults for the rest (no hive style, no url encoding). */
  public static KeyGeneratorOptions of(List<String> recordKeyFields, List<String> partitionFields) {
    return new KeyGeneratorOptions(recordKeyFields, partitionFields, false, false, false, null);
  }

  public KeyGeneratorOptions withHiveStylePartitioning(boolean hiveStyle) {
    return new KeyGeneratorOptions(recordKeyFields, partitionFields, hiveStyle, urlEncodePartitionPath,
        consistentLogicalTimestamp, type);
  }

  public KeyGeneratorOptions withUrlEncodePartitionPath(boolean urlEncode) {
    return new KeyGeneratorOptions(recordKeyFields, partitionFields, hiveStylePartitioning, urlEncode,
        consistentLogicalTimestamp, type);
  }

  /** Reads Hudi's write keys, falling back to the table keys of {@code hoodie.properties}. */
  public static KeyGeneratorOptions fromMap(Map<String, String> conf) {
    List<String> keys = splitFields(firstPresent(conf, RECORD_KEY_FIELD, TABLE_RECORD_KEY_FIELDS));
    List<String> partitions = splitFields(firstPresent(conf, PARTITION_PATH_FIELD, TABLE_PARTITION_FIELDS));
    KeyGeneratorType type = first(conf, KEY_GENERATOR_CLASS, KEY_GENERATOR_TYPE, TABLE_KEY_GENERATOR_CLASS)
        .map(KeyGeneratorType::fromName)
        .orElse(null);
    return new KeyGeneratorOptions(keys, partitions,
        bool(conf, HIVE_STYLE_PARTITIONING), bool(conf, URL_ENCODE_PARTITION_PATH),
        bool(conf, CONSISTENT_LOGICAL_TIMESTAMP), type);
  }

  /** The entries Hudi expects for these options, table keys included (no record key entries when keys are generated). */
  public Map<String, String> toMap() {
    var map = new LinkedHashMap<String, String>();
    if (!generatesKeys()) {
      map.put(RECORD_KEY_FIELD, String.join(",", recordKeyFields));
      map.put(TABLE_RECORD_KEY_FIELDS, String.join(",", recordKeyFields));
    }
    map.put(PARTITION_PATH_FIELD, String.join(",", partitionFields));
    map.put(HIVE_STYLE_PARTITIONING, Boolean.toString(hiveStylePartitioning));
    map.put(URL_ENCODE_PARTITION_PATH, Boolean.toString(urlEncodePartitionPath));
    map.put(CONSISTENT_LOGICAL_TIMESTAMP, Boolean.toString(consistentLogicalTimestamp));
    map.put(TABLE_PARTITION_FIELDS, String.join(",", partitionFields));
    map.put(TABLE_KEY_GENERATOR_CLASS, type.className());
    return Collections.unmodifiableMap(map);
  }

  /** Hudi's field list parsing: split on commas, trim, drop empty entries. */
  public static List<String> splitFields(String value) {
    return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  /** The value of the first key present (even if blank: an explicit "" means "no fields"), else "". */
  private static String firstPresent(Map<String, String> conf, String... keys) {
    for (String key : keys) {
      if (conf.containsKey(key)) {
        return conf.get(key) == null ? "" : conf.get(key);
      }
    }
    return "";
  }

  private static Optional<String> first(Map<String, String> conf, String... keys) {
    for (String key : keys) {
      String value = conf.get(key);
      if (value != null && !value.isBlank()) {
        return Optional.of(value);
      }
    }
    return Optional.empty();
  }

  private static boolean bool(Map<String, String> conf, String key) {
    String value = conf.get(key);
    return value != null && Boolean.parseBoolean(value.trim());
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(RECORD_KEY_FIELD, new String[] {"<" + TABLE_RECORD_KEY_FIELDS + ">",
        "Record key field(s), comma separated; nested fields as a.b.c. Unset on a new table (and no "
            + TABLE_RECORD_KEY_FIELDS + "): the Spark writer generates the keys, as Hudi 0.14+ does, and the table "
            + "takes inserts only."});
    d.put(PARTITION_PATH_FIELD, new String[] {"<" + TABLE_PARTITION_FIELDS + ">",
        "Partition field(s), comma separated; empty = non-partitioned. field:type (CustomKeyGenerator) is not supported. "
            + "A value that would not stay a folder inside the table (a path segment that is empty, '.', '..', "
            + "starts with '.' or holds ':') is refused (docs/CONCEPTS.md#partition-paths)."});
    d.put(HIVE_STYLE_PARTITIONING, new String[] {"false", "Partition folders named field=value."});
    d.put(URL_ENCODE_PARTITION_PATH, new String[] {"false", "Partition values escaped as Hudi's PartitionPathEncodeUtils "
        + "does (%XX for controls and \" # % ' * / : = ? \\ DEL { [ ] ^); '.' is kept, so '.', '..' and '.hoodie' stay refused."});
    d.put(CONSISTENT_LOGICAL_TIMESTAMP, new String[] {"false",
        "timestamp-millis/micros key and partition values as java.sql.Timestamp strings instead of raw longs."});
    d.put(KEY_GENERATOR_CLASS, new String[] {"<" + TABLE_KEY_GENERATOR_CLASS + ", else inferred>",
        "Hudi key generator class: Simple, Complex or NonpartitionedKeyGenerator; inferred from the number of key "
            + "and partition fields when unset. Custom and TimestampBased are not supported."});
    d.put(KEY_GENERATOR_TYPE, new String[] {"", "Key generator by type name (SIMPLE, COMPLEX, NON_PARTITION), instead "
        + "of " + KEY_GENERATOR_CLASS + "."});
    return Collections.unmodifiableMap(d);
  }
}
