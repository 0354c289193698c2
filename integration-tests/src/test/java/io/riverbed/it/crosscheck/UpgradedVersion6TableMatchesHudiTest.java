package io.riverbed.it.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.Table;
import io.riverbed.format.upgrade.TableVersionChange;
import io.riverbed.it.oracle.NextHudiOracle;
import io.riverbed.it.oracle.NextHudiOracle.WriteStep;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import io.riverbed.it.oracle.Version8Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A MERGE_ON_READ table Riverbed's Spark writer wrote as version 6 (insert, upsert with an update
 * losing on {@code ts}, delete), then written by Apache Hudi 1.0.2 with its defaults, which upgrades
 * it to version 8 (timeline moved to {@code .hoodie/timeline/}, layout 2) before an upsert with an
 * inline compaction and another upsert; then Riverbed's Spark writer writes on in version 8 (an
 * upsert and a delete): Riverbed's Spark reader returns Hudi 1.0.2's rows for every query kind on the
 * upgraded table, whose older log files are named by their slices' base instants and newer ones by
 * their delta commits. A copy of it downgraded by the core's {@link TableVersionChange}
 * ({@code riverbed-admin downgrade --to 6}) reads in Hudi 0.15 as in Riverbed, also after Riverbed
 * writes on in version 6: snapshot, read_optimized, incremental from the start, and time travel to
 * the downgrade's compaction and later. (Hudi 0.15 cannot read the log blocks Hudi 1.x wrote, whose
 * headers carry keys it does not know, so its time travel to older slices holding them fails.)
 */
class UpgradedVersion6TableMatchesHudiTest {

  private static final String RIVERBED = "io.riverbed.spark.HudiDataSource";

  private static Path table;
  private static Path downgraded;
  private static String downgradeCompaction;

  @BeforeAll
  static void riverbedWritesVersion6ThenHudi102UpgradesIt() throws IOException {
    Path dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "v6-upgraded-");
    Path data = Files.createDirectories(dir.resolve("data"));
    table = dir.resolve("upgraded");
    List<WriteStep> steps = Version8Scenario.steps(data, true, Map.of());
    for (WriteStep step : steps.subList(0, 3)) {
      SparkOracle.spark().read().schema(Version8Scenario.SCHEMA).json(step.jsonLines().toString())
          .write().format(RIVERBED)
          .option("hoodie.table.name", "upgraded")
          .option("hoodie.datasource.write.table.type", "MERGE_ON_READ")
          .option("hoodie.datasource.write.recordkey.field", "id")
          .option("hoodie.datasource.write.precombine.field", "ts")
          .option("hoodie.datasource.write.partitionpath.field", "part")
          .option("hoodie.datasource.write.operation", step.operation())
          .mode("append").save(table.toUri().toString());
    }
    assertThat(Files.readString(table.resolve(".hoodie/hoodie.properties"))).contains("hoodie.table.version=6");
    NextHudiOracle.write(table, "upgraded", "MERGE_ON_READ", Version8Scenario.SCHEMA, steps.subList(3, 5));
    riverbedWrites(table, "upsert", Version8Scenario.rows(IntStream.of(3, 14, 27), "r", 5));
    riverbedWrites(table, "delete", Version8Scenario.rows(IntStream.of(4), "x", 6));
    downgraded = dir.resolve("downgraded");
    copy(table, downgraded);
    TableVersionChange.Result result = TableVersionChange.of(Table.open(FileSystem.getLocal(new Configuration()),
        new org.apache.hadoop.fs.Path(downgraded.toUri())), 6).execute();
    assertThat(result.compactions()).hasSize(1);
    downgradeCompaction = result.compactions().get(0);
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private static void riverbedWrites(Path table, String operation, List<String> rows) {
    SparkOracle.spark().read().schema(Version8Scenario.SCHEMA)
        .json(SparkOracle.spark().createDataset(rows, Encoders.STRING()))
        .write().format(RIVERBED)
        .option("hoodie.table.name", "upgraded")
        .option("hoodie.datasource.write.table.type", "MERGE_ON_READ")
        .option("hoodie.datasource.write.recordkey.field", "id")
        .option("hoodie.datasource.write.precombine.field", "ts")
        .option("hoodie.datasource.write.partitionpath.field", "part")
        .option("hoodie.datasource.write.operation", operation)
        .mode("append").save(table.toUri().toString());
  }

  @Test
  void hudiUpgradedTheTableToVersion8AndRiverbedWroteOnInThatVersion() throws IOException {
    assertThat(Files.readString(table.resolve(".hoodie/hoodie.properties")))
        .contains("hoodie.table.version=8", "hoodie.timeline.layout.version=2");
    assertThat(Version8Scenario.completedWrites(table)).extracting(Version8Scenario.CompletedWrite::action)
        .containsExactly("deltacommit", "deltacommit", "deltacommit", "deltacommit", "commit", "deltacommit",
            "deltacommit", "deltacommit");
    try (var meta = Files.list(table.resolve(".hoodie"))) {
      assertThat(meta.map(p -> p.getFileName().toString())).noneMatch(n -> n.matches("\\d{17}.*"));
    }
  }

  @Test
  void downgradedTableReadsInHudi015AsInRiverbedAndRiverbedWritesOn() throws IOException {
    assertThat(Files.readString(downgraded.resolve(".hoodie/hoodie.properties")))
        .contains("hoodie.table.version=6", "hoodie.timeline.layout.version=1");
    assertThat(downgraded.resolve(".hoodie/timeline")).doesNotExist();
    assertHudi015ReadsAsRiverbed(true);
    assertThat(downgraded.resolve(".hoodie/" + downgradeCompaction + ".commit")).exists();
    riverbedWrites(downgraded, "upsert", Version8Scenario.rows(IntStream.of(5, 15, 28), "s", 7));
    assertThat(Files.readString(downgraded.resolve(".hoodie/hoodie.properties"))).contains("hoodie.table.version=6");
    assertHudi015ReadsAsRiverbed(false);
  }

  private static void assertHudi015ReadsAsRiverbed(boolean everyInstant) {
    var queries = new java.util.ArrayList<>(List.of(Query.snapshot(), Query.readOptimized(), Query.incremental("000")));
    if (everyInstant) {
      for (TimelineInstant i : SparkOracle.completedInstants(downgraded)) {
        if (i.time().compareTo(downgradeCompaction) >= 0) {
          queries.add(Query.asOf(i.time()));
        }
      }
    }
    for (Query q : queries) {
      Rows hudi = SparkOracle.read(downgraded, q);
      assertThat(hudi.isEmpty()).as(q.toString()).isFalse();
      SparkOracle.readWith(RIVERBED, downgraded, q).assertSameAs(hudi, q + " of the downgraded table: Riverbed vs Hudi 0.15");
    }
  }

  @Test
  void riverbedReadsTheUpgradedTableAsHudi102() {
    Version8TablesMatchHudiTest.assertRiverbedAnswersAsHudi(table);
  }
}
