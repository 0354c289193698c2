package io.riverbed.spark.sql;

import io.riverbed.format.TableException;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.table.SqlTableProperties;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.hive.CatalogHiveTables;
import io.riverbed.hive.HiveTableDefinition;
import io.riverbed.hive.MetastoreClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.collection.JavaConverters;

/**
 * The Hive table Apache Hudi 0.15's catalog registers for a Hudi table Spark SQL creates on a session
 * whose catalog is the Hive metastore ({@code CreateHoodieTableCommand.createHiveDataSourceTable}),
 * and the changes its {@code ALTER TABLE}s make to it: the table's columns (meta columns first) and
 * partition columns, Hudi's input format (the realtime one for MERGE_ON_READ), Parquet's output format
 * and serde, the location with serde property {@code path}, the statement's {@code TBLPROPERTIES} and
 * {@code provider} with {@code primaryKey}, {@code preCombineField} and {@code type} from the table,
 * and Spark's data source properties ({@code spark.sql.sources.provider=hudi}, the schema, the
 * partition columns). Hive sync then alters that table in place, and Spark reads it as a {@code hudi}
 * data source table. It reaches the metastore over thrift ({@link CatalogHiveTables}), since Spark's
 * Hive client loads the input format classes, which Riverbed's Spark bundle does not carry; so it
 * needs the metastore's URI ({@link HiveCatalogSession#registersHiveTables}). It is loaded only then,
 * with the optional hive-sync module.
 */
public final class HiveTableRegistration {
  /**
   * Catalog properties Hudi 0.15's registration leaves out of the table's (seen in a metastore it
   * wrote): Spark's reserved ones but {@code provider}, and the table settings
   * {@code HoodieCatalogTable.needFilterProps} names.
   */
  private static final List<String> LEFT_OUT = List.of(TableCatalog.PROP_LOCATION, TableCatalog.PROP_OWNER,
      TableCatalog.PROP_COMMENT, TableCatalog.PROP_EXTERNAL, TableCatalog.PROP_IS_MANAGED_LOCATION, "path",
      "hoodie.database.name", "hoodie.table.name", "hoodie.datasource.write.operation");
  private static final String SCHEMA_PART_LENGTH = "spark.sql.sources.schemaStringLengthThreshold";

  private HiveTableRegistration() {}

  /**
   * Registers the Hudi table at {@code location} as {@code database.table} in the session's Hive metastore.
   *
   * @param columns the table's columns without meta columns, in the table's order
   * @param catalogProperties the properties Spark passed the catalog for the statement (its
   *     {@code TBLPROPERTIES}, {@code provider}, {@code location}, {@code owner}, {@code option.*})
   * @param location the table's base path, qualified ({@code file:/...}, {@code hdfs://nn/...})
   * @param external whether the statement gave a {@code LOCATION}
   * @throws TableException naming the table when the metastore refuses it
   */
  public static void register(SparkSession spark, String database, String table, StructType columns, TableConfig config,
      Map<String, String> catalogProperties, String location, boolean external) {
    CatalogHiveTables.Definition definition = definition(database, table, columns, config, catalogProperties, location,
        external, spark.version(), schemaPartLength(spark));
    withMetastore(spark, "CREATE TABLE " + database + "." + table + " USING hudi",
        client -> CatalogHiveTables.create(client, definition));
  }

  /** {@code ALTER TABLE database.from RENAME TO to} of a table {@link HiveCatalogSession#isHudiHiveTable}. */
  public static void rename(SparkSession spark, String database, String from, String to) {
    String newLocation = spark.sessionState().catalog().defaultTablePath(new TableIdentifier(to, Option.apply(database)))
        .toString();
    withMetastore(spark, "ALTER TABLE " + database + "." + from + " RENAME TO " + to,
        client -> CatalogHiveTables.rename(client, database, from, to, newLocation));
    spark.sessionState().catalog().invalidateCachedTable(new TableIdentifier(from, Option.apply(database)));
  }

  /** {@code ALTER TABLE ... SET/UNSET TBLPROPERTIES} on a table {@link HiveCatalogSession#isHudiHiveTable}. */
  public static void alterProperties(SparkSession spark, TableIdentifier table, List<TableChange> changes) {
    Map<String, String> set = new LinkedHashMap<>();
    List<String> removed = new ArrayList<>();
    for (TableChange change : changes) {
      if (change instanceof TableChange.SetProperty property) {
        set.put(property.property(), property.value());
      } else if (change instanceof TableChange.RemoveProperty property) {
        removed.add(property.property());
      }
    }
    withMetastore(spark, "ALTER TABLE " + table.unquotedString(), client -> CatalogHiveTables.alterProperties(client,
        table.database().get(), table.table(), set, removed));
    spark.sessionState().catalog().refreshTable(table);
  }

  /**
   * After {@code ALTER TABLE ... ADD COLUMNS} or {@code CHANGE COLUMN} committed {@code changes} to a
   * table {@link HiveCatalogSession#isHudiHiveTable}, its metastore columns and Spark schema, as Hudi 0.15's
   * {@code AlterHoodieTableAddColumnsCommand} and {@code AlterHoodieTableChangeColumnCommand} leave
   * them ({@code SessionCatalog.alterTableDataSchema}): added columns at the end of the data columns,
   * changed ones with their new type.
   */
  public static void alterDataSchema(SparkSession spark, TableIdentifier table, List<TableChange> changes) {
    CatalogTable registered = HiveCatalogSession.catalogTable(spark, table);
    List<StructField> fields = new ArrayList<>(List.of(registered.dataSchema().fields()));
    for (TableChange change : changes) {
      if (change instanceof TableChange.AddColumn add) {
        fields.add(new StructField(add.fieldNames()[0], add.dataType(), add.isNullable(), Metadata.empty()));
      } else if (change instanceof TableChange.UpdateColumnType update) {
        fields.replaceAll(f -> f.name().equalsIgnoreCase(update.fieldNames()[0])
            ? new StructField(f.name(), update.newDataType(), true, Metadata.empty()) : f);
      }
    }
    StructType data = new StructType(fields.toArray(StructField[]::new));
    List<StructField> all = new ArrayList<>(fields);
    all.addAll(List.of(registered.partitionSchema().fields()));
    Map<String, String> schema = schemaProperties(new StructType(all.toArray(StructField[]::new)),
        JavaConverters.seqAsJavaList(registered.partitionColumnNames()), schemaPartLength(spark));
    withMetastore(spark, "ALTER TABLE " + table.unquotedString(), client -> CatalogHiveTables.alterDataColumns(client,
        table.database().get(), table.table(), hiveColumns(data), schema));
    spark.sessionState().catalog().refreshTable(table);
  }

  /** The table Hudi 0.15 registers (see the class comment). */
  static CatalogHiveTables.Definition definition(String database, String table, StructType columns, TableConfig config,
      Map<String, String> catalogProperties, String location, boolean external, String sparkVersion, int partLength) {
    StructType schema = withMetaColumns(columns);
    List<StructField> data = new ArrayList<>();
    List<StructField> partitions = new ArrayList<>();
    for (StructField field : schema.fields()) {
      (config.partitionFields().contains(field.name()) ? partitions : data).add(field);
    }
    Map<String, String> properties = new LinkedHashMap<>(dataSourceProperties(schema,
        partitions.stream().map(StructField::name).toList(), sparkVersion, partLength));
    catalogProperties.forEach((key, value) -> {
      if (!LEFT_OUT.contains(key) && !key.startsWith(TableCatalog.OPTION_PREFIX)) {
        properties.put(key, value);
      }
    });
    properties.putAll(SqlTableProperties.sqlNamesOf(config));
    Optional.ofNullable(catalogProperties.get(TableCatalog.PROP_COMMENT)).ifPresent(c -> properties.put("comment", c));
    String inputFormat = config.type() == TableType.MERGE_ON_READ
        ? HiveTableDefinition.REALTIME_INPUT_FORMAT : HiveTableDefinition.READ_OPTIMIZED_INPUT_FORMAT;
    return new CatalogHiveTables.Definition(database, table, external, location,
        hiveColumns(new StructType(data.toArray(StructField[]::new))),
        hiveColumns(new StructType(partitions.toArray(StructField[]::new))), inputFormat, properties);
  }

  /** The five meta columns (nullable strings, as Hudi adds them), then {@code columns}. */
  static StructType withMetaColumns(StructType columns) {
    List<StructField> fields = new ArrayList<>();
    MetaFields.ALL.forEach(name -> fields.add(new StructField(name, DataTypes.StringType, true, Metadata.empty())));
    for (StructField field : columns.fields()) {
      if (!MetaFields.ALL.contains(field.name())) {
        fields.add(field);
      }
    }
    return new StructType(fields.toArray(StructField[]::new));
  }

  /**
   * Spark's properties of a data source table as Hudi's registration writes them (its fork of
   * {@code HiveExternalCatalog.tableMetaToTableProps}): provider, creating version, the schema's JSON
   * in parts of at most {@code partLength} characters, the partition columns.
   */
  static Map<String, String> dataSourceProperties(StructType schema, List<String> partitionColumns, String sparkVersion,
      int partLength) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("spark.sql.sources.provider", "hudi");
    properties.put("spark.sql.create.version", sparkVersion);
    properties.putAll(schemaParts(schema.json(), partLength));
    properties.putAll(partitionColumnProperties(partitionColumns));
    return properties;
  }

  /**
   * The schema properties Spark's catalog writes when it changes a table's schema
   * ({@code CatalogTable.splitLargeTableProp}): one {@code spark.sql.sources.schema} up to
   * {@code partLength} characters, else parts; then the partition columns.
   */
  static Map<String, String> schemaProperties(StructType schema, List<String> partitionColumns, int partLength) {
    String json = schema.json();
    Map<String, String> properties = new LinkedHashMap<>();
    if (json.length() <= partLength) {
      properties.put("spark.sql.sources.schema", json);
    } else {
      properties.putAll(schemaParts(json, partLength));
    }
    properties.putAll(partitionColumnProperties(partitionColumns));
    return properties;
  }

  /** The schema's JSON as {@code spark.sql.sources.schema.numParts} and parts of at most {@code partLength} characters. */
  private static Map<String, String> schemaParts(String json, int partLength) {
    Map<String, String> properties = new LinkedHashMap<>();
    int parts = (json.length() + partLength - 1) / partLength;
    properties.put("spark.sql.sources.schema.numParts", String.valueOf(parts));
    for (int i = 0; i < parts; i++) {
      properties.put("spark.sql.sources.schema.part." + i,
          json.substring(i * partLength, Math.min(json.length(), (i + 1) * partLength)));
    }
    return properties;
  }

  private static Map<String, String> partitionColumnProperties(List<String> partitionColumns) {
    Map<String, String> properties = new LinkedHashMap<>();
    if (!partitionColumns.isEmpty()) {
      properties.put("spark.sql.sources.schema.numPartCols", String.valueOf(partitionColumns.size()));
      for (int i = 0; i < partitionColumns.size(); i++) {
        properties.put("spark.sql.sources.schema.partCol." + i, partitionColumns.get(i));
      }
    }
    return properties;
  }

  /** Columns as Spark's Hive client types them ({@code DataType.catalogString}). */
  private static List<CatalogHiveTables.Column> hiveColumns(StructType schema) {
    return java.util.Arrays.stream(schema.fields())
        .map(f -> new CatalogHiveTables.Column(f.name(), f.dataType().catalogString())).toList();
  }

  private static int schemaPartLength(SparkSession spark) {
    return Integer.parseInt(spark.conf().get(SCHEMA_PART_LENGTH, "4000"));
  }

  private static void withMetastore(SparkSession spark, String statement, Consumer<MetastoreClient> action) {
    String uris = HiveCatalogSession.metastoreUris(spark).orElseThrow();
    try (MetastoreClient client = MetastoreClient.connect(uris, spark.sessionState().newHadoopConf())) {
      action.accept(client);
    } catch (RuntimeException e) {
      throw new TableException(statement + ": the Hive metastore refused it: " + e.getMessage(), e);
    }
  }
}
