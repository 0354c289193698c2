package io.riverbed.it.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job jar flink-writer's build makes for {@code flink run}
 * ({@code riverbed-flink-writer-<version>-job.jar}): what it holds, and that Flink's own command
 * line ({@code CliFrontend run}, the class behind {@code bin/flink}) runs it with nothing but
 * Flink's jars on its classpath.
 */
class JobJarTest {
  @TempDir static Path work;
  static Path jobJar;
  static Set<String> entries;

  /** flink-writer's {@code riverbed-flink-writer-<version>-job.jar}. */
  static Path locateJobJar() throws IOException {
    try (Stream<Path> files = Files.list(WriteJobProcess.writerTarget())) {
      return files.filter(p -> p.getFileName().toString().matches("riverbed-flink-writer-.*-job\\.jar")).findFirst()
          .orElseThrow(() -> new AssertionError("no riverbed-flink-writer-*-job.jar in " + WriteJobProcess.writerTarget()));
    }
  }

  @BeforeAll
  static void findJobJar() throws IOException {
    jobJar = locateJobJar();
    entries = new HashSet<>();
    try (ZipFile zip = new ZipFile(jobJar.toFile())) {
      zip.stream().map(ZipEntry::getName).forEach(entries::add);
    }
  }

  @Test
  void jobJarHoldsTheJobTheSqlConnectorAndTheirNonFlinkDependencies() throws IOException {
    assertThat(entries).contains(
        "io/riverbed/flink/job/WriteJob.class",
        "io/riverbed/format/table/Table.class",
        "META-INF/services/org.apache.flink.table.factories.Factory",
        "org/apache/avro/Schema.class",
        "org/apache/parquet/hadoop/ParquetWriter.class",
        "com/fasterxml/jackson/databind/ObjectMapper.class",
        "org/apache/hadoop/fs/FileSystem.class",
        "org/apache/kafka/clients/consumer/KafkaConsumer.class",
        "org/apache/flink/connector/kafka/source/KafkaSource.class");
    try (JarFile jar = new JarFile(jobJar.toFile())) {
      String services = new String(jar.getInputStream(jar.getEntry("META-INF/services/org.apache.flink.table.factories.Factory"))
          .readAllBytes(), StandardCharsets.UTF_8);
      assertThat(services).contains("io.riverbed.flink.sql.HudiTableFactory", "KafkaDynamicTableFactory");
      Manifest manifest = jar.getManifest();
      assertThat(manifest.getMainAttributes().getValue("Main-Class")).isEqualTo("io.riverbed.flink.job.WriteJob");
    }
  }

  @Test
  void jobJarLeavesFlinkOutExceptTheKafkaConnector() throws IOException {
    assertThat(entries).noneMatch(e -> e.startsWith("org/apache/flink/streaming/api/")
        || e.startsWith("org/apache/flink/streaming/runtime/") || e.startsWith("org/apache/flink/runtime/")
        || e.startsWith("org/apache/flink/api/") || e.startsWith("org/apache/flink/core/")
        || e.startsWith("org/apache/flink/table/") || e.startsWith("org/apache/flink/connector/file/")
        || e.startsWith("org/apache/flink/connector/base/") || e.startsWith("org/slf4j/")
        || e.startsWith("org/apache/logging/log4j/"));
    // Every Flink class the jar holds is one of the Kafka connector's own.
    Set<String> connector = new HashSet<>();
    String connectorJar = Arrays.stream(WriteJobProcess.classpathFile("test").split(File.pathSeparator))
        .filter(p -> p.contains("flink-connector-kafka")).findFirst().orElseThrow();
    try (ZipFile zip = new ZipFile(connectorJar)) {
      zip.stream().map(ZipEntry::getName).forEach(connector::add);
    }
    List<String> flinkClasses = entries.stream().filter(e -> e.startsWith("org/apache/flink/") && e.endsWith(".class")).toList();
    assertThat(flinkClasses).isNotEmpty().allMatch(connector::contains);
  }

  /**
   * Flink's jars (what flink-writer declares 'provided'), plus jars a Flink distribution's lib/
   * holds that flink-writer's own dependencies resolved into compile scope: the logging API and
   * binding, and commons-compress (which flink-core needs).
   */
  static String flinkOnlyClasspath() {
    List<String> cp = new ArrayList<>(List.of(WriteJobProcess.classpathFile("provided").split(File.pathSeparator)));
    for (String jar : WriteJobProcess.classpathFile("test").split(File.pathSeparator)) {
      String name = Path.of(jar).getFileName().toString();
      if (name.startsWith("slf4j-api-") || name.startsWith("log4j-api-") || name.startsWith("log4j-core-")
          || name.startsWith("log4j-slf4j2-impl-") || name.startsWith("commons-compress-")) {
        cp.add(jar);
      }
    }
    return String.join(File.pathSeparator, cp);
  }

  @Test
  void flinkRunRunsTheJobJarWithOnlyFlinkOnTheClasspath() throws Exception {
    FlinkTrips trips = FlinkTrips.generate(7, 600);
    Path table = work.resolve("cow");
    Path conf = Files.createDirectories(work.resolve("flink-conf"));
    Files.writeString(conf.resolve("config.yaml"), "parallelism.default: 2\n");

    List<String> flinkRun = new ArrayList<>(List.of("org.apache.flink.client.cli.CliFrontend", "run", "-t", "local",
        jobJar.toString()));
    flinkRun.addAll(trips.fileJobFlags(work, table, "COPY_ON_WRITE", "300ms"));
    List<String> cmd = WriteJobProcess.command(flinkOnlyClasspath(), work, flinkRun.get(0), flinkRun.subList(1, flinkRun.size()));
    Path log = work.resolve("flink-run.log");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("FLINK_CONF_DIR", conf.toString());
    long start = System.nanoTime();
    Process p = pb.start();
    boolean ended = p.waitFor(10, TimeUnit.MINUTES); // generous: a child Spark/Flink JVM on a loaded machine
    if (!ended) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    assertThat(ended && p.exitValue() == 0).as("flink run ended with 0; log:\n%s", WriteJobProcess.tail(log)).isTrue();
    System.out.printf("flink run of the job jar: %.1f s%n", (System.nanoTime() - start) / 1e9);

    assertThat(TimelineInstant.completedWrites(table)).isNotEmpty();
    SparkOracle.snapshot(table).without("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_file_name")
        .assertSameAs(trips.expected(), "table written by flink run of the job jar");
  }
}
