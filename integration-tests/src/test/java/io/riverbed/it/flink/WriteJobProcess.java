package io.riverbed.it.flink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Riverbed's Flink write job ({@code io.riverbed.flink.job.WriteJob}) in a child JVM on an
 * embedded MiniCluster, as {@code deploy/bin/riverbed-write} runs it: one engine per JVM, so
 * Flink never shares a classpath with Spark and Hudi's bundle in the test JVM.
 *
 * <p>The classpath is flink-writer's classes plus the classpath its build wrote to
 * {@code flink-writer/target/job-classpath-test.txt} (Flink is {@code provided} there, so it is
 * included, as are a log4j binding and test frameworks, which do no harm).
 */
final class WriteJobProcess {
  static final String MAIN = "io.riverbed.flink.job.WriteJob";

  /** Flink's Java 17 flags (STACK.md). */
  static final List<String> FLINK_JVM_FLAGS = flinkFlags();

  /**
   * How long a test lets one job of the integration tests run: only a hang may fail it. A job of
   * 10k changes takes 11-20 s at a load average of 5 and ten times that at 25, where a 3-minute
   * limit failed a job that was still committing.
   */
  static final Duration HANG_LIMIT = Duration.ofMinutes(12);

  private WriteJobProcess() {}

  private static List<String> flinkFlags() {
    List<String> flags = new ArrayList<>(List.of(
        "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
        "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
        "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED"));
    for (String p : List.of("java.lang", "java.net", "java.io", "java.nio", "sun.nio.ch", "java.lang.reflect", "java.text",
        "java.time", "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "java.util.concurrent.locks")) {
      flags.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
    }
    return List.copyOf(flags);
  }

  /** flink-writer's {@code target} folder (system property {@code riverbed.flink.writer.target}). */
  static Path writerTarget() {
    String dir = System.getProperty("riverbed.flink.writer.target", "../flink-writer/target");
    Path target = Path.of(dir).toAbsolutePath().normalize();
    if (!Files.isDirectory(target.resolve("classes"))) {
      throw new IllegalStateException(target + "/classes is missing: build through the reactor "
          + "(mvn -pl integration-tests -am verify) so flink-writer is built first");
    }
    return target;
  }

  /** A classpath file written by flink-writer's build ({@code job-classpath-<scope>.txt}). */
  static String classpathFile(String scope) {
    Path file = writerTarget().resolve("job-classpath-" + scope + ".txt");
    try {
      return Files.readString(file, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + " (written by flink-writer's build)", e);
    }
  }

  /** The child JVM's classpath: flink-writer's classes, its dependencies including Flink. */
  static String classpath() {
    return writerTarget().resolve("classes") + java.io.File.pathSeparator + classpathFile("test");
  }

  /** A log4j2 configuration for the child: INFO for Riverbed, WARN otherwise, to the log file. */
  static Path logConfig(Path dir) throws IOException {
    Files.createDirectories(dir);
    return Files.writeString(dir.resolve("log4j2-child.properties"), """
        rootLogger.level = WARN
        rootLogger.appenderRef.out.ref = out
        appender.out.type = Console
        appender.out.name = out
        appender.out.layout.type = PatternLayout
        appender.out.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n
        logger.riverbed.name = io.riverbed
        logger.riverbed.level = INFO
        """, StandardCharsets.UTF_8);
  }

  /** The java command line that runs {@code main} with {@code classpath} and {@code args}. */
  static List<String> command(String classpath, Path workDir, String main, List<String> args) throws IOException {
    Path tmp = Files.createDirectories(workDir.resolve("tmp"));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    cmd.addAll(FLINK_JVM_FLAGS);
    cmd.addAll(List.of("-Djava.io.tmpdir=" + tmp, "-Duser.timezone=UTC",
        "-Dlog4j.configurationFile=" + logConfig(workDir).toUri(), "-cp", classpath, main));
    cmd.addAll(args);
    return cmd;
  }

  /**
   * The classpath of a child JVM that runs a main of flink-writer's tests (a job with a test
   * source): its test classes, then {@link #classpath()}.
   */
  static String testClasspath() {
    return writerTarget().resolve("test-classes") + java.io.File.pathSeparator + classpath();
  }

  /** Runs the write job to its end; fails with the log's tail unless it exits 0 within {@code timeout}. */
  static String run(Path workDir, Duration timeout, List<String> args) {
    return runMain(workDir, timeout, MAIN, args);
  }

  /** Runs another main of flink-writer (e.g. {@code riverbed-sql}'s) to its end, as {@link #run}. */
  static String runMain(Path workDir, Duration timeout, String main, List<String> args) {
    try {
      Files.createDirectories(workDir);
      Path log = Files.createTempFile(workDir, "write-job-", ".log");
      Process p = start(workDir, classpath(), main, args, log);
      return awaitExit(p, workDir, log, timeout, args);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts {@code main} in a child JVM with its output going to {@code log}; returns at once. */
  static Process start(Path workDir, String classpath, String main, List<String> args, Path log) throws IOException {
    return new ProcessBuilder(command(classpath, workDir, main, args))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /**
   * Waits for a child started by {@link #start} to end; fails with the log's tail unless it exits
   * 0 within {@code timeout} (then with a thread dump, and the child killed). Returns its output.
   */
  static String awaitExit(Process p, Path workDir, Path log, Duration timeout, List<String> args) {
    try {
      long start = System.nanoTime();
      boolean ended = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!ended) {
        Path threads = threadDump(p, workDir);
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError("write job did not end within " + timeout + "; its threads at that moment: " + threads
            + "; log " + log + ":\n" + tail(log));
      }
      String output = Files.readString(log, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new AssertionError("write job exited with " + p.exitValue() + "; log " + log + ":\n" + tail(log));
      }
      System.out.printf("write job %s ended in %.1f s%n", args, (System.nanoTime() - start) / 1e9);
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The threads of a job that overran its time, written by {@code jcmd <pid> Thread.print} next to
   * its log: whether it hung (and where) or was only slow is what a timeout must tell.
   */
  static Path threadDump(Process job, Path workDir) throws IOException, InterruptedException {
    Path dump = Files.createTempFile(workDir, "write-job-threads-", ".txt");
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p = new ProcessBuilder(jcmd.toString(), Long.toString(job.pid()), "Thread.print")
        .redirectErrorStream(true).redirectOutput(dump.toFile()).start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
    return dump;
  }

  static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }
}
