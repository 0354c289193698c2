package io.riverbed.hive;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hive.metastore.TableType;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.SkewedInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;

/**
 * The Hive table a Spark SQL catalog keeps for a Hudi table it created, made and changed over thrift
 * as Spark's Hive client makes and changes it for Apache Hudi 0.15's catalog: Spark's client loads the
 * input format class of every table it writes, and Riverbed's Spark bundle carries no Hudi input
 * format, so Riverbed's catalog names them here as strings. A new table has Hive's empty-table layout (no buckets,
 * {@code serialization.format=1}), the columns without comments, the partition keys, Hudi's input
 * format, Parquet's output format and serde, and the properties given; {@code EXTERNAL=TRUE} when
 * external.
 */
public final class CatalogHiveTables {
  private static final String SCHEMA_PREFIX = "spark.sql.sources.schema";
  private static final String PARTITION_PROVIDER = "spark.sql.partitionProvider";

  private CatalogHiveTables() {}

  /** A column: its name and Hive type ({@code bigint}, {@code array<string>}, ...). */
  public record Column(String name, String type) {}

  /**
   * A table to register.
   *
   * @param location the base path, qualified; also the serde's {@code path}
   * @param columns the data columns (meta columns first), partition columns left out
   * @param properties the table properties (Spark's data source ones among them)
   */
  public record Definition(String database, String name, boolean external, String location, List<Column> columns,
      List<Column> partitionKeys, String inputFormat, Map<String, String> properties) {
    public Definition {
      columns = List.copyOf(columns);
      partitionKeys = List.copyOf(partitionKeys);
      properties = Map.copyOf(properties);
    }
  }

  /** Registers {@code definition}. */
  public static void create(MetastoreClient client, Definition definition) {
    client.createTable(table(definition, HiveTableDefinition.currentUser(), (int) (System.currentTimeMillis() / 1000)));
  }

  /** The metastore table {@code definition} makes, owned by {@code owner}, created at {@code createTime} (seconds). */
  static Table table(Definition definition, String owner, int createTime) {
    StorageDescriptor sd = new StorageDescriptor();
    sd.setCols(fields(definition.columns()));
    sd.setLocation(definition.location());
    sd.setInputFormat(definition.inputFormat());
    sd.setOutputFormat(HiveTableDefinition.PARQUET_OUTPUT_FORMAT);
    sd.setCompressed(false);
    sd.setNumBuckets(-1);
    sd.setBucketCols(new ArrayList<>());
    sd.setSortCols(new ArrayList<>());
    sd.setParameters(new HashMap<>());
    Map<String, String> serde = new HashMap<>();
    serde.put("serialization.format", "1");
    serde.put(HiveTableDefinition.SERDE_PATH, definition.location());
    sd.setSerdeInfo(new SerDeInfo(null, HiveTableDefinition.PARQUET_SERDE, serde));
    sd.setSkewedInfo(new SkewedInfo(new ArrayList<>(), new ArrayList<>(), new HashMap<>()));
    Table table = new Table();
    table.setDbName(definition.database());
    table.setTableName(definition.name());
    table.setOwner(owner);
    table.setCreateTime(createTime);
    table.setLastAccessTime(0);
    table.setSd(sd);
    table.setPartitionKeys(fields(definition.partitionKeys()));
    table.setParameters(new HashMap<>(definition.properties()));
    if (definition.external()) {
      table.putToParameters("EXTERNAL", "TRUE");
      table.setTableType(TableType.EXTERNAL_TABLE.toString());
    } else {
      table.setTableType(TableType.MANAGED_TABLE.toString());
    }
    return table;
  }

  /**
   * {@code ALTER TABLE database.from RENAME TO to}, as Spark's catalog renames a data source table: a
   * managed table's serde {@code path} follows the folder the metastore moves it to, {@code newLocation}.
   */
  public static void rename(MetastoreClient client, String database, String from, String to, String newLocation) {
    Table table = client.getTable(database, from);
    table.setTableName(to);
    if (TableType.MANAGED_TABLE.toString().equals(table.getTableType())
        && table.getSd().getSerdeInfo().getParameters().containsKey(HiveTableDefinition.SERDE_PATH)) {
      table.getSd().getSerdeInfo().putToParameters(HiveTableDefinition.SERDE_PATH, newLocation);
    }
    client.alterTable(from, table);
  }

  /**
   * {@code ALTER TABLE ... SET/UNSET TBLPROPERTIES}, as Spark's catalog alters a data source table: the
   * properties set and removed, and {@code spark.sql.partitionProvider=filesystem} (the partitions are the
   * table's, not the catalog's).
   */
  public static void alterProperties(MetastoreClient client, String database, String name, Map<String, String> set,
      List<String> removed) {
    Table table = client.getTable(database, name);
    removed.forEach(key -> table.getParameters().remove(key));
    set.forEach(table::putToParameters);
    table.putToParameters(PARTITION_PROVIDER, "filesystem");
    client.alterTable(table, false);
  }

  /**
   * New data columns, as Spark's catalog sets them ({@code alterTableDataSchema}): the columns, and the
   * schema properties replaced by {@code schemaProperties} (Spark's schema JSON and partition columns).
   */
  public static void alterDataColumns(MetastoreClient client, String database, String name, List<Column> columns,
      Map<String, String> schemaProperties) {
    Table table = client.getTable(database, name);
    table.getSd().setCols(fields(columns));
    table.getParameters().keySet().removeIf(key -> key.startsWith(SCHEMA_PREFIX));
    schemaProperties.forEach(table::putToParameters);
    client.alterTable(table, false);
  }

  private static List<FieldSchema> fields(List<Column> columns) {
    return new ArrayList<>(columns.stream().map(c -> new FieldSchema(c.name(), c.type(), null)).toList());
  }
}
