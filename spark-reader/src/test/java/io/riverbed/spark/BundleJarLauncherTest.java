package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/bin/riverbed-read} runs the shaded bundle jar beside Spark's own jars (no test
 * classpath): the rows it prints are the rows Hudi 0.15's reader returned, and a bad option is one
 * line on stderr. Spark is the build's 3.5.1, or, through {@code SPARK_HOME}, the newest 3.5 release
 * laid out by {@code spark-latest-libs}. Runs in the {@code package} phase, after the shade plugin
 * built the jar.
 */
class BundleJarLauncherTest {
  static final Path LAUNCHER = Path.of("..", "deploy", "bin", "riverbed-read");
  static final Path LATEST_SPARK_HOME = Path.of("..", "spark-latest-libs", "target", "spark-home");

  record Run(int status, List<String> stdout, String stderr) {}

  static Run launch(String... args) throws Exception {
    return launch(null, args);
  }

  static Run launch(Path sparkHome, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile("riverbed-read", ".out");
    Path err = Files.createTempFile("riverbed-read", ".err");
    ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("JAVA", System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    pb.environment().put("RIVERBED_JAVA_OPTS", "-Xmx1g -Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    pb.environment().remove("SPARK_HOME");
    if (sparkHome != null) {
      pb.environment().put("SPARK_HOME", sparkHome.toAbsolutePath().toString());
    }
    Process p = pb.start();
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("riverbed-read finished").isTrue();
    return new Run(p.exitValue(), Files.readAllLines(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void printsTheSnapshotAsJsonLinesFromTheBundleJar() throws Exception {
    assertThat(Files.exists(LAUNCHER)).isTrue();
    Run run = launch("--table", GoldenTables.path("mor_small"), "--output", "jsonl");
    assertThat(run.status()).as(run.stderr()).isZero();
    assertThat(run.stdout().stream().map(GoldenTables::canonical).sorted().toList())
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "snapshot.jsonl"));

  }

  @Test
  void readsTheSameRowsBesideTheNewestSpark35Release() throws Exception {
    assertThat(LATEST_SPARK_HOME.resolve("jars")).isDirectory();
    Run snapshot = launch(LATEST_SPARK_HOME, "--table", GoldenTables.path("mor_small"), "--output", "jsonl");
    assertThat(snapshot.status()).as(snapshot.stderr()).isZero();
    assertThat(snapshot.stdout().stream().map(GoldenTables::canonical).sorted().toList())
        .containsExactlyElementsOf(GoldenTables.expected("mor_small", "snapshot.jsonl"));

    Run version = launch(LATEST_SPARK_HOME, "--table", GoldenTables.path("mor_small"), "--output", "jsonl",
        "--sql", "SELECT split(version(), ' ')[0] AS spark FROM t LIMIT 1");
    assertThat(version.status()).as(version.stderr()).isZero();
    assertThat(version.stdout()).containsExactly("{\"spark\":\"" + System.getProperty("riverbed.spark.latest.version") + "\"}");
  }

  @Test
  void aBadQueryTypeIsOneLineOnStderr() throws Exception {
    Run run = launch("--table", GoldenTables.path("cow_small"), "--query", "everything");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr().strip()).startsWith("riverbed-read: hudi: hoodie.datasource.query.type='everything' is not supported")
        .doesNotContain("\tat ");
  }
}
