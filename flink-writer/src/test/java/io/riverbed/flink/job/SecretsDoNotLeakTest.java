package io.riverbed.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.riverbed.flink.sink.FaultInjection;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secret options (Hive sync passwords, a JDBC URL's password, s3a keys passed as {@code hadoop.*})
 * given to the write job appear in none of what the job leaves behind: no log line of any logger
 * in the JVM (INFO and above, stack traces included), no message or {@code toString} in the
 * exception chain of a failed job, no byte of any file under the table (timeline = commit
 * metadata, {@code hoodie.properties}, data files) or of its retained checkpoints.
 */
class SecretsDoNotLeakTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  /** Secret option → its unique marker value (each value is a marker, or holds one). */
  private static final Map<String, String> SECRETS = Map.of(
      "hoodie.datasource.hive_sync.password", "hudi-hive-pw-q7XmarkerA",
      "hive_sync.password", "flink-hive-pw-q7XmarkerB",
      "hoodie.datasource.hive_sync.jdbcurl", "jdbc:hive2://h:10000/db;password=jdbc-pw-q7XmarkerC;ssl=true",
      "hive_sync.jdbc_url", "jdbc:hive2://h:10000/db;user=u;password=jdbc-pw-q7XmarkerD",
      "hadoop.fs.s3a.secret.key", "s3a-secret-q7XmarkerE",
      "hadoop.fs.s3a.access.key", "s3a-access-q7XmarkerF",
      "fs.s3a.access.key", "s3a-access-q7XmarkerG");
  private static final List<String> MARKERS = List.of("q7XmarkerA", "q7XmarkerB", "q7XmarkerC", "q7XmarkerD",
      "q7XmarkerE", "q7XmarkerF", "q7XmarkerG");

  @TempDir Path dir;

  @AfterEach
  void disarm() {
    FaultInjection.reset();
  }

  private static void runJob(List<String> args) throws Exception {
    WriteJobConfig config = WriteJobArguments.parse(args.toArray(new String[0]));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(WriteJob.flinkConfiguration(config));
    WriteJob.run(config, env, TableSinkBuilder.tableWriter());
  }

  /**
   * The job's flags with every secret option set, and a Hive sync that is enabled but points at a
   * port where no metastore listens (each sync fails after its commit and is logged).
   */
  private List<String> args(Path input, Path table, Path checkpoints, String... more) {
    List<String> a = new ArrayList<>(List.of("--source", "file", "--input", input.toString(),
        "--table-path", table.toString(), "--table-name", "orders", "--table-type", "MERGE_ON_READ",
        "--record-key", "id", "--precombine", "ts", "--partition-path", "region", "--hive-style",
        "--checkpoint-interval", "300ms", "--checkpoint-dir", checkpoints.toString(), "--parallelism", "1",
        "--flink-conf", "restart-strategy.type=none",
        "--set", "hive_sync.enabled=true", "--set", "hive_sync.metastore.uris=thrift://127.0.0.1:1",
        "--set", "hive_sync.username=hive", "--set", "hadoop.metastore.connect.retries=1"));
    SECRETS.forEach((k, v) -> a.addAll(List.of("--set", k + "=" + v)));
    a.addAll(List.of(more));
    return a;
  }

  private Path input(String text) throws IOException {
    return Files.writeString(dir.resolve("orders.jsonl"), text);
  }

  private static final String GOOD_LINES = """
      {"id": "o1", "ts": 1, "amount": 10.0, "region": "eu"}
      {"id": "o2", "ts": 1, "amount": 20.0, "region": "us"}
      {"id": "o1", "ts": 3, "amount": 11.0, "region": "eu"}
      """;

  @Test
  void aCommittingJobWithAFailingHiveSyncLogsAndWritesNoSecret() throws Exception {
    Path table = dir.resolve("orders");
    Path checkpoints = JobCheckpointFolders.create("secrets");
    List<String> logs;
    try (LogCapture capture = LogCapture.start(Level.INFO)) {
      runJob(args(input(GOOD_LINES), table, checkpoints));
      logs = capture.events();
    }

    assertNoMarker("log", String.join("\n", logs));
    assertNoMarkerInFiles(table);
    assertNoMarkerInFiles(checkpoints);
    assertThat(WriteJobEndToEndTest.snapshot(table)).containsOnlyKeys("o1", "o2");
    // the options reached the job's log (redacted), and the sync ran with them and failed
    assertThat(logs).anySatisfy(e -> assertThat(e).contains("table options").contains("hive_sync.password=******"));
    assertThat(logs).anySatisfy(e -> assertThat(e).contains("Hive sync of table").contains("failed"));
  }

  @Test
  void aJobFailingOnABadRecordNamesNoSecretInItsExceptionChainOrLogs() throws Exception {
    Path table = dir.resolve("orders");
    Path checkpoints = JobCheckpointFolders.create("secrets");
    Path input = input(GOOD_LINES + "{\"id\": \"o3\", \"ts\": \"not a number\", \"amount\": 1.0, \"region\": \"eu\"}\n");
    Path schema = Files.writeString(dir.resolve("orders.avsc"), """
        {"type": "record", "name": "o", "fields": [{"name": "id", "type": "string"}, {"name": "ts", "type": "long"},
          {"name": "amount", "type": "double"}, {"name": "region", "type": "string"}]}""");
    Throwable failure;
    String logs;
    try (LogCapture capture = LogCapture.start(Level.INFO)) {
      failure = catchThrowable(() -> runJob(args(input, table, checkpoints, "--schema", schema.toString(),
          "--on-bad-record", "fail")));
      logs = capture.text();
    }

    assertThat(failure).isNotNull();
    assertThat(chainText(failure)).contains("not a number");
    assertNoMarker("exception chain", chainText(failure));
    assertNoMarker("log", logs);
    assertNoMarkerInFiles(table);
    assertNoMarkerInFiles(checkpoints);
  }

  @Test
  void aJobFailingInItsFirstCommitLeavesNoSecretInTheTimelineOrTheRetainedCheckpoint() throws Exception {
    Path table = dir.resolve("orders");
    Path checkpoints = JobCheckpointFolders.create("secrets");
    FaultInjection.arm(FaultInjection.COORDINATOR_DURING_COMMIT, 1);
    Throwable failure;
    String logs;
    try (LogCapture capture = LogCapture.start(Level.INFO)) {
      failure = catchThrowable(() -> runJob(args(input(GOOD_LINES), table, checkpoints)));
      logs = capture.text();
    }

    assertThat(FaultInjection.fired(FaultInjection.COORDINATOR_DURING_COMMIT)).isEqualTo(1);
    assertThat(chainText(failure)).contains("injected failure at " + FaultInjection.COORDINATOR_DURING_COMMIT);
    // the commit's checkpoint is retained (the job failed) and its commit file is on the timeline
    try (Stream<Path> files = Files.walk(checkpoints)) {
      assertThat(files.map(p -> p.getFileName().toString())).contains("_metadata");
    }
    try (Stream<Path> files = Files.walk(table.resolve(".hoodie"))) {
      assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".deltacommit"));
    }
    assertNoMarker("exception chain", chainText(failure));
    assertNoMarker("log", logs);
    assertNoMarkerInFiles(table);
    assertNoMarkerInFiles(checkpoints);
  }

  @Test
  void theJobsSettingsPrintWithoutSecrets() {
    Path input = dir.resolve("orders.jsonl");
    WriteJobConfig config = WriteJobArguments.parse(args(input, dir.resolve("t"), dir.resolve("c"),
        "--flink-conf", "s3.secret-key=flink-s3-q7XmarkerH").toArray(new String[0]));
    var options = new java.util.LinkedHashMap<>(config.tableOptions());

    assertNoMarker("WriteJobConfig.toString", config.toString());
    assertThat(config.toString()).as("a Flink option's secret").doesNotContain("q7XmarkerH").contains("s3.secret-key=******");
    assertNoMarker("FlinkWriteOptions.toString", io.riverbed.flink.sink.FlinkWriteOptions.fromMap(options).toString());
  }

  /** Every message and {@code toString} of the chain, causes and suppressed ones, as the stack trace prints them. */
  private static String chainText(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    for (Throwable c = t; c != null; c = c.getCause()) {
      out.append('\n').append(String.valueOf(c.getMessage())).append('\n').append(c.toString());
    }
    return out.toString();
  }

  private static void assertNoMarker(String where, String text) {
    for (String marker : MARKERS) {
      assertThat(text).as("a secret (%s) in the %s", marker, where).doesNotContain(marker);
    }
  }

  /** Scans every file under {@code root} (bytes as ISO-8859-1, so binary files are scanned too). */
  private static void assertNoMarkerInFiles(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    for (Path f : files) {
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(f);
      } catch (java.nio.file.NoSuchFileException gone) {
        continue; // removed since the listing (the writer lease, released when the job's coordinator closes)
      }
      assertNoMarker("file " + root.relativize(f), new String(bytes, StandardCharsets.ISO_8859_1));
    }
  }
}
