package io.riverbed.spark.sql;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.TableException;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.SqlTableProperties;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.spark.write.SparkAvroSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * The new Hudi table of a SQL {@code CREATE TABLE t (cols) USING hudi [PARTITIONED BY (c)]
 * TBLPROPERTIES (...)} (or a CTAS): its {@code hoodie.properties} as Apache Hudi 0.15 writes them
 * for a table SQL creates ({@link SqlTableProperties}: table and database name, keys, precombine
 * field, type, Hive-style partitioning, the inferred key generator, the create schema), written at
 * the table's location.
 */
public final class TableCreation {
  private TableCreation() {}

  /**
   * Creates the table {@code database.name} at {@code location}.
   *
   * @param properties the catalog properties: {@code TBLPROPERTIES}, and {@code OPTIONS} under
   *     Spark's {@code option.} prefix
   * @throws InvalidTableException naming the statement and what in it Riverbed cannot create
   */
  public static Table create(String database, String name, StructType columns, Transform[] partitioning,
      Map<String, String> properties, String location, Configuration conf) {
    String statement = "CREATE TABLE " + (database == null ? "" : database + ".") + name + " USING hudi";
    if (columns.isEmpty()) {
      throw new InvalidTableException(statement + ": give the table's columns to create it, or a LOCATION that "
          + "holds a Hudi table to register it");
    }
    for (String column : columns.fieldNames()) {
      if (MetaFields.ALL.contains(column)) {
        throw new InvalidTableException(statement + ": column " + column + " is a Hudi meta column, which every "
            + "table has; leave it out");
      }
    }
    List<String> partitionColumns = partitionColumns(statement, partitioning, columns);
    SqlTableProperties sql = SqlTableProperties.of(statement, sqlProperties(properties), partitionColumns);
    Schema schema = SparkAvroSchema.toAvro(columns, TableSchemas.recordName(name), TableSchemas.namespace(name));
    TableConfig config = sql.toConfig(statement, database, name, schema);
    Path base = new Path(location);
    try {
      FileSystem fs = base.getFileSystem(conf);
      return Table.create(fs, base, config);
    } catch (IOException e) {
      throw new TableException(statement + ": cannot reach the file system of " + location + ": " + e.getMessage(), e);
    }
  }

  /** Table properties with the {@code OPTIONS} of the statement, as Hudi reads both. */
  static Map<String, String> sqlProperties(Map<String, String> properties) {
    Map<String, String> merged = new HashMap<>();
    properties.forEach((k, v) -> {
      if (k.startsWith(TableCatalog.OPTION_PREFIX)) {
        merged.putIfAbsent(k.substring(TableCatalog.OPTION_PREFIX.length()), v);
      }
    });
    properties.forEach((k, v) -> {
      if (!k.startsWith(TableCatalog.OPTION_PREFIX)) {
        merged.put(k, v);
      }
    });
    return merged;
  }

  private static List<String> partitionColumns(String statement, Transform[] partitioning, StructType columns) {
    List<String> names = new ArrayList<>();
    for (Transform t : partitioning) {
      if (!"identity".equals(t.name()) || t.references().length != 1 || t.references()[0].fieldNames().length != 1) {
        throw new InvalidTableException(statement + ": PARTITIONED BY " + t.describe() + " is not supported; "
            + "partition by columns of the table");
      }
      String column = t.references()[0].fieldNames()[0];
      if (columns.getFieldIndex(column).isEmpty()) {
        throw new InvalidTableException(statement + ": partition column " + column + " is not among the columns "
            + List.of(columns.fieldNames()));
      }
      names.add(column);
    }
    return names;
  }
}
