package io.riverbed.it.hive;

import io.riverbed.it.oracle.LocalSpark;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;

/**
 * Spark SQL reading metastore tables by name, in a child JVM: a local Spark with Hive support on
 * the metastore, with Apache Hudi's bundle and without Riverbed's reader (both register the
 * provider name {@code hudi}, which a synced table names). For each table it also reads the
 * table's path with Hudi's data source, so a test compares the two.
 */
public final class SqlByNameMain {
  /** One read: the metastore table, the base path and the query type its path is read with. */
  public record Read(String table, String basePath, String queryType) {}

  /** What a read returned by name and by path. */
  public record Answer(Read read, Rows byName, Rows byPath) {}

  private SqlByNameMain() {}

  /** Runs the reads in a child JVM (classpath: the test classpath without Riverbed's reader). */
  public static List<Answer> read(String metastoreUri, Path workDir, List<Read> reads) throws Exception {
    Path out = Files.createDirectories(workDir);
    Path log = out.resolve("spark-by-name.log");
    var command = new ArrayList<String>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(Arrays.asList(System.getProperty("riverbed.test.jvm.flags", "").trim().split("\\s+")));
    command.add("-Djava.io.tmpdir=" + Files.createDirectories(out.resolve("tmp")));
    command.add("-Duser.timezone=UTC");
    command.add("-cp");
    command.add(classpath());
    command.add(SqlByNameMain.class.getName());
    command.add(metastoreUri);
    command.add(out.toString());
    reads.forEach(r -> command.addAll(List.of(r.table(), r.basePath(), r.queryType())));
    command.removeIf(String::isEmpty);
    Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!child.waitFor(5, TimeUnit.MINUTES)) {
      child.destroyForcibly();
      throw new IllegalStateException("Spark SQL by name timed out; log " + log);
    }
    if (child.exitValue() != 0) {
      List<String> lines = Files.readAllLines(log);
      throw new IllegalStateException("Spark SQL by name failed (exit " + child.exitValue() + "); log " + log + ":\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size())));
    }
    var answers = new ArrayList<Answer>();
    for (int i = 0; i < reads.size(); i++) {
      answers.add(new Answer(reads.get(i), Rows.readJsonLines(out.resolve(i + ".byname.jsonl")),
          Rows.readJsonLines(out.resolve(i + ".bypath.jsonl"))));
    }
    return answers;
  }

  private static String classpath() {
    String file = System.getProperty("riverbed.hudi.only.classpath.file");
    if (file == null) {
      throw new IllegalStateException("system property riverbed.hudi.only.classpath.file not set (surefire sets it)");
    }
    try {
      String classes = Path.of(SqlByNameMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
      return classes + File.pathSeparator + Files.readString(Path.of(file)).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Arguments: {@code METASTORE_URI OUT (TABLE PATH QUERY_TYPE)...}. */
  public static void main(String[] args) {
    Path out = Path.of(args[1]);
    SparkSession spark = LocalSpark.builder("hive-by-name")
        .config("spark.hadoop.hive.metastore.uris", args[0])
        .enableHiveSupport()
        .getOrCreate();
    try {
      for (int i = 2, n = 0; i + 2 < args.length; i += 3, n++) {
        SparkOracle.canonicalRows(spark.sql("SELECT * FROM " + args[i])).writeJsonLines(out.resolve(n + ".byname.jsonl"));
        SparkOracle.canonicalRows(spark.read().format(SparkOracle.HUDI_SOURCE)
                .option("hoodie.datasource.query.type", args[i + 2]).load(args[i + 1]))
            .writeJsonLines(out.resolve(n + ".bypath.jsonl"));
      }
    } finally {
      spark.stop();
    }
  }
}
