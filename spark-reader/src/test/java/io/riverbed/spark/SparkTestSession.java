package io.riverbed.spark;

import org.apache.spark.sql.SparkSession;

/** The one local SparkSession of the test JVM. */
public final class SparkTestSession {
  private static SparkSession spark;

  private SparkTestSession() {}

  public static synchronized SparkSession get() {
    if (spark == null) {
      spark = SparkSession.builder()
          .master("local[2]")
          .appName("riverbed-spark-reader-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1")
          .config("spark.sql.session.timeZone", "UTC")
          .config("spark.sql.shuffle.partitions", "4")
          .config("spark.sql.adaptive.enabled", "false")
          .config("spark.sql.extensions", RiverbedSessionExtension.class.getName())
          .config("spark.sql.warehouse.dir", java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "spark-warehouse").toString())
          .getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
    }
    return spark;
  }

  /** A new session of the test JVM's Spark with {@link RiverbedCatalog} as its catalog, using a new database. */
  public static SparkSession withCatalogDatabase(String database) {
    SparkSession session = get().newSession();
    session.conf().set("spark.sql.catalog.spark_catalog", RiverbedCatalog.class.getName());
    session.sql("CREATE DATABASE " + database);
    session.sql("USE " + database);
    return session;
  }
}
