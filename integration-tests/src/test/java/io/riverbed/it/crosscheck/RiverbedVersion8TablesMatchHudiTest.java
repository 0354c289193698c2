package io.riverbed.it.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.Table;
import io.riverbed.format.upgrade.TableVersionChange;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import io.riverbed.it.oracle.NextHudiOracle;
import io.riverbed.it.oracle.NextHudiOracle.Read;
import io.riverbed.it.oracle.NextHudiOracle.WriteStep;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.QueryKind;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.Version8Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Riverbed's Spark writer creates version 8 tables on request ({@code hoodie.write.table.version=8})
 * and writes them (insert, upserts with an update losing on {@code ts}, delete; on the
 * MERGE_ON_READ table a compaction by the core between two upserts); a MERGE_ON_READ table Riverbed
 * wrote as version 6 is upgraded by the core's {@link TableVersionChange} ({@code riverbed-admin
 * upgrade --to 8}) and written on: Apache Hudi 1.0.2 reads them with the same rows as Riverbed's
 * reader for snapshot, read_optimized, time travel to every completed write (requested and
 * completion time) and incremental ranges by completion time. All of Hudi's reads run in one forked JVM.
 */
class RiverbedVersion8TablesMatchHudiTest {

  private static final String RIVERBED = "io.riverbed.spark.HudiDataSource";
  private static final Pattern LOG_NAME = Pattern.compile("^\\.(.+)_(\\d{17})\\.log\\.(\\d+)_(.+)$");

  private static final Map<String, Path> TABLES = new LinkedHashMap<>();
  private static NextHudiOracle.Answer hudi;
  private static final List<Read> READS = new ArrayList<>();

  @BeforeAll
  static void riverbedWritesVersion8TablesAndHudiReadsThem() throws IOException {
    Path dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "rb-v8-");
    Path data = Files.createDirectories(dir.resolve("data"));
    List<WriteStep> steps = Version8Scenario.steps(data, false, Map.of());
    Path mor = dir.resolve("rb_v8_mor");
    for (int i = 0; i < steps.size(); i++) {
      if (i == 4) {
        compact(mor);
      }
      write(mor, "MERGE_ON_READ", "org.apache.hudi.common.model.DefaultHoodieRecordPayload", steps.get(i), "8");
    }
    Path cow = dir.resolve("rb_v8_cow");
    for (WriteStep step : steps) {
      write(cow, "COPY_ON_WRITE", null, step, "8");
    }
    Path upgraded = dir.resolve("rb_v6_upgraded");
    for (int i = 0; i < steps.size(); i++) {
      if (i == 3) {
        TableVersionChange.of(open(upgraded), 8).execute();
      }
      write(upgraded, "MERGE_ON_READ", null, steps.get(i), i < 3 ? "6" : "8");
    }
    TABLES.put("mor", mor);
    TABLES.put("cow", cow);
    TABLES.put("upgraded", upgraded);
    for (Path table : TABLES.values()) {
      Version8TablesMatchHudiTest.queries(table).forEach(q -> READS.add(new Read(table, q)));
    }
    hudi = NextHudiOracle.read(READS);
    assertThat(hudi.hudiOrigin()).contains("hudi-spark3.5-bundle_2.12-1.0.2");
  }

  static void write(Path table, String type, String payloadClass, WriteStep step, String tableVersion) {
    var writer = SparkOracle.spark().read().schema(Version8Scenario.SCHEMA).json(step.jsonLines().toString())
        .write().format(RIVERBED)
        .option("hoodie.table.name", table.getFileName().toString())
        .option("hoodie.write.table.version", tableVersion)
        .option("hoodie.datasource.write.table.type", type)
        .option("hoodie.datasource.write.recordkey.field", "id")
        .option("hoodie.datasource.write.precombine.field", "ts")
        .option("hoodie.datasource.write.partitionpath.field", "part")
        .option("hoodie.datasource.write.operation", step.operation());
    if (payloadClass != null) {
      writer = writer.option("hoodie.datasource.write.payload.class", payloadClass);
    }
    writer.mode("append").save(table.toUri().toString());
  }

  static Table open(Path path) throws IOException {
    return Table.open(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(path.toUri()));
  }

  static void compact(Path path) throws IOException {
    Table table = open(path);
    String instant = CompactionScheduler.of(table).execute().instantTime().orElseThrow();
    CompactionRunner.of(table, instant).execute();
  }

  @Test
  void riverbedWroteVersion8LayoutAsHudi102Does() throws IOException {
    for (Path table : List.of(TABLES.get("mor"), TABLES.get("cow"))) {
      assertThat(Files.readString(table.resolve(".hoodie/hoodie.properties"))).as(table.toString())
          .contains("hoodie.table.version=8", "hoodie.timeline.layout.version=2", "hoodie.table.initial.version=8",
              "hoodie.timeline.path=timeline", "hoodie.record.merge.mode=");
      try (Stream<Path> meta = Files.list(table.resolve(".hoodie"))) {
        assertThat(meta.map(p -> p.getFileName().toString())).as(table.toString())
            .noneMatch(n -> n.matches("\\d{17}.*"));
      }
    }
    assertThat(Version8Scenario.completedWrites(TABLES.get("mor"))).extracting(Version8Scenario.CompletedWrite::action)
        .containsExactly("deltacommit", "deltacommit", "deltacommit", "deltacommit", "commit", "deltacommit");
    assertThat(Version8Scenario.completedWrites(TABLES.get("cow"))).extracting(Version8Scenario.CompletedWrite::action)
        .containsOnly("commit").hasSize(5);
    var deltaCommits = Version8Scenario.completedWrites(TABLES.get("mor")).stream()
        .filter(w -> w.action().equals("deltacommit")).map(Version8Scenario.CompletedWrite::requested).toList();
    try (Stream<Path> files = Files.walk(TABLES.get("mor"))) {
      List<String> logInstants = files.map(p -> LOG_NAME.matcher(p.getFileName().toString()))
          .filter(java.util.regex.Matcher::matches).map(m -> m.group(2)).toList();
      assertThat(logInstants).isNotEmpty();
      assertThat(deltaCommits).containsAll(logInstants);
    }
  }

  @Test
  void hudi102ReadsRiverbedsMergeOnReadTableAsRiverbedDoes() {
    assertSameRows(TABLES.get("mor"));
  }

  @Test
  void hudi102ReadsATableRiverbedUpgradedAndWroteOnAsRiverbedDoes() throws IOException {
    assertThat(Files.readString(TABLES.get("upgraded").resolve(".hoodie/hoodie.properties")))
        .contains("hoodie.table.version=8", "hoodie.table.initial.version=SIX");
    assertSameRows(TABLES.get("upgraded"));
  }

  @Test
  void hudi102ReadsRiverbedsCopyOnWriteTableAsRiverbedDoes() {
    assertSameRows(TABLES.get("cow"));
  }

  private static void assertSameRows(Path table) {
    assertSameRows(READS, hudi, table);
  }

  /**
   * Riverbed's reader returns Hudi 1.0.2's rows for every read of {@code table} in {@code reads} (Hudi's
   * answers in {@code hudi}, in the same order); only incremental answers may be empty.
   *
   * @return how many reads were compared
   */
  static int assertSameRows(List<Read> reads, NextHudiOracle.Answer hudi, Path table) {
    int compared = 0;
    for (int i = 0; i < reads.size(); i++) {
      Read read = reads.get(i);
      if (!read.table().equals(table)) {
        continue;
      }
      Query q = read.query();
      if (q.kind() != QueryKind.INCREMENTAL) {
        assertThat(hudi.rows().get(i).isEmpty()).as(q + " of " + table).isFalse();
      }
      SparkOracle.readWith(RIVERBED, table, q).assertSameAs(hudi.rows().get(i), q + " of " + table
          + ": Riverbed vs Hudi 1.0.2");
      compared++;
    }
    return compared;
  }
}
