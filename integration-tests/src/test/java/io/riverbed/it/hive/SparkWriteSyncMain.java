package io.riverbed.it.hive;

import io.riverbed.it.oracle.LocalSpark;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * Riverbed's Spark writer running {@link EmrGuideWrites} with Hive sync in a child JVM laid out as a
 * Spark cluster with Riverbed's Spark bundle: the test classpath without Hudi's bundle and without
 * Riverbed's unshaded modules, plus {@code riverbed-spark-reader-<version>-bundle.jar}, so Spark's own
 * Hive 2.3.9 (spark-hive) and the bundle's relocated Hive 3.1 client share the JVM. The child makes
 * the first writes, says {@value #FIRST_DONE} and waits for a line naming the tables to read; then it
 * makes the second writes, reads those tables by name with Spark SQL (Hive support,
 * {@code RiverbedCatalog}) into {@code <table>.jsonl} and says {@value #SECOND_DONE}.
 */
final class SparkWriteSyncMain {
  static final String FIRST_DONE = "FIRST WRITES DONE";
  static final String SECOND_DONE = "SECOND WRITES DONE";
  static final String DATABASE = "riverbed_db";

  /** One table the child writes: its type ({@code COPY_ON_WRITE|MERGE_ON_READ}), base path and name. */
  record Write(String tableType, String basePath, String table) {}

  private SparkWriteSyncMain() {}

  /** The spark-reader bundle jar (in {@code riverbed.spark.reader.target}, else {@code ../spark-reader/target}). */
  static Path bundleJar() {
    Path target = Path.of(System.getProperty("riverbed.spark.reader.target", "../spark-reader/target")).toAbsolutePath().normalize();
    try (Stream<Path> files = Files.isDirectory(target) ? Files.list(target) : Stream.empty()) {
      return files.filter(f -> f.getFileName().toString().matches("riverbed-spark-reader-.*-bundle\\.jar")).findFirst()
          .orElseThrow(() -> new IllegalStateException(target + " holds no riverbed-spark-reader-<version>-bundle.jar: "
              + "build through the reactor (mvn -pl integration-tests -am verify) so spark-reader is packaged first"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * This module's test classes, the bundle, and the test classpath without Hudi's bundle
   * ({@code riverbed.oracle.classpath.file}) minus Riverbed's own modules, which the bundle replaces.
   */
  static String classpath() {
    String file = System.getProperty("riverbed.oracle.classpath.file");
    if (file == null) {
      throw new IllegalStateException("system property riverbed.oracle.classpath.file not set (surefire sets it)");
    }
    try {
      var entries = new ArrayList<String>();
      entries.add(Path.of(SparkWriteSyncMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      entries.add(bundleJar().toString());
      for (String entry : Files.readString(Path.of(file)).trim().split(File.pathSeparator)) {
        if (!entry.isEmpty() && !isRiverbedModule(Path.of(entry))) {
          entries.add(entry);
        }
      }
      return String.join(File.pathSeparator, entries);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A Riverbed jar, or a reactor module's (unpackaged) classes folder. */
  static boolean isRiverbedModule(Path entry) {
    String name = entry.getFileName().toString();
    Path parent = entry.getParent();
    return name.startsWith("riverbed-") || ((name.equals("classes") || name.equals("test-classes"))
        && parent != null && parent.getFileName().toString().equals("target"));
  }

  /** The running child; {@link #close} ends it. */
  static final class Child implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Writer stdin;

    private Child(Process process, Path log) {
      this.process = process;
      this.log = log;
      this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      Thread reader = new Thread(() -> {
        try (var in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = in.readLine()) != null) {
            lines.add(line);
          }
        } catch (IOException e) {
          lines.add("stdout failed: " + e);
        }
        lines.add("EXITED");
      }, "spark-write-sync-stdout");
      reader.setDaemon(true);
      reader.start();
    }

    static Child start(String metastoreUri, Path workDir, List<Write> writes) throws IOException {
      Path out = Files.createDirectories(workDir);
      Path log = out.resolve("spark-write-sync.log");
      List<String> command = SqlByNameMain.sparkJvm(out, classpath(), SparkWriteSyncMain.class);
      command.add(metastoreUri);
      command.add(out.toString());
      writes.forEach(w -> command.addAll(List.of(w.tableType(), w.basePath(), w.table())));
      return new Child(new ProcessBuilder(command).redirectError(log.toFile()).start(), log);
    }

    /** Waits for the child to print {@code expected}; fails with the end of its log if it prints anything else first or exits. */
    void await(String expected, Duration timeout) throws Exception {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (expected.equals(line)) {
          return;
        }
        if (line == null || line.equals("EXITED")) {
          process.waitFor(10, TimeUnit.SECONDS);
          List<String> logLines = Files.readAllLines(log);
          throw new AssertionError("Riverbed's Spark write with Hive sync " + (line == null ? "did not say '" + expected
              + "' within " + timeout : "exited before saying '" + expected + "'") + "; log " + log + ":\n"
              + String.join("\n", logLines.subList(Math.max(0, logLines.size() - 80), logLines.size())));
        }
      }
    }

    /** Lets the child make the second writes and then read {@code tables} by name. */
    void proceed(List<String> tables) throws IOException {
      stdin.write(String.join(" ", tables) + "\n");
      stdin.flush();
    }

    Path output(String table) {
      return log.resolveSibling(table + ".jsonl");
    }

    @Override
    public void close() throws InterruptedException {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** Arguments: {@code METASTORE_URI OUT (TABLE_TYPE BASE_PATH TABLE)...}. */
  public static void main(String[] args) throws IOException {
    String metastoreUri = args[0];
    Path out = Path.of(args[1]);
    var writes = new ArrayList<Write>();
    for (int i = 2; i + 2 < args.length; i += 3) {
      writes.add(new Write(args[i], args[i + 1], args[i + 2]));
    }
    SparkSession spark = LocalSpark.withoutHudi("spark-write-sync-riverbed")
        .config("spark.sql.catalog.spark_catalog", "io.riverbed.spark.RiverbedCatalog")
        .config("spark.hadoop.hive.metastore.uris", metastoreUri)
        .enableHiveSupport()
        .getOrCreate();
    try {
      for (Write w : writes) {
        EmrGuideWrites.first(spark, "hudi", w.basePath(), EmrGuideWrites.options(w.table(), w.tableType(), DATABASE, metastoreUri));
      }
      System.out.println(FIRST_DONE);
      String tables = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      if (tables == null) {
        throw new IllegalStateException("stdin closed before the second writes");
      }
      for (Write w : writes) {
        EmrGuideWrites.second(spark, "hudi", w.basePath(), EmrGuideWrites.options(w.table(), w.tableType(), DATABASE, metastoreUri));
      }
      for (String table : tables.trim().split(" ")) {
        String name = DATABASE + "." + table;
        SqlByNameMain.requireRiverbedScan(spark, name);
        Rows rows = SparkOracle.canonicalRows(spark.sql("SELECT * FROM " + name));
        rows.writeJsonLines(out.resolve(table + ".jsonl"));
      }
      System.out.println(SECOND_DONE);
    } finally {
      spark.stop();
    }
  }
}
