package io.riverbed.hive;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.hive.testing.MetastoreExtension;
import io.riverbed.hive.testing.TestTables;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/bin/riverbed-hive-sync} runs the shaded bundle jar alone (no test classpath, no
 * other jar) against a real metastore: the table lands in it, and a failure is one line on stderr.
 * Runs in the {@code package} phase, after the shade plugin built the jar.
 */
class BundleJarLauncherTest {
  static final Path LAUNCHER = Path.of("..", "deploy", "bin", "riverbed-hive-sync");

  @RegisterExtension
  static final MetastoreExtension metastore = new MetastoreExtension();

  @TempDir
  static Path dir;
  static HiveMetaStoreClient hms;

  record Run(int status, List<String> stdout, String stderr) {}

  @BeforeAll
  static void client() {
    hms = metastore.client();
  }

  static Run launch(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "sync", ".out");
    Path err = Files.createTempFile(dir, "sync", ".err");
    ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("JAVA", System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    pb.environment().put("RIVERBED_JAVA_OPTS", "-Xmx512m -Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    Process p = pb.start();
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("riverbed-hive-sync finished").isTrue();
    return new Run(p.exitValue(), Files.readAllLines(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void syncsAMergeOnReadTableFromTheBundleJar() throws Exception {
    Table table = TestTables.create(dir.resolve("bundle_trips"), "bundle_trips", TableType.MERGE_ON_READ,
        List.of("region", "city"), true);
    String instant = TestTables.commit(table, TestTables.TRIP, List.of(
        TestTables.trip(TestTables.TRIP, "a", 1, "eu", "paris"),
        TestTables.trip(TestTables.TRIP, "b", 2, "us", "sf")));

    Run run = launch("--base-path", table.basePath().toString(), "--database", "bundled", "--metastore-uris", metastore.uri());

    assertThat(run.status()).as(run.stderr()).isZero();
    assertThat(run.stdout()).containsExactly(
        "bundled.bundle_trips_ro: created, partitions +2 ~0 -0, last_commit_time_sync=" + instant,
        "bundled.bundle_trips_rt: created, partitions +2 ~0 -0, last_commit_time_sync=" + instant,
        "bundled.bundle_trips: created, partitions +2 ~0 -0, last_commit_time_sync=" + instant);
    assertThat(run.stderr()).isEmpty();
    var sd = hms.getTable("bundled", "bundle_trips_rt").getSd();
    assertThat(sd.getInputFormat()).isEqualTo("org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat");
    // the bundle relocates Hive's client packages; the names it registers must stay Hive's own
    assertThat(sd.getOutputFormat()).isEqualTo("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat");
    assertThat(sd.getSerdeInfo().getSerializationLib())
        .isEqualTo("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe");
    assertThat(hms.listPartitionNames("bundled", "bundle_trips_ro", (short) -1))
        .containsExactlyInAnyOrder("region=eu/city=paris", "region=us/city=sf");
  }

  @Test
  void aPathWithoutATableIsOneLineOnStderr() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("empty"));

    Run run = launch("--base-path", empty.toUri().toString(), "--metastore-uris", metastore.uri());

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr().strip()).startsWith("riverbed-hive-sync: ").contains("is not a Hudi table").doesNotContain("\n");
  }
}
