package io.riverbed.flink.catalog;

import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.flink.sql.HudiTableFactory;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.hive.HiveSyncOptions;
import io.riverbed.hive.HiveTableDefinition;
import io.riverbed.hive.TableState;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * The metastore table the {@code hms} mode keeps for a Hudi table, as Apache Hudi 0.15's
 * {@code HoodieHiveCatalog} registers one, so Spark and Hive read it and Flink gets its DDL back:
 * <ul>
 *   <li>columns (meta columns first), partition keys, Hudi's input format (the real-time one for
 *       MERGE_ON_READ), Parquet's serde, the location and Spark's data source properties, exactly
 *       as hive-sync registers the table ({@link HiveTableDefinition}), so the syncs after commits
 *       find it up to date;</li>
 *   <li>in its parameters, the Flink DDL: its options, {@code connector}, {@code path}, the record
 *       key ({@code hoodie.datasource.write.recordkey.field}), {@code pk.constraint.name} and
 *       {@code comment};</li>
 *   <li>in its serde properties, Spark's names of the table's settings: {@code primaryKey},
 *       {@code type} ({@code cow}/{@code mor}) and {@code preCombineField}.</li>
 * </ul>
 */
final class HiveTableEntry {
  static final String PK_CONSTRAINT_NAME = "pk.constraint.name";
  static final String COMMENT = "comment";
  static final String EXTERNAL = "EXTERNAL";
  private static final String EXTERNAL_TABLE = org.apache.hadoop.hive.metastore.TableType.EXTERNAL_TABLE.toString();
  private static final String SPARK_PROVIDER = "spark.sql.sources.provider";
  private static final String SPARK_PREFIX = "spark.sql.";
  /** Parameters the metastore, Spark, hive-sync or this class own: not options of the Flink table. */
  private static final Set<String> NOT_OPTIONS = Set.of(EXTERNAL, COMMENT, PK_CONSTRAINT_NAME, FactoryUtil.CONNECTOR.key(),
      HudiConnectorOptions.PATH.key(), HiveTableDefinition.LAST_COMMIT_TIME_SYNC,
      HiveTableDefinition.LAST_COMMIT_COMPLETION_TIME_SYNC, "transient_lastDdlTime", "numFiles", "numFilesErasureCoded",
      "numRows", "rawDataSize", "totalSize", "COLUMN_STATS_ACCURATE", "bucketing_version", "last_modified_by",
      "last_modified_time");

  private HiveTableEntry() {}

  /**
   * The entry of the Hudi table {@code table} (created, its {@code hoodie.properties} written) at
   * {@code location} (its base path as the DDL's writer options name it) as {@code database.name},
   * with the DDL's {@code definition}.
   */
  static org.apache.hadoop.hive.metastore.api.Table of(String database, String name, String location, Table table,
      TableDefinition definition, boolean external) {
    org.apache.hadoop.hive.metastore.api.Table entry = syncDefinition(database, name, location, table, external).newTable();
    Map<String, String> parameters = entry.getParameters();
    parameters.putAll(definition.options());
    parameters.put(FactoryUtil.CONNECTOR.key(), HudiTableFactory.IDENTIFIER);
    parameters.put(HudiConnectorOptions.PATH.key(), location);
    if (!definition.primaryKey().isEmpty()) {
      parameters.put(FlinkWriteOptions.RECORD_KEY_FIELD, String.join(",", definition.primaryKey()));
      if (definition.constraintName() != null) {
        parameters.put(PK_CONSTRAINT_NAME, definition.constraintName());
      }
    }
    if (definition.comment() != null && !definition.comment().isEmpty()) {
      parameters.put(COMMENT, definition.comment());
    }
    TableConfig config = table.config();
    Map<String, String> serde = entry.getSd().getSerdeInfo().getParameters();
    serde.put("type", config.type() == TableType.MERGE_ON_READ ? "mor" : "cow");
    serde.put("primaryKey", String.join(",", config.recordKeyFields()));
    config.precombineField().ifPresent(field -> serde.put("preCombineField", field));
    return entry;
  }

  /** Whether {@code entry} is a Hudi table: one a Flink catalog created, or a Spark data source table of provider hudi. */
  static boolean isHudiTable(org.apache.hadoop.hive.metastore.api.Table entry) {
    return isFlinkTable(entry) || HudiTableFactory.IDENTIFIER.equalsIgnoreCase(parameters(entry).get(SPARK_PROVIDER));
  }

  /** The table's location, its base path. */
  static String location(org.apache.hadoop.hive.metastore.api.Table entry) {
    return entry.getSd().getLocation();
  }

  /**
   * The Flink definition kept in {@code entry}; for a Hudi table no Flink catalog created (Spark's,
   * or the {@code _ro}/{@code _rt} tables a sync registers), what {@code config} says, read
   * optimized when the entry's serde says so.
   */
  static TableDefinition definition(org.apache.hadoop.hive.metastore.api.Table entry, TableConfig config) {
    Map<String, String> parameters = parameters(entry);
    String comment = parameters.get(COMMENT);
    var partitionKeys = entry.getPartitionKeys() == null ? java.util.List.<String>of()
        : entry.getPartitionKeys().stream().map(FieldSchema::getName).toList();
    if (!isFlinkTable(entry)) {
      TableDefinition fromConfig = TableDefinition.fromTableConfig(config);
      Map<String, String> options = new HashMap<>(fromConfig.options());
      Map<String, String> serde = entry.getSd().getSerdeInfo() == null ? Map.of() : entry.getSd().getSerdeInfo().getParameters();
      if (serde != null && Boolean.parseBoolean(serde.get(HiveTableDefinition.QUERY_AS_RO_TABLE))) {
        options.put(HudiConnectorOptions.QUERY_TYPE.key(), "read_optimized");
      }
      return new TableDefinition(options, fromConfig.primaryKey(), null, partitionKeys, comment);
    }
    return new TableDefinition(options(parameters), TableDefinition.columnList(parameters.get(FlinkWriteOptions.RECORD_KEY_FIELD)),
        parameters.get(PK_CONSTRAINT_NAME), partitionKeys, comment);
  }

  /** Replaces the Flink options kept in {@code entry} by {@code given}; the record key and what others own stay. */
  static void setOptions(org.apache.hadoop.hive.metastore.api.Table entry, Map<String, String> given) {
    Map<String, String> parameters = entry.getParameters();
    String recordKey = parameters.get(FlinkWriteOptions.RECORD_KEY_FIELD);
    options(parameters).keySet().forEach(parameters::remove);
    parameters.putAll(given);
    if (recordKey != null) {
      parameters.putIfAbsent(FlinkWriteOptions.RECORD_KEY_FIELD, recordKey);
    }
  }

  /**
   * Sets the columns and Spark's schema of {@code entry} to the schema of {@code table} now (after
   * {@code ALTER TABLE ADD}), as hive-sync's next sync would.
   */
  static void setColumns(org.apache.hadoop.hive.metastore.api.Table entry, Table table) {
    HiveTableDefinition wanted = syncDefinition(entry.getDbName(), entry.getTableName(), location(entry), table,
        EXTERNAL_TABLE.equals(entry.getTableType()));
    StorageDescriptor sd = entry.getSd();
    sd.setCols(wanted.columns());
    entry.getParameters().keySet().removeIf(key -> key.startsWith("spark.sql.sources.schema"));
    entry.getParameters().putAll(wanted.tableProperties());
  }

  /**
   * The table as hive-sync registers it with the options Riverbed's Flink writer syncs with
   * ({@code hive_sync.*} defaults: timestamps as Hive timestamps), its kind Hudi's catalog's choice:
   * the real-time view for MERGE_ON_READ.
   */
  private static HiveTableDefinition syncDefinition(String database, String name, String location, Table table,
      boolean external) {
    HiveSyncOptions options = HiveSyncOptions.fromMap(Map.of(
        HiveSyncOptions.BASE_PATH, location,
        HiveSyncOptions.DATABASE, database,
        HiveSyncOptions.TABLE, name,
        HiveSyncOptions.SUPPORT_TIMESTAMP, "true",
        HiveSyncOptions.CREATE_MANAGED_TABLE, Boolean.toString(!external)));
    HiveTableDefinition.Kind kind = table.config().type() == TableType.MERGE_ON_READ
        ? HiveTableDefinition.Kind.REALTIME : HiveTableDefinition.Kind.COPY_ON_WRITE;
    return new HiveTableDefinition(database, name, kind, location, TableState.read(table, true).storageSchema(),
        options.partitionFields(table.config()), options);
  }

  /** Whether a Flink catalog created {@code entry} ({@code connector=hudi} among its parameters). */
  static boolean isFlinkTable(org.apache.hadoop.hive.metastore.api.Table entry) {
    return HudiTableFactory.IDENTIFIER.equalsIgnoreCase(parameters(entry).get(FactoryUtil.CONNECTOR.key()));
  }

  private static Map<String, String> options(Map<String, String> parameters) {
    Map<String, String> options = new HashMap<>();
    parameters.forEach((key, value) -> {
      if (!NOT_OPTIONS.contains(key) && !key.startsWith(SPARK_PREFIX)) {
        options.put(key, value);
      }
    });
    return options;
  }

  private static Map<String, String> parameters(org.apache.hadoop.hive.metastore.api.Table entry) {
    return entry.getParameters() == null ? Map.of() : entry.getParameters();
  }
}
