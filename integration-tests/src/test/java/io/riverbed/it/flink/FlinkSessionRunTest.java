package io.riverbed.it.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.Await;
import io.riverbed.format.testing.S3MockServer;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.it.oracle.SparkOracle;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standalone-session recipe, run: a Flink session cluster of a
 * {@code StandaloneSessionClusterEntrypoint} and a {@code TaskManagerRunner} in child JVMs with
 * Flink's jars only, and {@code deploy/flink/flink-run.sh standalone localhost:<rest port>}
 * submitting the job jar to it detached through Flink's {@code CliFrontend} (standing in for a
 * distribution's {@code bin/flink}). The job runs in the cluster; the table equals the input.
 */
class FlinkSessionRunTest {
  static final Path SCRIPT = Path.of("..", "deploy", "flink", "flink-run.sh");
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir static Path work;
  static Path conf;
  static int restPort;
  static final List<Process> cluster = new ArrayList<>();
  static final List<Path> logs = new ArrayList<>();

  @BeforeAll
  static void startSessionCluster() throws Exception {
    restPort = S3MockServer.freePort();
    conf = Files.createDirectories(work.resolve("conf"));
    Files.writeString(conf.resolve("config.yaml"), String.join("\n",
        "jobmanager.rpc.address: localhost",
        "jobmanager.bind-host: localhost",
        "jobmanager.rpc.port: " + S3MockServer.freePort(),
        "rest.address: localhost",
        "rest.bind-address: localhost",
        "rest.port: " + restPort,
        "taskmanager.host: localhost",
        "taskmanager.bind-host: localhost",
        "taskmanager.numberOfTaskSlots: 2",
        "taskmanager.memory.process.size: 1024m",
        "taskmanager.memory.managed.size: 64m",
        "jobmanager.memory.process.size: 768m",
        "parallelism.default: 2",
        "io.tmp.dirs: " + Files.createDirectories(work.resolve("flink-tmp")),
        ""));
    long start = System.nanoTime();
    cluster.add(startDaemon("jobmanager", "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint", List.of(), List.of()));
    // As bin/taskmanager.sh does: Flink's BashJavaUtils derives the TaskManager's JVM flags and
    // memory/CPU settings from the configuration.
    List<String> resources = taskManagerResourceParams();
    cluster.add(startDaemon("taskmanager", "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
        List.of(resources.get(0).trim().split("\\s+")), List.of(resources.get(1).trim().split("\\s+"))));
    await(Duration.ofSeconds(90), "a TaskManager with 2 free slots at the REST port", () -> {
      JsonNode overview = get("/overview");
      return overview != null && overview.path("slots-available").asInt() >= 2;
    });
    System.out.printf("standalone session up in %.1f s%n", (System.nanoTime() - start) / 1e9);
  }

  /** The two result lines of {@code BashJavaUtils GET_TM_RESOURCE_PARAMS}: JVM flags, then dynamic properties. */
  private static List<String> taskManagerResourceParams() throws IOException, InterruptedException {
    Path dir = Files.createDirectories(work.resolve("bash-java-utils"));
    List<String> cmd = WriteJobProcess.command(JobJarTest.flinkOnlyClasspath(), dir,
        "org.apache.flink.runtime.util.bash.BashJavaUtils", List.of("GET_TM_RESOURCE_PARAMS", "--configDir", conf.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as(out).isTrue();
    String prefix = "BASH_JAVA_UTILS_EXEC_RESULT:";
    List<String> results = out.lines().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).toList();
    assertThat(results).as(out).hasSize(2);
    return results;
  }

  private static Process startDaemon(String name, String main, List<String> jvmFlags, List<String> dynamicProperties)
      throws IOException {
    Path dir = Files.createDirectories(work.resolve(name));
    List<String> args = new ArrayList<>(List.of("--configDir", conf.toString()));
    args.addAll(dynamicProperties);
    List<String> cmd = new ArrayList<>(WriteJobProcess.command(JobJarTest.flinkOnlyClasspath(), dir, main, args));
    cmd.addAll(cmd.indexOf("-cp"), jvmFlags);
    Path log = dir.resolve(name + ".log");
    logs.add(log);
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  @AfterAll
  static void stopSessionCluster() throws InterruptedException {
    for (Process p : cluster) {
      p.destroy();
    }
    for (Process p : cluster) {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void flinkRunScriptSubmitsTheJobJarDetachedToAStandaloneSession() throws Exception {
    FlinkTrips trips = FlinkTrips.generate(13, 800);
    Path table = work.resolve("trips");
    Path flinkHome = fakeFlinkHome();
    Path log = work.resolve("flink-run.log");
    List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString(), "standalone", "localhost:" + restPort));
    command.addAll(trips.fileJobFlags(work, table, "MERGE_ON_READ", "500ms"));
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("FLINK_HOME", flinkHome.toString());
    pb.environment().put("RIVERBED_JOB_JAR", JobJarTest.locateJobJar().toString());
    long start = System.nanoTime();
    Process p = pb.start();
    boolean ended = p.waitFor(10, TimeUnit.MINUTES); // generous: a child Spark/Flink JVM on a loaded machine
    if (!ended) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(ended && p.exitValue() == 0).as("flink-run.sh ended with 0; output:\n%s", WriteJobProcess.tail(log)).isTrue();
    var submitted = java.util.regex.Pattern.compile("riverbed-write: submitted job ([0-9a-f]{32}) \\(detached").matcher(output);
    assertThat(submitted.find()).as(output).isTrue();
    String jobId = submitted.group(1);

    await(Duration.ofMinutes(10), "job " + jobId + " FINISHED in the session", () -> {
      JsonNode job = get("/jobs/" + jobId);
      assertThat(job == null ? "" : job.path("state").asText()).isNotIn("FAILED", "CANCELED");
      return job != null && job.path("state").asText().equals("FINISHED");
    });
    Table opened = Table.open(org.apache.hadoop.fs.FileSystem.getLocal(new org.apache.hadoop.conf.Configuration()),
        new org.apache.hadoop.fs.Path(table.toUri().toString()));
    await(Duration.ofMinutes(1), "no pending commit on the timeline", () ->
        TimelineStore.at(opened.fs(), opened.metaPath()).load().commitsTimeline().pending().instants().isEmpty());
    System.out.printf("flink-run.sh to a standalone session: job finished and committed %.1f s after submission%n",
        (System.nanoTime() - start) / 1e9);
    SparkOracle.snapshot(table).without("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_file_name")
        .assertSameAs(trips.expected(), "table written through flink-run.sh on a standalone session");
  }

  /** A FLINK_HOME whose bin/flink runs Flink's CliFrontend with Flink's jars and this session's configuration. */
  private static Path fakeFlinkHome() throws IOException {
    Path home = work.resolve("flink-home");
    Path bin = Files.createDirectories(home.resolve("bin"));
    List<String> cmd = WriteJobProcess.command(JobJarTest.flinkOnlyClasspath(), work.resolve("client"),
        "org.apache.flink.client.cli.CliFrontend", List.of());
    String script = "#!/usr/bin/env bash\nexport FLINK_CONF_DIR=" + quote(conf.toString()) + "\nexec "
        + cmd.stream().map(FlinkSessionRunTest::quote).collect(Collectors.joining(" ")) + " \"$@\"\n";
    Path flink = Files.writeString(bin.resolve("flink"), script, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(flink, PosixFilePermissions.fromString("rwxr-xr-x"));
    return home;
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  /** GET on the session's REST API; null while it does not answer. */
  private static JsonNode get(String path) throws InterruptedException {
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + restPort + path))
          .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    } catch (IOException notYet) {
      return null;
    }
  }

  private static void await(Duration timeout, String what, Await.Condition condition) throws InterruptedException {
    Await.await(what, timeout).every(Duration.ofMillis(200))
        .guardedBy(() -> {
          for (int i = 0; i < cluster.size(); i++) {
            if (!cluster.get(i).isAlive()) {
              throw new AssertionError("a session cluster process exited; its log:\n" + WriteJobProcess.tail(logs.get(i)));
            }
          }
        })
        .explainedBy(() -> {
          StringBuilder tails = new StringBuilder();
          for (Path log : logs) {
            tails.append("\n== ").append(log.getFileName()).append('\n').append(WriteJobProcess.tail(log));
          }
          return tails.toString();
        })
        .until(condition);
  }
}
