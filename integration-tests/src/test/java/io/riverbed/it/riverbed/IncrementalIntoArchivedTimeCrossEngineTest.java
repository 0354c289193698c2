package io.riverbed.it.riverbed;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.scenario.ScenarioWriter;
import io.riverbed.it.scenario.TableSpec;
import io.riverbed.it.scenario.TripGenerator;
import io.riverbed.it.spark.RiverbedSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hudi.config.HoodieArchivalConfig;
import org.apache.hudi.config.HoodieCleanConfig;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Incremental queries whose range reaches into archived time, Apache Hudi 0.15's Spark reader as
 * the oracle, with {@value QuerySpec#FALLBACK_FULL_TABLE_SCAN} false and true: on tables that
 * cleaning and archival (Riverbed's, and Hudi's own on a table Hudi wrote) left with archived early
 * commits and active commits whose files were cleaned, Riverbed's DataSource returns Hudi's rows
 * (every column, {@code _hoodie_commit_time} included) for a begin in archived time with the end
 * archived, active or open, and for active ranges, or fails where Hudi fails.
 */
class IncrementalIntoArchivedTimeCrossEngineTest {
  private static final Logger LOG = LoggerFactory.getLogger(IncrementalIntoArchivedTimeCrossEngineTest.class);

  @TempDir Path dir;

  /** A table's completed commits, archived and active, and the active ones whose files were cleaned. */
  private record Commits(List<String> archived, List<String> active, List<String> activeWithCleanedFiles) {
    static Commits of(Path path) throws IOException {
      Table table = RiverbedScenarioWriter.openLocal(path);
      Timeline active = TimelineStore.at(table.fs(), table.metaPath()).load().commitsTimeline().completed();
      List<String> cleaned = new ArrayList<>();
      for (Instant i : active.instants()) {
        CommitMetadata m = CommitMetadata.fromJson(table.timelineStore().read(i), i.time());
        if (m.partitionToWriteStats().values().stream().flatMap(List::stream)
            .anyMatch(s -> s.path() != null && !s.path().isEmpty() && !Files.exists(path.resolve(s.path())))) {
          cleaned.add(i.time());
        }
      }
      return new Commits(ArchivedTimeline.load(table).timeline().commitsTimeline().completed().times(), active.times(),
          cleaned);
    }
  }

  /** What a reader answered: the rows, or why it failed. */
  private record Answer(Rows rows, String failure) {
    static Answer of(String source, Path path, Map<String, String> options) {
      try {
        Dataset<Row> frame = SparkOracle.spark().read().format(source).options(options).load(path.toUri().toString());
        return new Answer(SparkOracle.canonicalRows(frame), null);
      } catch (Exception e) {
        StringBuilder chain = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
          chain.append(chain.length() == 0 ? "" : " <- ").append(t.getClass().getSimpleName()).append(": ")
              .append(t.getMessage());
        }
        return new Answer(null, chain.toString());
      }
    }
  }

  /**
   * The ranges asked of a table: begin archived with the end open, archived and active, and ranges
   * inside the active timeline over commits whose files may be cleaned.
   */
  private static List<Query> ranges(Commits c) {
    List<String> a = c.archived();
    List<String> act = c.active();
    return List.of(
        Query.incremental("000"),
        Query.incremental(a.get(1)),
        Query.incremental(a.get(0), a.get(a.size() - 2)),
        Query.incremental(a.get(a.size() - 3), act.get(1)),
        Query.incremental(act.get(0), act.get(1)),
        Query.incremental(act.get(0), act.get(2)),
        Query.incremental(act.get(act.size() - 2)));
  }

  /**
   * Every range with the fallback off and on: Riverbed's answer is Hudi's, or both fail.
   *
   * @return how many answers differ between fallback off and on (the scenario must make some)
   */
  private static int assertRiverbedAnswersAsHudi(Path path, String label) throws IOException {
    Commits c = Commits.of(path);
    LOG.info("{}: archived {}, active {}, active with cleaned files {}", label, c.archived(), c.active(),
        c.activeWithCleanedFiles());
    assertThat(c.archived()).as(label + " archived commits").hasSizeGreaterThanOrEqualTo(4);
    assertThat(c.active()).as(label + " active commits").hasSizeGreaterThanOrEqualTo(3);
    int differing = 0;
    for (Query q : ranges(c)) {
      Map<Boolean, Answer> hudi = new LinkedHashMap<>();
      for (boolean fallback : new boolean[] {false, true}) {
        Map<String, String> options = new LinkedHashMap<>(q.hudiOptions());
        options.put(QuerySpec.FALLBACK_FULL_TABLE_SCAN, Boolean.toString(fallback));
        String what = label + " " + q + " fallback=" + fallback;
        Answer expected = Answer.of(SparkOracle.HUDI_SOURCE, path, options);
        Answer ours = Answer.of(RiverbedSource.CLASS_NAME, path, options);
        LOG.info("{}: Hudi {}, Riverbed {}", what, describe(expected), describe(ours));
        if (expected.failure() != null) {
          assertThat(ours.failure()).as(what + ": Hudi failed (" + expected.failure() + "), so must Riverbed, naming the way out")
              .contains(QuerySpec.FALLBACK_FULL_TABLE_SCAN);
        } else {
          assertThat(ours.failure()).as(what + ": Riverbed failed where Hudi answered").isNull();
          ours.rows().assertSameAs(expected.rows(), what + ", Riverbed vs Hudi 0.15");
        }
        hudi.put(fallback, expected);
      }
      if (!hudi.get(false).equals(hudi.get(true))) {
        differing++;
      }
    }
    return differing;
  }

  private static String describe(Answer a) {
    return a.failure() != null ? "failed (" + a.failure().substring(0, Math.min(300, a.failure().length())) + ")"
        : a.rows().size() + " rows";
  }

  private static CleanOptions retain(int commits) {
    return CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, Integer.toString(commits)));
  }

  private static ArchiveOptions keep(int min, int max) {
    return ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, Integer.toString(min),
        ArchiveOptions.MAX_COMMITS, Integer.toString(max), ArchiveOptions.COMPACTION_DELTA_COMMITS, "1"));
  }

  /** Bulk insert, then {@code upserts} upserts of 60 keys, a compaction after every third on MERGE_ON_READ. */
  private static void writeWithRiverbed(RiverbedScenarioWriter writer, boolean compact, int upserts) {
    var gen = new TripGenerator(20_261_202L);
    Random random = gen.random();
    writer.bulkInsert(gen.newTrips(300, 1_000, 1_000));
    for (int i = 1; i <= upserts; i++) {
      writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 60));
      if (compact && i % 3 == 0) {
        writer.compact();
      }
    }
  }

  /**
   * Writes the table with Riverbed, cleans it ({@code retained} commits) and archives it (6 to 8
   * commits kept) with Riverbed, so that active commits lost files, then compares every range.
   */
  private static void riverbedCleansArchivesAndAnswersAsHudi(Path path, RiverbedScenarioWriter writer, boolean compact,
      int retained, String label) throws IOException {
    writeWithRiverbed(writer, compact, 11);
    Cleaner.of(RiverbedScenarioWriter.openLocal(path)).options(retain(retained)).execute();
    Archiver.of(RiverbedScenarioWriter.openLocal(path)).options(keep(6, 8)).execute();

    assertThat(Commits.of(path).activeWithCleanedFiles()).as(label + ": active commits whose files the cleaner deleted")
        .isNotEmpty();
    assertThat(assertRiverbedAnswersAsHudi(path, label)).as(label + ": answers the fallback changes").isPositive();
  }

  @Test
  void mergeOnReadTableRiverbedCleanedAndArchived() throws Exception {
    Path path = dir.resolve("rb_incr_archived_mor");
    riverbedCleansArchivesAndAnswersAsHudi(path, RiverbedScenarioWriter.mergeOnRead(path), true, 2, "Riverbed MOR");
  }

  @Test
  void copyOnWriteTableRiverbedCleanedAndArchived() throws Exception {
    Path path = dir.resolve("rb_incr_archived_cow");
    var spec = new TableSpec("rb_incr_archived_cow", TableSpec.TableType.COPY_ON_WRITE, List.of("uuid"), false, Map.of());
    riverbedCleansArchivesAndAnswersAsHudi(path, new RiverbedScenarioWriter(path, spec), false, 3, "Riverbed COW");
  }

  @Test
  void copyOnWriteTableHudiWroteCleanedAndArchived() throws Exception {
    Path path = dir.resolve("hudi_incr_archived_cow");
    var spec = new TableSpec("hudi_incr_archived_cow", TableSpec.TableType.COPY_ON_WRITE, List.of("uuid"), false,
        Map.of("hoodie.metadata.enable", "false", "hoodie.clean.automatic", "false", "hoodie.archive.automatic", "false"));
    var writer = new ScenarioWriter(path, spec);
    var gen = new TripGenerator(20_261_203L);
    Random random = gen.random();
    writer.bulkInsert(gen.newTrips(300, 1_000, 1_000));
    for (int i = 0; i < 6; i++) {
      writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 60));
    }
    HoodieWriteConfig config = HudiClients.writeConfig(path, spec.name())
        .withCleanConfig(HoodieCleanConfig.newBuilder().retainCommits(1).build())
        .withArchivalConfig(HoodieArchivalConfig.newBuilder().archiveCommitsWith(3, 4).build())
        .build();
    try (var client = HudiClients.writeClient(config)) {
      client.clean();
      client.archive();
    }

    assertThat(assertRiverbedAnswersAsHudi(path, "Hudi COW")).as("answers the fallback changes").isPositive();
  }
}
