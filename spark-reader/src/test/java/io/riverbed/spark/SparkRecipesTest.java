package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.internal.config.ConfigEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark recipes of {@code deploy/spark}, run and checked: {@code riverbed-spark.sh} drives
 * Spark's real {@code SparkSubmit} (spark-submit of the bundle's ReadMain) and Spark's real Scala
 * REPL ({@code spark-shell}, fed {@code read-trips.scala}) with only Spark 3.5's jars and the bundle,
 * against a table Hudi 0.15 wrote; the EMR {@code %%configure} block and {@code spark-defaults.conf}
 * set only configurations Spark registers; the PySpark script compiles and every Hudi option the
 * recipes pass is one the reader knows. Runs in the {@code package} phase, after the bundle is built.
 */
class SparkRecipesTest {
  static final Path SPARK = Path.of("..", "deploy", "spark");
  /**
   * Session fields of Livy's {@code POST /sessions}, which {@code %%configure} sends (sparkmagic on
   * EMR notebooks); Spark settings go under {@code conf}.
   */
  static final Set<String> LIVY_SESSION_FIELDS = Set.of("kind", "proxyUser", "jars", "pyFiles", "files", "driverMemory",
      "driverCores", "executorMemory", "executorCores", "numExecutors", "archives", "queue", "name", "conf",
      "heartbeatTimeoutInSecond");

  static final String CATALOG_KEY = "spark.sql.catalog.spark_catalog";

  @TempDir static Path work;
  static Path sparkHome;

  /**
   * A SPARK_HOME whose bin/spark-submit and bin/spark-shell do what a Spark 3.5 distribution's do
   * (spark-shell is spark-submit of org.apache.spark.repl.Main, to which Spark's launcher adds the
   * primary resource 'spark-shell'), with the Spark jars of the build's spark-classpath.txt instead
   * of jars/.
   */
  @BeforeAll
  static void fakeSparkHome() throws IOException {
    sparkHome = work.resolve("spark-home");
    Path bin = Files.createDirectories(sparkHome.resolve("bin"));
    String sparkJars = Files.readString(Path.of("target", "spark-classpath.txt")).trim();
    List<String> jvm = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
        "-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("tmp")), "-Dspark.ui.enabled=false",
        "-Dspark.driver.host=127.0.0.1", "-Dspark.driver.bindAddress=127.0.0.1"));
    // Spark's Java 17 flags, as this test JVM has them (a distribution's launcher adds the same).
    jvm.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-") || a.startsWith("-XX:+IgnoreUnrecognizedVMOptions") || a.startsWith("-Djdk.reflect"))
        .toList());
    jvm.addAll(List.of("-cp", sparkJars, "org.apache.spark.deploy.SparkSubmit"));
    String submit = jvm.stream().map(SparkRecipesTest::quote).collect(Collectors.joining(" "));
    script(bin.resolve("spark-submit"), "exec " + submit + " \"$@\"");
    script(bin.resolve("spark-shell"), "exec " + submit.replace(quote("-Xmx1g"), quote("-Xmx1g") + " -Dscala.usejavacp=true")
        + " --class org.apache.spark.repl.Main --name 'Spark shell' \"$@\" spark-shell");
  }

  private static void script(Path file, String body) throws IOException {
    Files.writeString(file, "#!/usr/bin/env bash\n" + body + "\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  record Run(int status, String stdout, String stderr) {}

  static Run riverbedSpark(String stdin, Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", SPARK.resolve("riverbed-spark.sh").toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.redirectInput(stdin == null ? ProcessBuilder.Redirect.from(new File("/dev/null")) : ProcessBuilder.Redirect.from(new File(stdin)));
    pb.environment().put("SPARK_HOME", sparkHome.toString());
    pb.environment().putAll(env);
    Process p = pb.start();
    boolean ended = p.waitFor(10, TimeUnit.MINUTES); // generous: a child Spark/Flink JVM on a loaded machine
    if (!ended) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    Run run = new Run(ended ? p.exitValue() : -1, Files.readString(out), Files.readString(err));
    assertThat(run.status()).as("exit status; stderr:\n%s", tail(run.stderr())).isZero();
    return run;
  }

  private static String tail(String text) {
    List<String> lines = text.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  @Test
  void sparkSubmitOfTheBundlesReadMainPrintsTheRowsHudiRead() throws Exception {
    Path jar = bundleJar();
    Run run = riverbedSpark(null, Map.of(), "spark-submit", "--master", "local[2]", "--class", "io.riverbed.spark.ReadMain",
        jar.toString(), "--table", GoldenTables.path("mor_small"), "--output", "jsonl");
    assertThat(run.stdout().lines().filter(l -> l.startsWith("{")).map(GoldenTables::canonical).sorted().toList())
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "snapshot.jsonl"));
  }

  @Test
  void sparkShellRunsTheScalaRecipeAgainstATableHudiWrote() throws Exception {
    Run run = riverbedSpark(SPARK.resolve("read-trips.scala").toString(), Map.of("RIVERBED_TABLE", GoldenTables.path("mor_small")),
        "spark-shell", "--master", "local[2]", "--conf", "spark.sql.warehouse.dir=" + work.resolve("warehouse"));
    String out = run.stdout();
    assertThat(number(out, "snapshot rows = (\\d+)")).isEqualTo(GoldenTables.expected("mor_small", "snapshot.jsonl").size());
    Matcher commits = Pattern.compile("riverbed: commits = ([0-9,]+)").matcher(out);
    assertThat(commits.find()).as(out).isTrue();
    String first = commits.group(1).split(",")[0];
    assertThat(number(out, "incremental rows after " + first + " = (\\d+)"))
        .isEqualTo(GoldenTables.expected("mor_small", "incremental_after_" + first + ".jsonl").size());
    assertThat(number(out, "rows as of " + first + " = (\\d+)"))
        .isEqualTo(GoldenTables.expected("mor_small", "as_of_" + first + ".jsonl").size());
    assertThat(number(out, "rows by name = (\\d+)")).isEqualTo(GoldenTables.expected("mor_small", "snapshot.jsonl").size());
    assertThat(number(out, "rows by name as of " + first + " = (\\d+)"))
        .isEqualTo(GoldenTables.expected("mor_small", "as_of_" + first + ".jsonl").size());
  }

  private static int number(String out, String regex) {
    Matcher m = Pattern.compile("riverbed: " + regex).matcher(out);
    assertThat(m.find()).as("'%s' in the output:\n%s", regex, out).isTrue();
    return Integer.parseInt(m.group(1));
  }

  @Test
  void emrConfigureBlockIsLivyJsonWithRealSparkConfigurations() throws Exception {
    List<String> lines = Files.readAllLines(SPARK.resolve("emr-notebook-configure.txt"));
    assertThat(lines.get(0)).isEqualTo("%%configure -f");
    JsonNode block = new ObjectMapper().readTree(String.join("\n", lines.subList(1, lines.size())));
    block.fieldNames().forEachRemaining(f -> assertThat(LIVY_SESSION_FIELDS).as("Livy session field").contains(f));
    List<String> problems = new ArrayList<>();
    block.path("conf").fields().forEachRemaining(e -> sparkConfProblem(e.getKey(), e.getValue().asText()).ifPresent(problems::add));
    assertThat(problems).isEmpty();
    assertThat(block.path("conf").path("spark.jars").asText()).matches(".*/riverbed-spark-reader-[^/]*-bundle\\.jar");
    assertThat(block.path("conf").path(CATALOG_KEY).asText()).isEqualTo(RiverbedCatalog.class.getName());
  }

  @Test
  void sparkDefaultsSetOnlyRealSparkConfigurations() throws IOException {
    List<String> problems = new ArrayList<>();
    List<String> catalogs = new ArrayList<>();
    for (String line : Files.readAllLines(SPARK.resolve("spark-defaults.conf"))) {
      String l = line.strip();
      if (!l.isEmpty() && !l.startsWith("#")) {
        String[] kv = l.split("\\s+", 2);
        sparkConfProblem(kv[0], kv[1]).ifPresent(problems::add);
        if (kv[0].equals(CATALOG_KEY)) {
          catalogs.add(kv[1]);
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(catalogs).containsExactly(RiverbedCatalog.class.getName());
    // The check itself: a misspelt key and a value of the wrong type are caught.
    assertThat(sparkConfProblem("spark.sql.parquet.enableVectorizedReadr", "true")).isPresent();
    assertThat(sparkConfProblem("spark.sql.parquet.columnarReaderBatchSize", "many")).isPresent();
  }

  /**
   * What is wrong with a Spark setting: not a configuration entry Spark 3.5 registers (core's
   * {@code org.apache.spark.internal.config} and {@code SQLConf}, initialised here), or a value its
   * entry cannot convert. {@code spark.hadoop.*} is no entry: Spark copies it into the Hadoop
   * configuration (SparkHadoopUtil), so it is accepted by prefix.
   */
  static java.util.Optional<String> sparkConfProblem(String key, String value) {
    if (key.startsWith("spark.hadoop.")) {
      return java.util.Optional.empty();
    }
    registerSparkConfigs();
    ConfigEntry<?> entry = ConfigEntry.findEntry(key);
    if (entry == null) {
      return java.util.Optional.of("'" + key + "' is not a Spark 3.5 configuration");
    }
    try {
      entry.valueConverter().apply(value);
      return java.util.Optional.empty();
    } catch (RuntimeException e) {
      return java.util.Optional.of(key + ": '" + value + "' is not a valid value (" + e.getMessage() + ")");
    }
  }

  private static void registerSparkConfigs() {
    for (String holder : List.of("org.apache.spark.internal.config.package$", "org.apache.spark.sql.internal.SQLConf$",
        "org.apache.spark.sql.internal.StaticSQLConf$")) {
      try {
        Class.forName(holder).getField("MODULE$").get(null);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot initialise " + holder, e);
      }
    }
  }

  @Test
  void pysparkScriptCompilesAndRecipesPassOnlyOptionsTheReaderKnows() throws Exception {
    Process p = new ProcessBuilder("python3", "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])",
        SPARK.resolve("read_trips.py").toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0).as("python3 parses read_trips.py: %s", out).isTrue();

    Set<String> known = Stream.of(ReadOption.values()).map(ReadOption::key).collect(Collectors.toSet());
    Pattern option = Pattern.compile("option\\(\"([^\"]+)\"");
    for (String recipe : List.of("read_trips.py", "read-trips.scala")) {
      Matcher m = option.matcher(Files.readString(SPARK.resolve(recipe)));
      int found = 0;
      while (m.find()) {
        assertThat(known).as("%s: option %s", recipe, m.group(1)).contains(m.group(1));
        found++;
      }
      assertThat(found).as(recipe).isGreaterThanOrEqualTo(3);
    }
  }

  private static Path bundleJar() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("target"))) {
      return files.filter(f -> f.getFileName().toString().matches("riverbed-spark-reader-.*-bundle\\.jar")).findFirst()
          .orElseThrow(() -> new AssertionError("no bundle jar in target (the test runs in the package phase)"));
    }
  }
}
