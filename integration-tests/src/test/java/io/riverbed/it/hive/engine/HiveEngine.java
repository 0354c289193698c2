package io.riverbed.it.hive.engine;

import io.riverbed.format.testing.Await;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real Hive 4 for a test class: {@link HiveEngineMain} in a child JVM on the classpath
 * hive-server-libs writes (system property {@code riverbed.hive.server.classpath.file}), with a
 * metastore over thrift ({@link #metastoreUri}, Derby under the test's folder), HiveServer2
 * embedded, local MapReduce, every scratch and log folder under the test's folder, and the given
 * jars on Hive's auxiliary path ({@code hive.aux.jars.path}). {@link #query} runs a statement.
 */
public final class HiveEngine implements AutoCloseable {
  private final Process process;
  private final BufferedWriter requests;
  private final BlockingQueue<String> answers;
  private final Path log;
  public final String metastoreUri;

  private HiveEngine(Process process, BlockingQueue<String> answers, Path log, String metastoreUri) {
    this.process = process;
    this.requests = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    this.answers = answers;
    this.log = log;
    this.metastoreUri = metastoreUri;
  }

  /** Starts Hive with {@code auxJars} (none for a Hive without extra jars) under {@code dir}. */
  public static HiveEngine start(Path dir, List<Path> auxJars) throws IOException {
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    int port = freePort();
    Files.writeString(conf.resolve("hive-site.xml"), siteXml(settings(dir, port, auxJars)), StandardCharsets.UTF_8);
    Files.writeString(conf.resolve("log4j2.properties"), LOG_CONFIG, StandardCharsets.UTF_8);
    Path log = dir.resolve("hive.log");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + tmp, "-Duser.timezone=UTC",
        "-Dderby.system.home=" + dir.resolve("derby-home"), "-Dhive.log.dir=" + dir.resolve("logs")));
    cmd.addAll(Arrays.asList(System.getProperty("riverbed.test.jvm.flags", "").trim().split("\\s+")));
    cmd.addAll(List.of("-cp", conf + File.pathSeparator + classesOf(HiveEngineMain.class) + File.pathSeparator
        + classesOf(Await.class) + File.pathSeparator + hiveClasspath(),
        HiveEngineMain.class.getName(), String.valueOf(port)));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(log.toFile()).start();
    BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (var in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          answers.add(line);
        }
      } catch (IOException e) {
        answers.add("ERROR " + Base64.getEncoder().encodeToString(e.toString().getBytes(StandardCharsets.UTF_8)));
      }
      answers.add("EXITED");
    }, "hive-stdout");
    reader.setDaemon(true);
    reader.start();
    HiveEngine hive = new HiveEngine(p, answers, log, "thrift://127.0.0.1:" + port);
    String first = hive.next(300);
    if (!"READY".equals(first)) {
      hive.close();
      throw new IllegalStateException("Hive did not start (" + first + "); log " + log + ":\n" + tail(log));
    }
    return hive;
  }

  /** Warnings and errors (a failed map task's among them) to standard error, which goes to the log file. */
  private static final String LOG_CONFIG = String.join("\n",
      "status = error",
      "appender.console.type = Console",
      "appender.console.name = console",
      "appender.console.target = SYSTEM_ERR",
      "appender.console.layout.type = PatternLayout",
      "appender.console.layout.pattern = %d{HH:mm:ss.SSS} %-5p %c{1}: %m%n",
      "rootLogger.level = warn",
      "rootLogger.appenderRef.console.ref = console", "");

  /** The settings that do not depend on the run (hive-engine-site.properties beside this class). */
  private static final Map<String, String> FIXED_SETTINGS = fixedSettings();

  private static Map<String, String> fixedSettings() {
    java.util.Properties props = new java.util.Properties();
    try (var in = HiveEngine.class.getResourceAsStream("hive-engine-site.properties")) {
      if (in == null) {
        throw new IllegalStateException("no hive-engine-site.properties beside " + HiveEngine.class.getName());
      }
      props.load(in);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read hive-engine-site.properties beside " + HiveEngine.class.getName(), e);
    }
    Map<String, String> settings = new java.util.TreeMap<>();
    props.forEach((k, v) -> settings.put((String) k, (String) v));
    return settings;
  }

  private static Map<String, String> settings(Path dir, int port, List<Path> auxJars) {
    Map<String, String> s = new LinkedHashMap<>(FIXED_SETTINGS);
    s.put("javax.jdo.option.ConnectionURL", "jdbc:derby:;databaseName=" + dir.resolve("metastore_db") + ";create=true");
    s.put("metastore.warehouse.dir", dir.resolve("warehouse").toUri().toString());
    s.put("hive.metastore.warehouse.dir", dir.resolve("warehouse").toUri().toString());
    s.put("hive.metastore.uris", "thrift://127.0.0.1:" + port);
    s.put("metastore.thrift.uris", "thrift://127.0.0.1:" + port);
    s.put("hive.exec.scratchdir", dir.resolve("scratch").toString());
    s.put("hive.exec.local.scratchdir", dir.resolve("local-scratch").toString());
    s.put("hive.downloaded.resources.dir", dir.resolve("resources").toString());
    s.put("hive.querylog.location", dir.resolve("querylog").toString());
    s.put("hive.server2.logging.operation.log.location", dir.resolve("operation-logs").toString());
    s.put("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
    s.put("mapreduce.cluster.local.dir", dir.resolve("mr-local").toString());
    s.put("mapreduce.jobtracker.staging.root.dir", dir.resolve("mr-staging").toString());
    s.put("yarn.app.mapreduce.am.staging-dir", dir.resolve("mr-staging").toString());
    s.put("hive.user.install.directory", dir.resolve("user-install").toUri().toString());
    s.put("hive.repl.rootdir", dir.resolve("repl").toString());
    s.put("hive.repl.cmrootdir", dir.resolve("cmroot").toString());
    s.put("hive.metastore.repl.cmrootdir", dir.resolve("cmroot").toString());
    s.put("metastore.repl.cmrootdir", dir.resolve("cmroot").toString());
    if (!auxJars.isEmpty()) {
      s.put("hive.aux.jars.path", auxJars.stream().map(j -> j.toUri().toString()).collect(Collectors.joining(",")));
    }
    return s;
  }

  private static String siteXml(Map<String, String> settings) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    settings.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>")
        .append(v.replace("&", "&amp;").replace("<", "&lt;")).append("</value></property>\n"));
    return xml.append("</configuration>\n").toString();
  }

  /** The class folder or jar {@code type} was loaded from. */
  private static String classesOf(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String hiveClasspath() throws IOException {
    String file = System.getProperty("riverbed.hive.server.classpath.file");
    if (file == null || !Files.exists(Path.of(file))) {
      throw new IllegalStateException("no Hive classpath file (" + file + "): build through the reactor "
          + "(mvn -pl integration-tests -am verify) so hive-server-libs writes it");
    }
    return Files.readString(Path.of(file), StandardCharsets.UTF_8).trim();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Runs {@code sql}; its rows (cells as HiveServer2's JDBC driver prints them, null as null), empty for a statement without. */
  public List<List<String>> query(String sql) {
    try {
      requests.write(Base64.getEncoder().encodeToString(sql.getBytes(StandardCharsets.UTF_8)));
      requests.newLine();
      requests.flush();
      List<List<String>> rows = new ArrayList<>();
      while (true) {
        String line = next(600);
        if (line.equals("END")) {
          return rows;
        }
        if (line.startsWith("ERROR ")) {
          throw new HiveQueryException(sql, new String(Base64.getDecoder().decode(line.substring(6)), StandardCharsets.UTF_8));
        }
        if (!line.startsWith("ROW")) {
          throw new IllegalStateException("Hive answered '" + line + "' to " + sql + "; log " + log + ":\n" + tail(log));
        }
        List<String> row = new ArrayList<>();
        for (String cell : line.substring(3).trim().isEmpty() ? new String[0] : line.substring(4).split(" ")) {
          row.add(cell.equals("-") ? null : new String(Base64.getDecoder().decode(cell), StandardCharsets.UTF_8));
        }
        rows.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Hive's process is gone; log " + log, e);
    }
  }

  private String next(int seconds) {
    try {
      String line = answers.poll(seconds, TimeUnit.SECONDS);
      if (line == null) {
        throw new IllegalStateException("Hive did not answer within " + seconds + " s; log " + log);
      }
      if (line.equals("EXITED")) {
        throw new IllegalStateException("Hive's process ended; log " + log + ":\n" + tail(log));
      }
      return line;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** Ends Hive: its standard input closed, it leaves its loop and exits; killed if it does not within 30 s. */
  @Override
  public void close() {
    try {
      requests.close();
    } catch (IOException ignored) {
      // the process may be gone already; it is ended below either way
    }
    try {
      process.onExit().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  /** A statement Hive refused or failed, with Hive's error. */
  public static final class HiveQueryException extends RuntimeException {
    public HiveQueryException(String sql, String error) {
      super("Hive failed: " + sql + "\n" + error);
    }
  }
}
