package io.riverbed.it.spark;

import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.SparkOracle;
import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** Riverbed's Spark DataSource by class name, in the oracle's session beside Apache Hudi's bundle. */
public final class RiverbedSource {
  /** Riverbed's DataSource; Hudi's is {@link SparkOracle#HUDI_SOURCE}. */
  public static final String CLASS_NAME = "io.riverbed.spark.HudiDataSource";

  private RiverbedSource() {}

  /** The DataFrame {@code sourceClass} returns for {@code query} (Hudi's option keys) over the table. */
  public static Dataset<Row> load(String sourceClass, Path table, Query query) {
    return SparkOracle.spark().read().format(sourceClass).options(query.hudiOptions()).load(table.toUri().toString());
  }
}
