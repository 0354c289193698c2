package io.riverbed.it.oracle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Apache Hudi 1.0.x as a second oracle. Its Spark bundle cannot share a classpath with 0.15's, so
 * each call forks a JVM whose classpath is the test classpath without the 0.15 bundle plus the
 * 1.0.x bundle the build copied into {@code target/hudi-<version>/}, and runs
 * {@link NextHudiReaderMain} (reads, parsing the canonical JSON rows it writes) or
 * {@link NextHudiWriterMain} (writes, so tests get tables in Hudi 1.x's own layout).
 *
 * <p>A fork costs a JVM and a Spark session start (several seconds): ask for all reads in one
 * call.
 */
public final class NextHudiOracle {

  private static final long TIMEOUT_MINUTES = 20;

  private NextHudiOracle() {
  }

  /** One read: a query over a table. */
  public record Read(Path table, Query query) {
    @Override
    public String toString() {
      return query + " of " + table;
    }
  }

  /** What the 1.0.x reader returned (one {@link Rows} per read, in order), and where its Hudi came from. */
  public record Answer(List<Rows> rows, String hudiOrigin) {
  }

  /** Hudi 1.0.x's answers to {@code queries} over the table at {@code tablePath}, in order. */
  public static Answer read(Path tablePath, List<Query> queries) {
    return read(queries.stream().map(q -> new Read(tablePath, q)).toList());
  }

  /** Hudi 1.0.x's answers to {@code reads}, in order, from one child JVM. */
  public static Answer read(List<Read> reads) {
    Path out = scratchDir();
    var args = new ArrayList<String>();
    args.add(out.toString());
    for (Read r : reads) {
      args.add(r.table().toAbsolutePath().toString());
      args.add(r.query().encode());
    }
    runChild(NextHudiReaderMain.class, args, out, "reading " + reads);
    try {
      var rows = new ArrayList<Rows>();
      for (int i = 0; i < reads.size(); i++) {
        rows.add(Rows.readJsonLines(out.resolve(i + ".jsonl")));
      }
      return new Answer(rows, Files.readString(out.resolve("hudi.txt")).trim());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the Hudi 1.0 oracle's answers to " + reads, e);
    }
  }

  /**
   * One write of a table by Hudi 1.0.x's Spark datasource: {@code operation} ({@code insert},
   * {@code upsert}, {@code delete}, ...) of the rows in a JSON lines file, with extra write options
   * (e.g. inline compaction) on top of Hudi's defaults.
   */
  public record WriteStep(String operation, Path jsonLines, Map<String, String> options) {
    public WriteStep {
      options = Map.copyOf(options);
    }

    String encode() {
      var opts = new StringBuilder();
      options.forEach((k, v) -> opts.append(opts.length() == 0 ? "" : ";").append(k).append('=').append(v));
      return operation + "|" + jsonLines.toAbsolutePath() + "|" + opts;
    }
  }

  /**
   * Has Hudi 1.0.x write {@code steps} in order into the table at {@code tablePath} (created by the
   * first step), with record key {@code id}, ordering field {@code ts}, partition field {@code part}
   * and Hudi's defaults otherwise (so table version 8), from one child JVM ({@link NextHudiWriterMain}).
   * Returns where its Hudi came from.
   */
  public static String write(Path tablePath, String tableName, String tableType, String schemaDdl,
      List<WriteStep> steps) {
    Path out = scratchDir();
    var args = new ArrayList<String>(List.of(out.toString(), tablePath.toAbsolutePath().toString(), tableName,
        tableType, schemaDdl));
    steps.forEach(s -> args.add(s.encode()));
    runChild(NextHudiWriterMain.class, args, out, "writing " + steps.size() + " steps into " + tablePath);
    try {
      return Files.readString(out.resolve("hudi.txt")).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Has Hudi 1.0.x's write client run {@code steps} in order from one child JVM
   * ({@link NextHudiServicesMain}): each {@code <action>|<table path>|<table name>|<instant>}, action
   * {@code savepoint} or {@code restore}. Returns where its Hudi came from.
   */
  public static String services(List<String> steps) {
    Path out = scratchDir();
    var args = new ArrayList<String>(List.of(out.toString()));
    args.addAll(steps);
    runChild(NextHudiServicesMain.class, args, out, "running " + steps);
    try {
      return Files.readString(out.resolve("hudi.txt")).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void runChild(Class<?> main, List<String> args, Path out, String what) {
    Path log = out.resolve("child.log");
    var command = new ArrayList<String>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    // short-lived and small data: C1 only and the serial collector cost ~40% less CPU than the defaults
    // (30 s -> 18 s user time for four reads of a small table), the same answers; as the Flink children
    command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    command.addAll(Arrays.asList(System.getProperty("riverbed.test.jvm.flags", "").trim().split("\\s+")));
    command.add("-Djava.io.tmpdir=" + out.resolve("tmp"));
    command.add("-Duser.timezone=UTC");
    command.add("-Djdk.attach.allowAttachSelf=true");
    command.add("-cp");
    command.add(childClasspath());
    command.add(main.getName());
    command.addAll(args);
    command.removeIf(String::isEmpty);
    try {
      Files.createDirectories(out.resolve("tmp"));
      Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!child.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        child.destroyForcibly();
        throw new IllegalStateException("Hudi 1.0 oracle timed out " + what + "; log " + log);
      }
      if (child.exitValue() != 0) {
        throw new IllegalStateException("Hudi 1.0 oracle failed (exit " + child.exitValue() + ") "
            + what + "; log " + log + ":\n" + tail(log, 60));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run the Hudi 1.0 oracle " + what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted " + what + " with Hudi 1.0", e);
    }
  }

  /** The test classpath minus Hudi 0.15's bundle, plus the 1.0.x bundle. */
  static String childClasspath() {
    Path classpathFile = Path.of(required("riverbed.oracle.classpath.file"));
    Path nextDir = Path.of(required("riverbed.oracle.next.dir"));
    var entries = new ArrayList<String>();
    try {
      entries.add(Path.of(NextHudiReaderMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString());
      for (String e : Files.readString(classpathFile).trim().split(java.io.File.pathSeparator)) {
        if (!e.contains("hudi-spark3.5-bundle")) {
          entries.add(e);
        }
      }
      try (Stream<Path> jars = Files.list(nextDir)) {
        List<Path> bundles = jars.filter(p -> p.getFileName().toString().endsWith(".jar")).toList();
        if (bundles.isEmpty()) {
          throw new IllegalStateException("no Hudi bundle in " + nextDir + " (the build copies it there)");
        }
        bundles.forEach(p -> entries.add(p.toString()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot build the Hudi 1.0 classpath", e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    return String.join(java.io.File.pathSeparator, entries);
  }

  private static String required(String property) {
    String value = System.getProperty(property);
    if (value == null) {
      throw new IllegalStateException("system property " + property + " not set (surefire sets it)");
    }
    return value;
  }

  private static Path scratchDir() {
    try {
      return Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "hudi-next-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String tail(Path log, int lines) throws IOException {
    List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }
}
