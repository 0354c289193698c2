package io.riverbed.it.seeds;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.hive.HiveSyncProcesses;
import io.riverbed.it.hive.MetastoreDescriptors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The seeds' Spark code (the EMR guide's Scala and PySpark writes with Hive sync, reads and incremental
 * queries; the pyspark walkthrough's trips; the Spark SQL of Hudi's guide), typed into a real
 * spark-shell twice: once with Apache Hudi 0.15's bundle, once with Riverbed's Spark bundle and
 * hudi-compat jar, nothing else changed but the jars (the seeds' settings: Kryo, Hudi's catalog and
 * session extension class names, and a Hive Metastore 3.1.3 of the run's own). Every step must end
 * alike (finished or failed) with the same rows, columns and types, commit times and file names aside;
 * so must what each shell's metastore holds afterwards, every table of every database: those the EMR
 * guide's writes sync, and those the SQL section creates and its writes sync (a MOR table's {@code _ro}
 * and {@code _rt}), the metastore's file statistics aside ({@link #FILE_STATISTICS}).
 */
class SeedsInSparkShellMatchHudiTest {
  /** Generous: on two busy cores Hudi's shell has taken 14 to 30 minutes for the script. */
  static final Duration SHELL_TIMEOUT = Duration.ofMinutes(50);

  /**
   * The steps whose outcome in Riverbed's shell differs from Hudi's today, each with why. The test
   * asserts that exactly these differ, so a step that starts to match, or stops matching, fails it.
   */
  static final Map<String, String> KNOWN_DIFFERENCES = Map.of();

  /**
   * The metastore tables ({@code metastore-<database>.<table>}) that one shell's metastore holds
   * differently from the other's (or not at all), each with why; asserted together with
   * {@link #KNOWN_DIFFERENCES}.
   */
  static final Map<String, String> KNOWN_METASTORE_DIFFERENCES = Map.of();

  /**
   * Table parameters the metastore computes from the files in a table's folder when it registers or
   * alters it: they count the writers' files (Parquet bytes; how inserts spread over file groups), not
   * anything a catalog or sync registers, so they are left out of the comparison.
   */
  static final List<String> FILE_STATISTICS = List.of("numFiles", "totalSize");

  /**
   * The steps Hudi's own shell fails, each with why: the seeds' code as written does this in Hudi 0.15,
   * so Riverbed must fail them too (any other Hudi failure means the script is wrong).
   */
  static final Map<String, String> FAILING_IN_HUDI = Map.of(
      "sql-change-column", "Hudi 0.15 refuses int to bigint without hoodie.schema.on.read.enable=true, "
          + "which the walkthrough does not set (Riverbed refuses it too)");

  /** A metastore table one shell's metastore holds and the other's does not. */
  static final ShellTranscript.Outcome NOT_REGISTERED = new ShellTranscript.Outcome(true, List.of("not registered"), "");

  static final Map<String, String> SEEDS_SETTINGS = Map.of(
      "spark.serializer", "org.apache.spark.serializer.KryoSerializer",
      "spark.sql.catalog.spark_catalog", "org.apache.spark.sql.hudi.catalog.HoodieCatalog",
      "spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension");

  /** The runs' folders (tables, metastore, the shells' input and output), kept after the test for its report. */
  static Path dir;

  @BeforeAll
  static void freshFolder() throws IOException {
    dir = Path.of("target", "seeds-shell").toAbsolutePath();
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(f);
        }
      }
    }
    Files.createDirectories(dir);
  }

  @Test
  void everyStepOfTheSeedsEndsInRiverbedsShellAsInHudis() throws Exception {
    SeedsScript script = SeedsScript.load();
    List<Path> hudiJars = List.of(SparkShell.testClasspathJar("hudi-spark3\\.5-bundle_2\\.12-0\\.15\\.0\\.jar"));
    List<Path> riverbedJars = List.of(
        SparkShell.moduleJar("riverbed.spark.reader.target", "riverbed-spark-reader-.*-bundle\\.jar"),
        SparkShell.moduleJar("riverbed.hudi.compat.target", "riverbed-hudi-compat-[^-]*(-SNAPSHOT)?\\.jar"));
    // The two shells share nothing (each its folder and metastore), so they run side by side.
    ExecutorService shells = Executors.newFixedThreadPool(2);
    try {
      Future<Map<String, ShellTranscript.Outcome>> hudiRun = shells.submit(() -> run("hudi", script, hudiJars));
      Future<Map<String, ShellTranscript.Outcome>> riverbedRun = shells.submit(() -> run("riverbed", script, riverbedJars));
      compare(hudiRun.get(), riverbedRun.get());
    } finally {
      shells.shutdownNow();
    }
  }

  static void compare(Map<String, ShellTranscript.Outcome> hudi, Map<String, ShellTranscript.Outcome> riverbed) throws IOException {
    var hudiFailed = new TreeMap<String, String>();
    hudi.forEach((step, outcome) -> {
      if (!outcome.finished()) {
        hudiFailed.put(step, outcome.error());
      }
    });
    var differing = new TreeMap<String, String>();
    var steps = new TreeSet<>(hudi.keySet());
    steps.addAll(riverbed.keySet());
    steps.forEach(step -> {
      ShellTranscript.Outcome outcome = hudi.getOrDefault(step, NOT_REGISTERED);
      ShellTranscript.Outcome ours = riverbed.getOrDefault(step, NOT_REGISTERED);
      if (!outcome.compared().equals(ours.compared())) {
        differing.put(step, "Hudi:\n  " + outcome.report() + "\nRiverbed:\n  " + ours.report());
      }
    });
    String report = String.join("\n\n", differing.entrySet().stream().map(e -> "step " + e.getKey() + "\n" + e.getValue()).toList());
    Files.writeString(dir.resolve("differences.txt"), report, StandardCharsets.UTF_8);
    assertThat(hudiFailed.keySet()).as("steps that failed in Hudi's own shell: " + hudiFailed)
        .containsExactlyInAnyOrderElementsOf(FAILING_IN_HUDI.keySet());
    var known = new TreeSet<>(KNOWN_DIFFERENCES.keySet());
    known.addAll(KNOWN_METASTORE_DIFFERENCES.keySet());
    assertThat(differing.keySet()).as("steps whose outcome differs:\n" + report)
        .containsExactlyInAnyOrderElementsOf(known);
  }

  /** One shell with {@code jars}, on a metastore of its own; the outcome of every step and of every table its metastore holds. */
  static Map<String, ShellTranscript.Outcome> run(String name, SeedsScript script, List<Path> jars) throws Exception {
    Path runDir = Files.createDirectories(dir.resolve(name));
    try (var hive = HiveSyncProcesses.MetastoreWithClient.start(runDir.resolve("metastore"))) {
      String stdin = script.stdin(runDir.resolve("steps"), runDir.resolve("tables").toString(), hive.metastore.uri);
      var conf = new LinkedHashMap<>(SEEDS_SETTINGS);
      conf.put("spark.hadoop.hive.metastore.uris", hive.metastore.uri);
      SparkShell.Run shell = SparkShell.run(runDir, jars, conf, stdin, SHELL_TIMEOUT);
      String stdout = Files.readString(shell.stdout(), StandardCharsets.UTF_8);
      assertThat(stdout).as(name + "'s spark-shell reached the end of the script (exit " + shell.exitStatus()
          + ", log " + shell.stderr() + ")").contains(SeedsScript.END_MARKER);
      var metastore = new LinkedHashMap<String, List<String>>();
      for (String database : hive.client.getAllDatabases()) {
        for (String table : hive.client.getAllTables(database)) {
          Map<String, Object> described = MetastoreDescriptors.describe(hive.client, database, table);
          ((Map<?, ?>) described.get("parameters")).keySet().removeAll(FILE_STATISTICS);
          metastore.put("metastore-" + database + "." + table, described.entrySet().stream()
              .map(e -> e.getKey() + " = " + e.getValue()).toList());
        }
      }
      List<String> steps = script.steps().stream().map(SeedsScript.Step::name).toList();
      return ShellTranscript.parse(stdout, steps, runDir.toString(), metastore);
    }
  }
}
