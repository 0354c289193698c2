package io.riverbed.spark;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.write.batch.SaveMode;
import io.riverbed.spark.write.BatchWrite;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.sources.RelationProvider;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.collection.JavaConverters;

/**
 * The Spark DataSource {@code hudi}: {@code spark.read.format("hudi").load(basePath)} and
 * {@code df.write.format("hudi").mode(m).save(basePath)}, or by class name
 * {@code io.riverbed.spark.HudiDataSource} when Apache Hudi's bundle is also on the classpath.
 * Options keep Hudi's names (see {@link ReadOption}, {@link io.riverbed.format.write.batch.BatchWriteOptions}).
 *
 * <p>Reads are DataSource V2 ({@link HudiTable}). Writes take Spark's V1 path, as Hudi's own
 * source does: Spark 3.5's {@code DataFrameWriter.save} refuses the ErrorIfExists and Ignore modes
 * for a V2 table that supports batch writes, so no table this source returns claims
 * {@code BATCH_WRITE}, and Spark hands every save mode to {@link #createRelation(SQLContext,
 * org.apache.spark.sql.SaveMode, scala.collection.immutable.Map, Dataset)}. A path without a table
 * yields an {@link AbsentTable}, so that a first write can create it.
 */
public class HudiDataSource implements TableProvider, DataSourceRegister, CreatableRelationProvider, RelationProvider {
  private LoadedTable loaded;
  private Map<String, String> loadedWith;

  @Override
  public String shortName() {
    return "hudi";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    if (holdsNoTable(options)) {
      return new StructType();
    }
    return load(options).sparkSchema();
  }

  @Override
  public org.apache.spark.sql.connector.catalog.Table getTable(StructType schema, Transform[] partitioning,
      Map<String, String> properties) {
    if (holdsNoTable(properties)) {
      return new AbsentTable(properties.get(ReadOptions.PATH));
    }
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

  /** Every save mode of {@code df.write}: see the class comment. */
  @Override
  public BaseRelation createRelation(SQLContext sqlContext, org.apache.spark.sql.SaveMode mode,
      scala.collection.immutable.Map<String, String> parameters, Dataset<Row> data) {
    BatchWrite.run(sqlContext.sparkSession(), data, toJava(parameters), SaveMode.of(mode.name()));
    StructType schema = data.schema();
    return new BaseRelation() {
      @Override
      public SQLContext sqlContext() {
        return sqlContext;
      }

      @Override
      public StructType schema() {
        return schema;
      }
    };
  }

  /**
   * A read of a path {@link #getTable} found no table at ({@link AbsentTable}): reports why, as a
   * read of any other path that is not a table does.
   */
  @Override
  public BaseRelation createRelation(SQLContext sqlContext, scala.collection.immutable.Map<String, String> parameters) {
    open(toJava(parameters));
    throw new TableException("hudi: the table at " + parameters.get(ReadOptions.PATH).getOrElse(() -> "?")
        + " was created while it was being loaded; load it again");
  }

  private static Map<String, String> toJava(scala.collection.immutable.Map<String, String> parameters) {
    scala.collection.immutable.Map<String, String> original = parameters instanceof CaseInsensitiveMap<String> ci
        ? ci.originalMap() : parameters;
    return Map.copyOf(JavaConverters.mapAsJavaMapConverter(original).asJava());
  }

  /** True for a plain path (no glob) that names no table: a write may create one there. */
  private static boolean holdsNoTable(Map<String, String> options) {
    String path = options.get(ReadOptions.PATH);
    if (path == null || path.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{')) {
      return false;
    }
    try {
      Path p = new Path(path);
      return !Table.exists(p.getFileSystem(SparkSession.active().sessionState().newHadoopConf()), p);
    } catch (IOException e) {
      return false;
    }
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
