package io.riverbed.it.oracle;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * Apache Hudi's own Spark datasource as the reference reader. One local Spark session per JVM,
 * shared by every test ({@link #spark()}); the datasource is named by class, not by the short
 * name {@code hudi}, so another {@code hudi} source may sit on the same classpath.
 *
 * <p>Whatever Hudi bundle is on the classpath answers: 0.15.0 in the test JVM, 1.0.x in the
 * forked JVM of {@link NextHudiOracle}.
 */
public final class SparkOracle {

  /** Hudi's datasource, by class name. */
  public static final String HUDI_SOURCE = "org.apache.hudi.DefaultSource";

  private SparkOracle() {
  }

  private static final class Holder {
    static final SparkSession SPARK = LocalSpark.create("riverbed-oracle");
  }

  /** The JVM's shared local Spark session with Hudi's extension. */
  public static SparkSession spark() {
    return Holder.SPARK;
  }

  /** Hudi's answer to {@code query} over the table at {@code tablePath}, meta columns included. */
  public static Rows read(Path tablePath, Query query) {
    return canonicalRows(load(tablePath, query));
  }

  public static Rows snapshot(Path tablePath) {
    return read(tablePath, Query.snapshot());
  }

  public static Rows readOptimized(Path tablePath) {
    return read(tablePath, Query.readOptimized());
  }

  public static Rows incremental(Path tablePath, String beginExclusive, String endInclusive) {
    return read(tablePath, Query.incremental(beginExclusive, endInclusive));
  }

  public static Rows asOf(Path tablePath, String instant) {
    return read(tablePath, Query.asOf(instant));
  }

  /** The DataFrame Hudi's datasource returns for {@code query}. */
  public static Dataset<Row> load(Path tablePath, Query query) {
    return load(spark(), tablePath, query);
  }

  static Dataset<Row> load(SparkSession spark, Path tablePath, Query query) {
    return load(spark, HUDI_SOURCE, tablePath, query);
  }

  /**
   * The same query (same Hudi option keys) through another datasource, named by class: how a
   * test puts a reader under test next to the oracle, e.g.
   * {@code readWith(OUR_SOURCE, path, q).assertSameAs(read(path, q), "...")}.
   */
  public static Rows readWith(String sourceClass, Path tablePath, Query query) {
    return canonicalRows(load(spark(), sourceClass, tablePath, query));
  }

  static Dataset<Row> load(SparkSession spark, String sourceClass, Path tablePath, Query query) {
    return spark.read().format(sourceClass).options(query.hudiOptions()).load(tablePath.toUri().toString());
  }

  /** Completed instants of the table (listing {@code .hoodie}, no Hudi API). */
  public static List<TimelineInstant> completedInstants(Path tablePath) {
    return TimelineInstant.completed(tablePath);
  }

  /**
   * Any DataFrame as canonical {@link Rows}: each row rendered by Spark's {@code to_json} with
   * the top-level columns in canonical order, nulls kept and timestamps with microseconds.
   */
  public static Rows canonicalRows(Dataset<Row> frame) {
    return Rows.ofJsonLines(canonicalJson(frame).collectAsList());
  }

  static Dataset<String> canonicalJson(Dataset<Row> frame) {
    List<String> order = Rows.canonicalColumnOrder(List.of(frame.columns()));
    Column[] columns = order.stream().map(c -> functions.col("`" + c + "`")).toArray(Column[]::new);
    var options = new java.util.HashMap<String, String>();
    options.put("ignoreNullFields", "false");
    options.put("timestampFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX");
    options.put("dateFormat", "yyyy-MM-dd");
    return frame.select(functions.to_json(functions.struct(columns), options).as("json"))
        .as(org.apache.spark.sql.Encoders.STRING());
  }
}
