package io.riverbed.it.oracle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * Entry point of the forked JVM that runs a second Hudi bundle (1.0.x) as the oracle. Arguments:
 * {@code <output dir> (<table path> <query>)...} with queries in {@link Query#encode()} form.
 * Writes {@code <i>.jsonl} (canonical JSON rows of the i-th read) and {@code hudi.txt} (where
 * Hudi's datasource class was loaded from, and its version) into the output dir; exits non-zero
 * on the first failure.
 */
public final class NextHudiReaderMain {

  private NextHudiReaderMain() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 3 || args.length % 2 != 1) {
      throw new IllegalArgumentException("usage: <output dir> (<table path> <query>)...");
    }
    Path out = Path.of(args[0]);
    Files.createDirectories(out);
    Files.writeString(out.resolve("hudi.txt"), hudiOrigin(), StandardCharsets.UTF_8);
    SparkSession spark = LocalSpark.create("riverbed-oracle-next");
    try {
      for (int i = 1; i < args.length; i += 2) {
        Path table = Path.of(args[i]);
        Query query = Query.parse(args[i + 1]);
        List<String> lines = SparkOracle.canonicalJson(SparkOracle.load(spark, table, query)).collectAsList();
        Files.write(out.resolve((i / 2) + ".jsonl"), lines, StandardCharsets.UTF_8);
      }
    } finally {
      spark.stop();
    }
  }

  /** Where Hudi's datasource class was loaded from, and its version, one per line. */
  static String hudiOrigin() {
    try {
      Class<?> source = Class.forName(SparkOracle.HUDI_SOURCE);
      String version = source.getPackage() == null ? null : source.getPackage().getImplementationVersion();
      return source.getProtectionDomain().getCodeSource().getLocation() + "\n" + version + "\n";
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("no Hudi datasource on the classpath", e);
    }
  }
}
