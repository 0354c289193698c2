package io.riverbed.it.oracle;

import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * Builds the small local Spark session the oracles run in: 2 cores, few shuffle partitions, no
 * UI, loopback only, UTC, Kryo and Hudi's session extension. Used by the in-JVM Hudi 0.15 oracle
 * and by the forked Hudi 1.0 oracle alike, so both read with the same settings.
 */
public final class LocalSpark {

  private LocalSpark() {
  }

  public static SparkSession create(String appName) {
    return builder(appName).getOrCreate();
  }

  /** The session's builder with these settings, for a caller that adds its own (e.g. Hive support). */
  public static SparkSession.Builder builder(String appName) {
    return withoutHudi(appName)
        .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
        .config("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
        .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension");
  }

  /** The same settings without Hudi's serializer and session extension, for a JVM without Hudi's bundle. */
  public static SparkSession.Builder withoutHudi(String appName) {
    Path scratch = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().resolve("spark-" + appName);
    return SparkSession.builder()
        .appName(appName)
        .master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.default.parallelism", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", scratch.resolve("warehouse").toString())
        .config("spark.local.dir", scratch.resolve("local").toString())
        .config("spark.sql.sources.parallelPartitionDiscovery.parallelism", "2")
        .config("spark.hadoop.hadoop.tmp.dir", scratch.resolve("hadoop").toString());
  }
}
