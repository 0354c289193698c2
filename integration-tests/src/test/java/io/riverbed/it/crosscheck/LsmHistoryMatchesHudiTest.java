package io.riverbed.it.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.history.LsmFileName;
import io.riverbed.format.history.LsmHistory;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.upgrade.TableVersionChange;
import io.riverbed.it.oracle.NextHudiOracle;
import io.riverbed.it.oracle.NextHudiOracle.Read;
import io.riverbed.it.oracle.NextHudiOracle.WriteStep;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.Version8Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Hudi 1.x's LSM history (the archived timeline of table version 8) as Riverbed writes, converts and
 * reads it, checked against Apache Hudi 1.0.2 (forked JVMs, shared by the class) and Hudi 0.15 (in
 * this JVM):
 *
 * <ul>
 *   <li>MERGE_ON_READ (with a compaction and a clean) and COPY_ON_WRITE tables version 8 that
 *       Riverbed's Spark writer writes and Riverbed's archival archives run after run (layer-0 files
 *       and a layer compaction, batch size 2): Hudi 1.0.2 reads them as Riverbed does (snapshot,
 *       read_optimized, time travel to every active write, incremental by completion time, also from
 *       {@code 000} in archived time); Hudi 1.0.2 then writes on the MERGE_ON_READ one with low
 *       archive thresholds and archives into the same history, and Riverbed reads the history and
 *       the table after it;
 *   <li>a version 6 table Riverbed wrote and archived in several runs (two archive files), upgraded by
 *       {@link TableVersionChange} ({@code riverbed-admin upgrade --to 8}): Hudi 1.0.2 reads it as
 *       Riverbed does and archives on it; downgraded back, Hudi 0.15 reads it as Riverbed does and
 *       Riverbed's archival goes on in version 6's archive;
 *   <li>a version 8 table Hudi 1.0.2 wrote with low archive thresholds
 *       ({@code hoodie.keep.min.commits=2}, {@code max.commits=3},
 *       {@code hoodie.timeline.compaction.batch.size=2}): Riverbed reads its history and reads the
 *       table as Hudi does.
 * </ul>
 *
 * The test that has Hudi 1.0.2 write on (and downgrades) runs last: the others compare with what Hudi
 * read before.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LsmHistoryMatchesHudiTest {
  private static final String RIVERBED = "io.riverbed.spark.HudiDataSource";
  private static final String DEFAULT_PAYLOAD = "org.apache.hudi.common.model.DefaultHoodieRecordPayload";
  /**
   * Hudi 1.0.2 archiving after each of its writes: low bounds, no metadata table (it would hold archival
   * back), no automatic clean (it would delete what time travel to the active writes reads).
   */
  private static final Map<String, String> HUDI_ARCHIVES = Map.of(
      "hoodie.metadata.enable", "false",
      "hoodie.clean.automatic", "false",
      "hoodie.keep.min.commits", "2",
      "hoodie.keep.max.commits", "3",
      "hoodie.timeline.compaction.batch.size", "2",
      "hoodie.clean.commits.retained", "1",
      "hoodie.compact.inline.max.delta.commits", "1");

  private static Path dir;
  private static Path mor;
  private static Path cow;
  private static Path upgraded;
  private static Path hudiWritten;
  private static final List<Read> FIRST_READS = new ArrayList<>();
  private static NextHudiOracle.Answer first;
  private static final Map<Path, Timeline> RIVERBED_HISTORY = new HashMap<>();
  private static int upgradedLegacyArchiveFiles;
  private static int riverbedArchivalRuns;

  @BeforeAll
  static void writeArchiveAndConvertThenHudiReads() throws IOException {
    dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "rb-lsm-");
    Path data = Files.createDirectories(dir.resolve("data"));
    List<WriteStep> steps = Version8Scenario.steps(data, false, Map.of());

    mor = dir.resolve("rb_v8_mor");
    cow = dir.resolve("rb_v8_cow");
    for (int i = 0; i < steps.size(); i++) {
      if (i == 4) {
        RiverbedVersion8TablesMatchHudiTest.compact(mor);
      }
      RiverbedVersion8TablesMatchHudiTest.write(mor, "MERGE_ON_READ", DEFAULT_PAYLOAD, steps.get(i), "8");
      RiverbedVersion8TablesMatchHudiTest.write(cow, "COPY_ON_WRITE", null, steps.get(i), "8");
    }
    for (int r = 1; r <= 8; r++) {
      WriteStep extra = upsert(data, r);
      RiverbedVersion8TablesMatchHudiTest.write(mor, "MERGE_ON_READ", DEFAULT_PAYLOAD, extra, "8");
      RiverbedVersion8TablesMatchHudiTest.write(cow, "COPY_ON_WRITE", null, extra, "8");
      if (r == 2) {
        clean(mor);
        clean(cow);
      }
      riverbedArchivalRuns += archive(mor, 2, 4) + archive(cow, 2, 4);
    }

    upgraded = dir.resolve("rb_v6_archived");
    for (int i = 0; i < steps.size(); i++) {
      RiverbedVersion8TablesMatchHudiTest.write(upgraded, "MERGE_ON_READ", null, steps.get(i), "6");
      archive(upgraded, 1, 2);
    }
    for (int r = 1; r <= 3; r++) {
      RiverbedVersion8TablesMatchHudiTest.write(upgraded, "MERGE_ON_READ", null, upsert(data, r), "6");
      archive(upgraded, 1, 2);
    }
    try (Stream<Path> files = Files.list(upgraded.resolve(".hoodie/archived"))) {
      upgradedLegacyArchiveFiles = (int) files.filter(p -> p.getFileName().toString().startsWith(".commits_.archive."))
          .count();
    }
    RIVERBED_HISTORY.put(upgraded, ArchivedTimeline.load(RiverbedVersion8TablesMatchHudiTest.open(upgraded)).timeline());
    TableVersionChange.of(RiverbedVersion8TablesMatchHudiTest.open(upgraded), 8).execute();

    hudiWritten = dir.resolve("hudi_v8_archived");
    List<WriteStep> hudiSteps = new ArrayList<>(Version8Scenario.steps(data, true, HUDI_ARCHIVES));
    for (int r = 1; r <= 5; r++) {
      hudiSteps.add(withOptions(upsert(data, r), HUDI_ARCHIVES));
    }
    NextHudiOracle.write(hudiWritten, "hudi_v8_archived", "MERGE_ON_READ", Version8Scenario.SCHEMA, hudiSteps);

    for (Path table : List.of(mor, cow, upgraded, hudiWritten)) {
      Version8TablesMatchHudiTest.queries(table).forEach(q -> FIRST_READS.add(new Read(table, q)));
    }
    first = NextHudiOracle.read(FIRST_READS);
    assertThat(first.hudiOrigin()).contains("hudi-spark3.5-bundle_2.12-1.0.2");
  }

  /** Keys k01, k02, k13 (and a new one per round) updated with {@code ts = 10 + round}. */
  private static WriteStep upsert(Path data, int round) throws IOException {
    Path file = Files.createTempFile(data, "upsert-" + round + "-", ".json");
    Files.write(file, Version8Scenario.rows(IntStream.of(1, 2, 13, 40 + round), "x" + round, 10 + round));
    return new WriteStep("upsert", file, Map.of());
  }

  private static WriteStep withOptions(WriteStep step, Map<String, String> options) {
    Map<String, String> all = new LinkedHashMap<>(step.options());
    all.putAll(options);
    return new WriteStep(step.operation(), step.jsonLines(), all);
  }

  private static void clean(Path table) throws IOException {
    Cleaner.of(RiverbedVersion8TablesMatchHudiTest.open(table))
        .options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "2"))).execute();
  }

  /** Riverbed's archival with {@code min}/{@code max} commits and LSM batch size 2; 1 if it archived. */
  private static int archive(Path table, int min, int max) throws IOException {
    return Archiver.of(RiverbedVersion8TablesMatchHudiTest.open(table)).options(ArchiveOptions.fromMap(Map.of(
        ArchiveOptions.MIN_COMMITS, Integer.toString(min), ArchiveOptions.MAX_COMMITS, Integer.toString(max),
        ArchiveOptions.COMPACTION_DELTA_COMMITS, "1", ArchiveOptions.TIMELINE_COMPACTION_BATCH_SIZE, "2")))
        .execute().archiveFile().isPresent() ? 1 : 0;
  }

  private static LsmHistory history(Path table) throws IOException {
    Table t = RiverbedVersion8TablesMatchHudiTest.open(table);
    return LsmHistory.at(t.fs(), t.archivePath());
  }

  private static void assertSameRows(List<Read> reads, NextHudiOracle.Answer hudi, Path table) {
    assertThat(RiverbedVersion8TablesMatchHudiTest.assertSameRows(reads, hudi, table)).as("queries of " + table)
        .isPositive();
  }

  @Test
  @Order(1)
  void riverbedsArchivalWroteHudisLsmLayoutRunAfterRun() throws IOException {
    assertThat(riverbedArchivalRuns).isGreaterThanOrEqualTo(4);
    for (Path table : List.of(mor, cow)) {
      LsmHistory h = history(table);
      List<String> files = h.latestManifest().fileNames();
      assertThat(files).as(table.toString()).isNotEmpty().allMatch(n -> LsmFileName.parse(n).isPresent());
      assertThat(files).as("a layer compaction ran in " + table)
          .anyMatch(n -> LsmFileName.parse(n).orElseThrow().layer() >= 1);
      assertThat(table.resolve(".hoodie/timeline/history/_version_")).exists();
      Timeline archived = ArchivedTimeline.load(RiverbedVersion8TablesMatchHudiTest.open(table)).timeline();
      assertThat(archived.commitsTimeline().completed().size()).as(table.toString()).isGreaterThanOrEqualTo(5);
      assertThat(Version8Scenario.completedWrites(table).size() + archived.commitsTimeline().completed().size())
          .as("every write of " + table + " active or archived, once").isEqualTo(table.equals(mor) ? 14 : 13);
    }
  }

  /**
   * Every query but one: a MERGE_ON_READ range from {@code 000} whose archived part holds the last
   * compaction. Hudi 1.0.2 answers it with the compacted base files' rows and none of the log records
   * written on them after the compaction (the latest row of such a key is missing, an older one
   * returned); Riverbed merges the logs as for the same range before archival. Documented in
   * COMPATIBILITY.md as not matched.
   */
  @Test
  @Order(1)
  void hudi102ReadsRiverbedsArchivedMergeOnReadTableAsRiverbedDoes() {
    List<Read> reads = new ArrayList<>();
    List<io.riverbed.it.oracle.Rows> rows = new ArrayList<>();
    for (int i = 0; i < FIRST_READS.size(); i++) {
      Read read = FIRST_READS.get(i);
      if (read.table().equals(mor) && !read.query().equals(Query.incremental("000"))) {
        reads.add(read);
        rows.add(first.rows().get(i));
      }
    }
    assertSameRows(reads, new NextHudiOracle.Answer(rows, first.hudiOrigin()), mor);
  }

  @Test
  @Order(1)
  void hudi102ReadsRiverbedsArchivedCopyOnWriteTableAsRiverbedDoes() {
    assertSameRows(FIRST_READS, first, cow);
  }

  @Test
  @Order(1)
  void hudi102ReadsAnArchivedVersion6TableRiverbedUpgradedAsRiverbedDoes() throws IOException {
    assertThat(upgradedLegacyArchiveFiles).isGreaterThanOrEqualTo(2);
    assertThat(upgraded.resolve(".hoodie/archived/.commits_.archive.1_1-0-1")).doesNotExist();
    Timeline history = ArchivedTimeline.load(RiverbedVersion8TablesMatchHudiTest.open(upgraded)).timeline();
    Timeline legacy = RIVERBED_HISTORY.get(upgraded);
    assertThat(history.completed().times()).containsExactlyElementsOf(legacy.completed().times());
    assertSameRows(FIRST_READS, first, upgraded);
  }

  @Test
  @Order(1)
  void riverbedReadsTheHistoryAndTheTableHudi102ArchivedAsHudiDoes() throws IOException {
    LsmHistory h = history(hudiWritten);
    assertThat(h.latestManifest().fileNames()).as("Hudi 1.0.2 archived").isNotEmpty();
    Timeline archived = ArchivedTimeline.load(RiverbedVersion8TablesMatchHudiTest.open(hudiWritten)).timeline();
    assertThat(archived.commitsTimeline().completed().size()).isGreaterThanOrEqualTo(3);
    archived.completed().times().forEach(t -> assertThat(archived.completionTime(t)).as(t).isPresent());
    assertThat(Version8Scenario.completedWrites(hudiWritten)).hasSizeLessThanOrEqualTo(3);
    assertSameRows(FIRST_READS, first, hudiWritten);
  }

  @Test
  @Order(2)
  void hudi102ArchivesOnAfterRiverbedAndRiverbedReadsAfterIt() throws IOException {
    Path data = Files.createDirectories(dir.resolve("data-after"));
    Map<Path, Integer> before = new HashMap<>();
    Map<Path, List<String>> archivedBefore = new HashMap<>();
    List<Path> tables = List.of(mor, upgraded);
    for (Path table : tables) {
      Timeline t = ArchivedTimeline.load(RiverbedVersion8TablesMatchHudiTest.open(table)).timeline();
      before.put(table, t.completed().size());
      archivedBefore.put(table, t.completed().times());
      List<WriteStep> hudiSteps = new ArrayList<>();
      for (int r = 20; r <= 24; r++) {
        hudiSteps.add(withOptions(upsert(data, r), HUDI_ARCHIVES));
      }
      NextHudiOracle.write(table, table.getFileName().toString(), "MERGE_ON_READ", Version8Scenario.SCHEMA, hudiSteps);
    }
    List<Read> reads = new ArrayList<>();
    for (Path table : tables) {
      reads.add(new Read(table, Query.snapshot()));
      Version8Scenario.completedWrites(table).forEach(w -> reads.add(new Read(table, Query.asOf(w.completion()))));
    }
    NextHudiOracle.Answer after = NextHudiOracle.read(reads);

    for (Path table : tables) {
      Timeline archived = ArchivedTimeline.load(RiverbedVersion8TablesMatchHudiTest.open(table)).timeline();
      assertThat(archived.completed().size()).as("Hudi 1.0.2 archived into " + table).isGreaterThan(before.get(table));
      assertThat(archived.completed().times()).as("Riverbed's archived instants stay in " + table)
          .containsAll(archivedBefore.get(table)).doesNotHaveDuplicates();
      assertSameRows(reads, after, table);
    }
    assertThat(SparkOracle.readWith(RIVERBED, mor, Query.snapshot()).lines()).anyMatch(l -> l.contains("x24"));

    // the upgraded table back to version 6: Hudi 0.15 reads it as Riverbed does, Riverbed archives on
    Table v8 = RiverbedVersion8TablesMatchHudiTest.open(upgraded);
    Timeline history = ArchivedTimeline.load(v8).timeline();
    TableVersionChange.Result down = TableVersionChange.of(v8, 6).execute();
    assertThat(down.archivedInstants()).isEqualTo(history.completed().size());
    assertThat(upgraded.resolve(".hoodie/timeline")).doesNotExist();
    assertThat(upgraded.resolve(".hoodie/archived/.commits_.archive.1_1-0-1")).exists();
    Table v6 = RiverbedVersion8TablesMatchHudiTest.open(upgraded);
    assertThat(ArchivedTimeline.load(v6).timeline().completed().times())
        .containsExactlyElementsOf(history.completed().times());
    SparkOracle.readWith(RIVERBED, upgraded, Query.snapshot())
        .assertSameAs(SparkOracle.read(upgraded, Query.snapshot()), "downgraded: Riverbed vs Hudi 0.15");
    for (int r = 30; r <= 33; r++) {
      RiverbedVersion8TablesMatchHudiTest.write(upgraded, "MERGE_ON_READ", null, upsert(data, r), "6");
    }
    assertThat(archive(upgraded, 1, 2)).isEqualTo(1);
    assertThat(upgraded.resolve(".hoodie/archived/.commits_.archive.2_1-0-1")).exists();
    SparkOracle.readWith(RIVERBED, upgraded, Query.snapshot())
        .assertSameAs(SparkOracle.read(upgraded, Query.snapshot()), "downgraded and archived: Riverbed vs Hudi 0.15");
  }
}
