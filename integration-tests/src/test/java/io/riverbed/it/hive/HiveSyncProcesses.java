package io.riverbed.it.hive;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;

/**
 * The Hive 3.1 side of the hive sync tests, each in its own JVM on hive-sync's classpath (this JVM
 * holds Spark's Hive 2.3.9, whose packages clash with Hive 3.1's): the Hive Metastore itself
 * ({@code io.riverbed.hive.testing.MetastoreServer} from hive-sync's tests) and Riverbed's sync
 * command line ({@code io.riverbed.hive.HiveSyncMain}).
 */
public final class HiveSyncProcesses {
  private HiveSyncProcesses() {}

  /** hive-sync's {@code target} folder (system property {@code riverbed.hive.sync.target}). */
  static Path hiveSyncTarget() {
    Path target = Path.of(System.getProperty("riverbed.hive.sync.target", "../hive-sync/target")).toAbsolutePath().normalize();
    if (!Files.isDirectory(target.resolve("test-classes")) || !Files.exists(target.resolve("test-classpath.txt"))) {
      throw new IllegalStateException(target + " lacks test-classes or test-classpath.txt: build through the reactor "
          + "(mvn -pl integration-tests -am verify) so hive-sync is built first");
    }
    return target;
  }

  static String classpath() {
    Path target = hiveSyncTarget();
    try {
      return target.resolve("classes") + File.pathSeparator + target.resolve("test-classes") + File.pathSeparator
          + Files.readString(target.resolve("test-classpath.txt"), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<String> java(Path workDir, String main, List<String> args) throws IOException {
    Path tmp = Files.createDirectories(workDir.resolve("tmp"));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + tmp, "-Duser.timezone=UTC",
        "-cp", classpath(), main));
    cmd.addAll(args);
    return cmd;
  }

  /** A Hive Metastore 3.1.3 with embedded Derby under {@code dir}, in a child JVM; close to stop it. */
  public static final class Metastore implements AutoCloseable {
    final Process process;
    public final String uri;

    private Metastore(Process process, String uri) {
      this.process = process;
      this.uri = uri;
    }

    static Metastore start(Path dir) throws IOException {
      Files.createDirectories(dir);
      Path log = dir.resolve("metastore.log");
      Process p = new ProcessBuilder(java(dir, "io.riverbed.hive.testing.MetastoreServer", List.of(dir.resolve("hms").toString())))
          .redirectError(log.toFile()).start();
      var ready = new java.util.concurrent.CompletableFuture<String>();
      Thread reader = new Thread(() -> {
        try (var in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = in.readLine()) != null) {
            if (line.startsWith("METASTORE ")) {
              ready.complete(line.substring("METASTORE ".length()).trim());
            }
          }
          ready.completeExceptionally(new IllegalStateException("metastore exited; log " + log));
        } catch (IOException e) {
          ready.completeExceptionally(e);
        }
      }, "metastore-stdout");
      reader.setDaemon(true);
      reader.start();
      try {
        return new Metastore(p, ready.get(120, TimeUnit.SECONDS));
      } catch (Exception e) {
        p.destroyForcibly();
        throw new IllegalStateException("Hive Metastore did not start; log " + log + ":\n" + Files.readString(log), e);
      }
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** A {@link Metastore} and a client of it (Spark's Hive 2.3.9 in this JVM), for a test class's lifetime. */
  public static final class MetastoreWithClient implements AutoCloseable {
    public final Metastore metastore;
    public final HiveMetaStoreClient client;

    private MetastoreWithClient(Metastore metastore, HiveMetaStoreClient client) {
      this.metastore = metastore;
      this.client = client;
    }

    public static MetastoreWithClient start(Path dir) throws Exception {
      Metastore metastore = Metastore.start(dir);
      try {
        HiveConf conf = new HiveConf();
        conf.setVar(HiveConf.ConfVars.METASTOREURIS, metastore.uri);
        return new MetastoreWithClient(metastore, new HiveMetaStoreClient(conf));
      } catch (Exception e) {
        metastore.close();
        throw e;
      }
    }

    @Override
    public void close() throws InterruptedException {
      client.close();
      metastore.close();
    }
  }

  /** Runs {@code riverbed-hive-sync} (its main class) with {@code args}; returns stdout, fails with stderr unless it exits 0. */
  static String sync(Path workDir, Duration timeout, List<String> args) {
    try {
      Files.createDirectories(workDir);
      Path out = Files.createTempFile(workDir, "sync-", ".out");
      Path err = Files.createTempFile(workDir, "sync-", ".err");
      Process p = new ProcessBuilder(java(workDir, "io.riverbed.hive.HiveSyncMain", args))
          .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError("riverbed-hive-sync did not end within " + timeout + ":\n" + Files.readString(err));
      }
      if (p.exitValue() != 0) {
        throw new AssertionError("riverbed-hive-sync exited with " + p.exitValue() + ":\n" + Files.readString(err));
      }
      return Files.readString(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
