package io.riverbed.it.seeds;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One real {@code spark-shell} in a child JVM, as a Spark 3.5.1 distribution starts it
 * ({@code SparkSubmit --class org.apache.spark.repl.Main ... spark-shell} with
 * {@code -Dscala.usejavacp=true}): Spark's jars on the classpath, the user's jars on {@code --jars},
 * the given {@code --conf}s plus local-machine settings (two local cores, loopback, no UI, UTC, scratch
 * folders in the run's folder), fed its standard input and waited for.
 */
final class SparkShell {
  private SparkShell() {}

  /** The shell's standard output and error, and its exit status. */
  record Run(Path stdout, Path stderr, int exitStatus) {}

  /** Spark 3.5.1's jars with spark-hive and spark-repl (system property {@code riverbed.spark.shell.classpath.file}). */
  static String sparkClasspath() throws IOException {
    String file = System.getProperty("riverbed.spark.shell.classpath.file");
    if (file == null || !Files.exists(Path.of(file))) {
      throw new IllegalStateException("system property riverbed.spark.shell.classpath.file does not name a file ("
          + file + "): run through Maven (surefire sets it)");
    }
    return Files.readString(Path.of(file), StandardCharsets.UTF_8).trim();
  }

  static Run run(Path runDir, List<Path> jars, Map<String, String> conf, String stdin, Duration timeout) throws Exception {
    Files.createDirectories(runDir);
    Path tmp = Files.createDirectories(runDir.resolve("tmp"));
    var command = new ArrayList<String>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1536m");
    Arrays.stream(System.getProperty("riverbed.test.jvm.flags", "").trim().split("\\s+")).filter(f -> !f.isEmpty())
        .forEach(command::add);
    command.addAll(List.of("-Dscala.usejavacp=true", "-Djava.io.tmpdir=" + tmp, "-Duser.timezone=UTC",
        "-cp", sparkClasspath(), "org.apache.spark.deploy.SparkSubmit",
        "--class", "org.apache.spark.repl.Main", "--name", "Spark shell", "--master", "local[2]"));
    command.add("--jars");
    command.add(String.join(",", jars.stream().map(Path::toString).toList()));
    var settings = new LinkedHashMap<String, String>();
    settings.put("spark.ui.enabled", "false");
    settings.put("spark.driver.host", "127.0.0.1");
    settings.put("spark.driver.bindAddress", "127.0.0.1");
    settings.put("spark.sql.session.timeZone", "UTC");
    settings.put("spark.sql.shuffle.partitions", "4");
    settings.put("spark.default.parallelism", "4");
    settings.put("spark.sql.warehouse.dir", runDir.resolve("warehouse").toString());
    settings.put("spark.local.dir", runDir.resolve("spark-local").toString());
    settings.put("spark.hadoop.hadoop.tmp.dir", runDir.resolve("hadoop").toString());
    settings.putAll(conf);
    settings.forEach((k, v) -> command.addAll(List.of("--conf", k + "=" + v)));
    command.add("spark-shell");

    Files.write(runDir.resolve("command.txt"), command, StandardCharsets.UTF_8);
    Path in = runDir.resolve("stdin.txt");
    Files.writeString(in, stdin, StandardCharsets.UTF_8);
    Path out = runDir.resolve("stdout.txt");
    Path err = runDir.resolve("stderr.txt");
    Process shell = new ProcessBuilder(command).directory(runDir.toFile())
        .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!shell.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      shell.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
      throw new AssertionError("spark-shell did not end within " + timeout + "; output in " + out + ", log in " + err);
    }
    return new Run(out, err, shell.exitValue());
  }

  /** The classpath entry of this JVM whose file name matches {@code fileNameRegex}, e.g. Hudi's bundle. */
  static Path testClasspathJar(String fileNameRegex) {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator)).map(Path::of)
        .filter(p -> p.getFileName() != null && p.getFileName().toString().matches(fileNameRegex)).findFirst()
        .orElseThrow(() -> new IllegalStateException("no jar matching " + fileNameRegex + " on the test classpath"));
  }

  /** The one jar in {@code target} (a module's build folder, named by system property {@code property}) matching the regex. */
  static Path moduleJar(String property, String fileNameRegex) throws IOException {
    Path target = Path.of(System.getProperty(property, "missing")).toAbsolutePath().normalize();
    try (var files = Files.isDirectory(target) ? Files.list(target) : java.util.stream.Stream.<Path>empty()) {
      return files.filter(f -> f.getFileName().toString().matches(fileNameRegex)).findFirst()
          .orElseThrow(() -> new IllegalStateException(target + " (" + property + ") holds no jar matching " + fileNameRegex
              + ": build through the reactor (mvn -pl integration-tests -am verify) so it is packaged first"));
    }
  }
}
