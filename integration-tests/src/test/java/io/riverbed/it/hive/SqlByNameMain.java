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
 * the metastore, with one reader for the provider name {@code hudi} that a synced table names
 * (both register it). {@link #read} runs Apache Hudi's bundle, without Riverbed's reader, and also
 * reads each table's path with Hudi's data source, so a test compares the two;
 * {@link #readWithRiverbed} runs Riverbed's reader, without Hudi's bundle, behind
 * {@code spark.sql.catalog.spark_catalog=io.riverbed.spark.RiverbedCatalog}.
 */
public final class SqlByNameMain {
  static final String HUDI = "hudi";
  static final String RIVERBED = "riverbed";

  /** One read: the metastore table, the base path and the query type its path is read with. */
  public record Read(String table, String basePath, String queryType) {}

  /** What a read returned by name and by path. */
  public record Answer(Read read, Rows byName, Rows byPath) {}

  private SqlByNameMain() {}

  /** Runs the reads with Hudi's bundle in a child JVM (classpath: the test classpath without Riverbed's reader). */
  public static List<Answer> read(String metastoreUri, Path workDir, List<Read> reads) throws Exception {
    Path out = run(HUDI, "riverbed.hudi.only.classpath.file", metastoreUri, workDir, reads);
    var answers = new ArrayList<Answer>();
    for (int i = 0; i < reads.size(); i++) {
      answers.add(new Answer(reads.get(i), Rows.readJsonLines(out.resolve(i + ".byname.jsonl")),
          Rows.readJsonLines(out.resolve(i + ".bypath.jsonl"))));
    }
    return answers;
  }

  /**
   * What the tables read by name with Riverbed's reader and catalog, in a child JVM (classpath: the
   * test classpath without Hudi 0.15's bundle); the reads' query types are not used.
   */
  public static List<Rows> readWithRiverbed(String metastoreUri, Path workDir, List<Read> reads) throws Exception {
    Path out = run(RIVERBED, "riverbed.oracle.classpath.file", metastoreUri, workDir, reads);
    var rows = new ArrayList<Rows>();
    for (int i = 0; i < reads.size(); i++) {
      rows.add(Rows.readJsonLines(out.resolve(i + ".byname.jsonl")));
    }
    return rows;
  }

  private static Path run(String reader, String classpathProperty, String metastoreUri, Path workDir, List<Read> reads)
      throws Exception {
    Path out = Files.createDirectories(workDir);
    Path log = out.resolve("spark-by-name.log");
    List<String> command = sparkJvm(out, classpath(classpathProperty), SqlByNameMain.class);
    command.add(reader);
    command.add(metastoreUri);
    command.add(out.toString());
    reads.forEach(r -> command.addAll(List.of(r.table(), r.basePath(), r.queryType())));
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
    return out;
  }

  /**
   * The command line of a child Spark JVM running {@code main} (arguments to be appended): this JVM's
   * java with the test JVM flags, a 1 GB heap, UTC and a temp folder under {@code out}.
   */
  static List<String> sparkJvm(Path out, String classpath, Class<?> main) throws IOException {
    var command = new ArrayList<String>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    // short-lived: C1 only and the serial collector, as the Hudi 1.0 oracle's and the Flink children
    command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    Arrays.stream(System.getProperty("riverbed.test.jvm.flags", "").trim().split("\\s+")).filter(f -> !f.isEmpty())
        .forEach(command::add);
    command.add("-Djava.io.tmpdir=" + Files.createDirectories(out.resolve("tmp")));
    command.add("-Duser.timezone=UTC");
    command.add("-cp");
    command.add(classpath);
    command.add(main.getName());
    return command;
  }

  private static String classpath(String property) {
    String file = System.getProperty(property);
    if (file == null) {
      throw new IllegalStateException("system property " + property + " not set (surefire sets it)");
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

  /** Arguments: {@code hudi|riverbed METASTORE_URI OUT (TABLE PATH QUERY_TYPE)...}. */
  public static void main(String[] args) {
    boolean hudi = args[0].equals(HUDI);
    Path out = Path.of(args[2]);
    SparkSession spark = (hudi ? LocalSpark.builder("hive-by-name")
            : LocalSpark.withoutHudi("hive-by-name-riverbed").config("spark.sql.catalog.spark_catalog", "io.riverbed.spark.RiverbedCatalog"))
        .config("spark.hadoop.hive.metastore.uris", args[1])
        .enableHiveSupport()
        .getOrCreate();
    try {
      for (int i = 3, n = 0; i + 2 < args.length; i += 3, n++) {
        SparkOracle.canonicalRows(spark.sql("SELECT * FROM " + args[i])).writeJsonLines(out.resolve(n + ".byname.jsonl"));
        if (hudi) {
          SparkOracle.canonicalRows(spark.read().format(SparkOracle.HUDI_SOURCE)
                  .option("hoodie.datasource.query.type", args[i + 2]).load(args[i + 1]))
              .writeJsonLines(out.resolve(n + ".bypath.jsonl"));
        } else {
          requireRiverbedScan(spark, args[i]);
        }
      }
    } finally {
      spark.stop();
    }
  }

  /** Fails unless Spark plans to read {@code table} through Riverbed's reader (not Spark's Hive/Parquet scan). */
  static void requireRiverbedScan(SparkSession spark, String table) {
    var plan = spark.table(table).queryExecution().executedPlan();
    if (!plan.toString().contains("BatchScan hudi")) {
      throw new IllegalStateException(table + " was not read by Riverbed's reader:\n" + plan);
    }
  }
}
