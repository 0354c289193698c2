package io.riverbed.compat;

import org.apache.spark.sql.SparkSession;

/**
 * The one local SparkSession of this module's test JVM, configured with Apache Hudi's class names
 * only, as the EMR guide's {@code spark-shell} line does: Hudi's session catalog and SQL extension.
 */
final class HudiNamedSession {
  static final String CATALOG = "org.apache.spark.sql.hudi.catalog.HoodieCatalog";
  static final String EXTENSION = "org.apache.spark.sql.hudi.HoodieSparkSessionExtension";
  private static SparkSession spark;

  private HudiNamedSession() {}

  static synchronized SparkSession get() {
    if (spark == null) {
      spark = SparkSession.builder()
          .master("local[2]")
          .appName("riverbed-hudi-compat-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1")
          .config("spark.sql.session.timeZone", "UTC")
          .config("spark.sql.shuffle.partitions", "4")
          .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
          .config("spark.sql.catalog.spark_catalog", CATALOG)
          .config("spark.sql.extensions", EXTENSION)
          .config("spark.sql.warehouse.dir", java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "spark-warehouse").toString())
          .getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
    }
    return spark;
  }
}
