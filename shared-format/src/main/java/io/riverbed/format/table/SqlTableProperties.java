package io.riverbed.format.table;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.record.TableSchemas;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * The Hudi table a SQL {@code CREATE TABLE ... USING hudi TBLPROPERTIES (...)} defines, read as
 * Apache Hudi 0.15's SQL layer reads them: each setting by its SQL name ({@code primaryKey},
 * {@code preCombineField}, {@code type}, {@code payloadClass}) or by its write or table option
 * name; Hive-style partition paths unless the properties say otherwise (Hudi's default for tables
 * SQL creates), and the key generator inferred from the key and partition columns. Without a
 * primary key the table's writers generate its record keys, as Hudi 0.14+ does (a precombine
 * field is still stored, as Hudi stores it, and orders nothing: no two records share a key).
 *
 * @param keys record key and partition columns, key generator, partition path style
 * @param precombineField null for a table without one
 * @param type {@code cow} (default) or {@code mor}
 * @param payloadClass null for the table default
 * @param tableVersion {@value WriteTableVersion#KEY}: 6 (default) or 8
 */
public record SqlTableProperties(KeyGeneratorOptions keys, String precombineField, TableType type, String payloadClass,
    int tableVersion) {
  public static final String PRIMARY_KEY = "primaryKey";
  public static final String PRECOMBINE_FIELD = "preCombineField";
  public static final String TYPE = "type";
  public static final String PAYLOAD_CLASS = "payloadClass";

  private static final List<String> PRIMARY_KEY_NAMES = List.of(PRIMARY_KEY, KeyGeneratorOptions.RECORD_KEY_FIELD,
      KeyGeneratorOptions.TABLE_RECORD_KEY_FIELDS);
  private static final List<String> PRECOMBINE_NAMES = List.of(PRECOMBINE_FIELD,
      "hoodie.datasource.write.precombine.field", TableProperty.PRECOMBINE_FIELD.key());
  private static final List<String> TYPE_NAMES = List.of(TYPE, "hoodie.datasource.write.table.type",
      TableProperty.TYPE.key());
  private static final List<String> PAYLOAD_NAMES = List.of(PAYLOAD_CLASS, "hoodie.datasource.write.payload.class",
      TableProperty.PAYLOAD_CLASS.key());

  /** Each SQL table property's name → {default, description}, for documentation. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  /**
   * Reads the properties of {@code statement} (named in errors) creating a table partitioned by
   * {@code partitionColumns}.
   *
   * @throws InvalidTableException naming the property that is missing or has a value Riverbed does not take
   */
  public static SqlTableProperties of(String statement, Map<String, String> properties, List<String> partitionColumns) {
    String primaryKey = first(properties, PRIMARY_KEY_NAMES);
    Map<String, String> keyOptions = new HashMap<>();
    for (String key : List.of(KeyGeneratorOptions.HIVE_STYLE_PARTITIONING, KeyGeneratorOptions.URL_ENCODE_PARTITION_PATH,
        KeyGeneratorOptions.KEY_GENERATOR_CLASS, KeyGeneratorOptions.KEY_GENERATOR_TYPE,
        KeyGeneratorOptions.TABLE_KEY_GENERATOR_CLASS, KeyGeneratorOptions.CONSISTENT_LOGICAL_TIMESTAMP)) {
      if (properties.containsKey(key)) {
        keyOptions.put(key, properties.get(key));
      }
    }
    keyOptions.putIfAbsent(KeyGeneratorOptions.HIVE_STYLE_PARTITIONING, "true");
    keyOptions.put(KeyGeneratorOptions.RECORD_KEY_FIELD, primaryKey == null ? "" : primaryKey);
    keyOptions.put(KeyGeneratorOptions.PARTITION_PATH_FIELD, String.join(",", partitionColumns));
    KeyGeneratorOptions keys;
    try {
      keys = KeyGeneratorOptions.fromMap(keyOptions);
    } catch (InvalidTableException e) {
      throw new InvalidTableException(statement + ": " + e.getMessage(), e);
    }
    String precombine = first(properties, PRECOMBINE_NAMES);
    int tableVersion;
    try {
      tableVersion = WriteTableVersion.fromMap(properties).version();
    } catch (IllegalArgumentException e) {
      throw new InvalidTableException(statement + ": " + e.getMessage(), e);
    }
    return new SqlTableProperties(keys, precombine == null || precombine.isBlank() ? null : precombine.trim(),
        type(statement, properties), first(properties, PAYLOAD_NAMES), tableVersion);
  }

  /**
   * The {@code hoodie.properties} of the table named {@code database.table} holding
   * {@code schema} (no meta fields).
   *
   * @throws InvalidTableException naming a key, precombine or partition column the schema lacks
   */
  public TableConfig toConfig(String statement, String database, String table, Schema schema) {
    try {
      TableSchemas.validateFields(schema, keys.recordKeyFields(), precombineField, keys.partitionFields());
    } catch (InvalidTableException e) {
      throw new InvalidTableException(statement + ": " + e.getMessage(), e);
    }
    TableConfig config = new TableDefinition(table, type, keys, precombineField, payloadClass, schema, tableVersion)
        .toConfig();
    return database == null ? config : config.with(Map.of(TableProperty.DATABASE_NAME.key(), database,
        TableProperty.CHECKSUM.key(), String.valueOf(TableConfig.checksumOf(database, table))));
  }

  /**
   * The SQL names of a table's settings, as Hudi 0.15 adds them to the catalog's table properties
   * ({@code HoodieOptionConfig.extractSqlOptions}): {@code primaryKey} (absent for generated keys),
   * {@code preCombineField} (when the table has one) and {@code type} ({@code cow} or {@code mor}).
   */
  public static Map<String, String> sqlNamesOf(TableConfig config) {
    Map<String, String> names = new LinkedHashMap<>();
    if (!config.recordKeyFields().isEmpty()) {
      names.put(PRIMARY_KEY, String.join(",", config.recordKeyFields()));
    }
    config.precombineField().ifPresent(f -> names.put(PRECOMBINE_FIELD, f));
    names.put(TYPE, config.type() == TableType.MERGE_ON_READ ? "mor" : "cow");
    return names;
  }

  private static TableType type(String statement, Map<String, String> properties) {
    String sql = properties.get(TYPE);
    if (sql != null) {
      return switch (sql.trim().toLowerCase(Locale.ROOT)) {
        case "cow", "copy_on_write" -> TableType.COPY_ON_WRITE;
        case "mor", "merge_on_read" -> TableType.MERGE_ON_READ;
        default -> throw new InvalidTableException(statement + ": TBLPROPERTIES " + TYPE + " = '" + sql
            + "' is neither 'cow' nor 'mor'");
      };
    }
    String option = first(properties, TYPE_NAMES);
    if (option == null) {
      return TableType.COPY_ON_WRITE;
    }
    try {
      return TableType.valueOf(option.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidTableException(statement + ": table type '" + option + "' is neither COPY_ON_WRITE nor "
          + "MERGE_ON_READ");
    }
  }

  private static String first(Map<String, String> properties, List<String> names) {
    for (String name : names) {
      String value = properties.get(name);
      if (value != null && !value.isBlank()) {
        return value.trim();
      }
    }
    return null;
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(PRIMARY_KEY, new String[] {"", "Record key column(s), comma-separated (also "
        + KeyGeneratorOptions.RECORD_KEY_FIELD + "); without it the table's record keys are generated on insert, "
        + "as in Hudi 0.14+; UPDATE and DELETE change its rows by their stored keys, MERGE INTO is not "
        + "supported on it."});
    d.put(PRECOMBINE_FIELD, new String[] {"", "Ordering column: of two rows with one key the larger wins (also "
        + "hoodie.datasource.write.precombine.field)."});
    d.put(TYPE, new String[] {"cow", "cow (COPY_ON_WRITE) or mor (MERGE_ON_READ)."});
    d.put(PAYLOAD_CLASS, new String[] {"", "Payload class stored in hoodie.properties (also "
        + "hoodie.datasource.write.payload.class)."});
    d.put(KeyGeneratorOptions.HIVE_STYLE_PARTITIONING, new String[] {"true", "Partition folders named column=value; "
        + "true for tables SQL creates, as in Hudi."});
    return Collections.unmodifiableMap(d);
  }
}
