package io.riverbed.spark;

import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Spark DataSource {@code hudi}: {@code spark.read.format("hudi").load(basePath)}, or by class
 * name {@code io.riverbed.spark.HudiDataSource} when Apache Hudi's bundle is also on the classpath.
 * Options keep Hudi's names (see {@link ReadOption}).
 */
public class HudiDataSource implements TableProvider, DataSourceRegister {
  private LoadedTable loaded;
  private Map<String, String> loadedWith;

  @Override
  public String shortName() {
    return "hudi";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return load(options).sparkSchema();
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    LoadedTable table = load(properties);
    if (schema != null && !schema.equals(table.sparkSchema())) {
      throw new IllegalArgumentException("hudi: a user-specified schema is not supported; the table's schema is "
          + table.sparkSchema().simpleString());
    }
    return new HudiTable(table);
  }

  @Override
  public boolean supportsExternalMetadata() {
    return false;
  }

  /** Spark asks for the schema and then the table with the same options: plan once for both. */
  private synchronized LoadedTable load(Map<String, String> options) {
    Map<String, String> copy = Map.copyOf(options);
    if (loaded == null || !copy.equals(loadedWith)) {
      loaded = open(copy);
      loadedWith = copy;
    }
    return loaded;
  }

  /** Plans a read of the table the options name, on the active session's Hadoop configuration. */
  static LoadedTable open(Map<String, String> options) {
    ReadOptions read = ReadOptions.from(options);
    return LoadedTable.load(read, read.hadoopConf(SparkSession.active().sessionState().newHadoopConf()));
  }
}
