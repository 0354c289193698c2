package io.riverbed.hive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hive.metastore.TableType;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * What one metastore table registered for a Hudi table holds, as Apache Hudi's sync (hms mode)
 * registers it: data columns (storage schema minus partition columns) and partition keys, the
 * Parquet serde, Hudi's input format (read-optimized or real-time), the base path as location,
 * {@code EXTERNAL}, and Spark's data source properties so Spark SQL reads it as a {@code hudi} table.
 *
 * @param database metastore database
 * @param name metastore table name
 * @param kind which view of the table this metastore table serves
 * @param basePath the table's base path (location, serde {@code path})
 * @param schema the storage schema
 * @param partitionFields partition columns
 * @param options the sync options
 */
public record HiveTableDefinition(String database, String name, Kind kind, String basePath, MessageType schema,
    List<String> partitionFields, HiveSyncOptions options) {

  public static final String PARQUET_SERDE = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
  public static final String PARQUET_OUTPUT_FORMAT = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";
  public static final String READ_OPTIMIZED_INPUT_FORMAT = "org.apache.hudi.hadoop.HoodieParquetInputFormat";
  public static final String REALTIME_INPUT_FORMAT = "org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat";
  /** Serde property naming the base path, read by Spark's data source resolution. */
  public static final String SERDE_PATH = "path";
  /** Serde property telling Hudi's Spark integration to read the table read-optimized. */
  public static final String QUERY_AS_RO_TABLE = "hoodie.query.as.ro.table";
  public static final String LAST_COMMIT_TIME_SYNC = "last_commit_time_sync";
  public static final String LAST_COMMIT_COMPLETION_TIME_SYNC = "last_commit_completion_time_sync";

  /** How a metastore table reads the Hudi table. */
  public enum Kind {
    /** A COPY_ON_WRITE table: base files, Hudi's input format. */
    COPY_ON_WRITE(READ_OPTIMIZED_INPUT_FORMAT, false),
    /** MERGE_ON_READ read-optimized ({@code _ro}): base files only. */
    READ_OPTIMIZED(READ_OPTIMIZED_INPUT_FORMAT, true),
    /** MERGE_ON_READ snapshot ({@code _rt}): base files merged with logs. */
    REALTIME(REALTIME_INPUT_FORMAT, false);

    private final String inputFormat;
    private final boolean readAsOptimized;

    Kind(String inputFormat, boolean readAsOptimized) {
      this.inputFormat = inputFormat;
      this.readAsOptimized = readAsOptimized;
    }

    public String inputFormat() {
      return inputFormat;
    }
  }

  public HiveTableDefinition {
    partitionFields = List.copyOf(partitionFields);
  }

  /** Data columns: the storage schema's fields, partition columns left out, Hudi's Hive types. */
  public List<FieldSchema> columns() {
    var columns = new ArrayList<FieldSchema>();
    for (Type field : schema.getFields()) {
      if (!partitionFields.contains(field.getName())) {
        columns.add(new FieldSchema(field.getName(), HiveTypes.of(field, options.supportTimestamp()), ""));
      }
    }
    return columns;
  }

  /** Partition keys, typed from the schema (string when a partition field is not in it). */
  public List<FieldSchema> partitionKeys() {
    var keys = new ArrayList<FieldSchema>();
    for (String field : partitionFields) {
      String type = schema.containsField(field) ? HiveTypes.of(schema.getType(field), options.supportTimestamp()) : "string";
      keys.add(new FieldSchema(field, type, ""));
    }
    return keys;
  }

  /** Serde properties: the configured ones, then (as a data source table) {@code path} and {@code hoodie.query.as.ro.table}. */
  public Map<String, String> serdeProperties() {
    var props = new HashMap<>(options.serdeProperties());
    if (options.syncAsDataSource()) {
      props.put(SERDE_PATH, basePath);
      props.put(QUERY_AS_RO_TABLE, Boolean.toString(kind.readAsOptimized));
    }
    props.put("serialization.format", "1");
    return props;
  }

  /**
   * Table properties the sync owns: the configured ones and (as a data source table) Spark's:
   * provider {@code hudi}, the schema JSON (partition columns last) in parts, the partition columns.
   */
  public Map<String, String> tableProperties() {
    var props = new LinkedHashMap<>(options.tableProperties());
    if (!options.syncAsDataSource()) {
      return props;
    }
    props.put("spark.sql.sources.provider", "hudi");
    if (!options.sparkVersion().isEmpty()) {
      props.put("spark.sql.create.version", options.sparkVersion());
    }
    var ordered = new ArrayList<Type>();
    schema.getFields().stream().filter(f -> !partitionFields.contains(f.getName())).forEach(ordered::add);
    for (String field : partitionFields) {
      ordered.add(schema.containsField(field) ? schema.getType(field)
          : org.apache.parquet.schema.Types.required(PrimitiveType.PrimitiveTypeName.BINARY)
              .as(org.apache.parquet.schema.LogicalTypeAnnotation.stringType()).named(field));
    }
    String json = SparkSchemaJson.of(ordered);
    int size = options.schemaLengthThreshold();
    int parts = (json.length() + size - 1) / size;
    props.put("spark.sql.sources.schema.numParts", Integer.toString(parts));
    for (int i = 0; i < parts; i++) {
      props.put("spark.sql.sources.schema.part." + i, json.substring(i * size, Math.min(json.length(), (i + 1) * size)));
    }
    if (!partitionFields.isEmpty()) {
      props.put("spark.sql.sources.schema.numPartCols", Integer.toString(partitionFields.size()));
      for (int i = 0; i < partitionFields.size(); i++) {
        props.put("spark.sql.sources.schema.partCol." + i, partitionFields.get(i));
      }
    }
    return props;
  }

  /** The storage descriptor: columns, formats, serde, location. */
  public StorageDescriptor storageDescriptor() {
    StorageDescriptor sd = new StorageDescriptor();
    sd.setCols(columns());
    sd.setInputFormat(kind.inputFormat);
    sd.setOutputFormat(PARQUET_OUTPUT_FORMAT);
    sd.setLocation(basePath);
    sd.setSerdeInfo(new SerDeInfo(null, PARQUET_SERDE, serdeProperties()));
    return sd;
  }

  /** A new metastore table, as first registered. */
  public Table newTable() {
    Table table = new Table();
    table.setDbName(database);
    table.setTableName(name);
    table.setOwner(currentUser());
    table.setCreateTime((int) (System.currentTimeMillis() / 1000));
    table.setSd(storageDescriptor());
    table.setPartitionKeys(partitionKeys());
    table.setParameters(new HashMap<>());
    if (options.createManagedTable()) {
      table.setTableType(TableType.MANAGED_TABLE.toString());
    } else {
      table.putToParameters("EXTERNAL", "TRUE");
      table.setTableType(TableType.EXTERNAL_TABLE.toString());
    }
    tableProperties().forEach(table::putToParameters);
    return table;
  }

  static String currentUser() {
    try {
      return UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot tell the current user (the table owner)", e);
    }
  }
}
