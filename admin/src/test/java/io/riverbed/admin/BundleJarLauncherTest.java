package io.riverbed.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.HdfsCluster;
import io.riverbed.format.testing.S3MockServer;
import io.riverbed.format.timeline.Action;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/bin/riverbed-admin} runs the shaded bundle jar alone (no test classpath, no other
 * jar): on a local table, on {@code s3a://} (S3Mock in a child JVM, settings through
 * {@code --conf}) and on {@code hdfs://} (a MiniDFSCluster in this JVM, found through
 * {@code HADOOP_CONF_DIR}). Runs in the {@code package} phase, after the shade plugin built the jar
 * (its surefire execution sets {@value #BUILT}); a run in the {@code test} phase, where the jar is
 * not built yet ({@code -Dtest=BundleJarLauncherTest} selects it in both), is skipped.
 */
class BundleJarLauncherTest {
  static final Path LAUNCHER = Path.of("..", "deploy", "bin", "riverbed-admin");
  static final String BUILT = "riverbed.admin.bundle.built";

  @TempDir Path dir;

  @BeforeAll
  static void onlyOnceTheJarIsBuilt() {
    assumeTrue(Boolean.getBoolean(BUILT), "the bundle jar is built in the package phase; this runs there");
  }

  record Run(int status, String stdout, String stderr) {
    JsonNode json() throws Exception {
      return new ObjectMapper().readTree(stdout);
    }

    @Override
    public String toString() {
      return "status " + status + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }
  }

  Run launch(Map<String, String> environment, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "admin", ".out");
    Path err = Files.createTempFile(dir, "admin", ".err");
    ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().remove("HADOOP_CONF_DIR");
    pb.environment().put("JAVA", System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    pb.environment().put("RIVERBED_JAVA_OPTS", "-Xmx512m -Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    // the jar the package phase just built, never a build of its own
    pb.environment().put("RIVERBED_NO_BUILD", "1");
    pb.environment().putAll(environment);
    Process p = pb.start();
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("riverbed-admin finished").isTrue();
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  Run launch(String... args) throws Exception {
    return launch(Map.of(), args);
  }

  @Test
  void listsCommitsAndCompactsALocalTableFromTheBundleJar() throws Exception {
    OrdersTable t = OrdersTable.create(dir, TableType.MERGE_ON_READ);
    String base = t.bulkInsert(1);
    String delta = t.upsertRound(2);
    Map<String, String> rows = t.snapshot();

    Run commits = launch("commits", t.path());
    Run compact = launch("compact", t.path(), "--json");

    assertThat(commits.status()).as(commits.toString()).isZero();
    assertThat(commits.stderr()).isEmpty();
    assertThat(commits.stdout().lines().toList()).hasSize(3);
    assertThat(commits.stdout().lines().toList().get(1)).startsWith(base + "  deltacommit  COMPLETED  BULK_INSERT");
    assertThat(commits.stdout().lines().toList().get(2)).startsWith(delta + "  deltacommit  COMPLETED  UPSERT");
    assertThat(compact.status()).as(compact.toString()).isZero();
    String c = compact.json().get("scheduled").asText();
    assertThat(t.timeline().ofAction(Action.COMMIT).completed().times()).containsExactly(c);
    assertThat(t.snapshot()).isEqualTo(rows);
  }

  @Test
  void failuresAreOneLineWithTheExitCodes() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("empty"));

    Run notATable = launch("commits", empty.toString());
    Run badFlag = launch("commits", empty.toString(), "--bogus");

    assertThat(notATable.status()).isEqualTo(1);
    assertThat(notATable.stdout()).isEmpty();
    assertThat(notATable.stderr().lines().toList()).containsExactly("riverbed-admin commits: file:" + empty
        + " is not a Hudi table: no .hoodie/hoodie.properties");
    assertThat(badFlag.status()).isEqualTo(2);
    assertThat(badFlag.stderr().lines().toList()).containsExactly("riverbed-admin commits: Unknown option: '--bogus' "
        + "(riverbed-admin commits --help lists the options)");
  }

  @Test
  void readsATableOnS3aWithTheSettingsGivenAsConf() throws Exception {
    try (S3MockServer s3 = S3MockServer.start(dir.resolve("s3mock"))) {
      OrdersTable t = OrdersTable.create(s3.uri("orders"), TableType.COPY_ON_WRITE, s3.hadoopConf());
      String first = t.upsertRound(1);
      String second = t.upsertRound(2);
      List<String> args = new ArrayList<>(List.of("commits", s3.uri("orders"), "--json"));
      s3.s3aSettings().forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));

      Run run = launch(args.toArray(String[]::new));

      assertThat(run.status()).as(run.toString()).isZero();
      assertThat(run.json()).extracting(r -> r.get("time").asText()).containsExactly(first, second);
      assertThat(run.stdout() + run.stderr()).doesNotContain(s3.s3aSettings().get("fs.s3a.secret.key"));
    }
  }

  @Test
  void findsAnHdfsTableThroughHadoopConfDir() throws Exception {
    try (HdfsCluster hdfs = HdfsCluster.start(dir.resolve("hdfs"))) {
      Configuration conf = new Configuration();
      hdfs.clientSettings().forEach(conf::set);
      OrdersTable t = OrdersTable.create(hdfs.uri("lake/orders"), TableType.MERGE_ON_READ, conf);
      t.bulkInsert(1);
      t.upsertRound(2);
      Path siteDir = Files.createDirectories(dir.resolve("hadoop-conf"));
      StringBuilder site = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
      site.append("  <property><name>fs.defaultFS</name><value>").append(hdfs.uri("")).append("</value></property>\n");
      hdfs.clientSettings().forEach((k, v) ->
          site.append("  <property><name>").append(k).append("</name><value>").append(v).append("</value></property>\n"));
      Files.writeString(siteDir.resolve("core-site.xml"), site.append("</configuration>\n"));

      Run run = launch(Map.of("HADOOP_CONF_DIR", siteDir.toString()), "file-slices", "/lake/orders", "--json");

      assertThat(run.status()).as(run.toString()).isZero();
      assertThat(run.json().size()).isEqualTo(2);
      assertThat(run.json().get(0).get("logFiles").asInt()).isEqualTo(1);
    }
  }
}
