package io.riverbed.it.riverbed;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.ArchiveResult;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleanResult;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Instant;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.ScenarioWriter;
import io.riverbed.it.scenario.TableSpec;
import io.riverbed.it.scenario.TripGenerator;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Riverbed's table services on tables Apache Hudi 0.15 wrote: Riverbed cleans and archives a
 * MERGE_ON_READ table Hudi's Spark writer wrote (inline compaction every 3 delta commits, Hudi's own
 * cleaning and archival off), then Hudi reads it (snapshot, time travel inside retention, its
 * archived timeline) and keeps writing it, with its own table services on, and both readers agree
 * with the model.
 */
class RiverbedServicesOnHudiTablesTest {
  @TempDir Path dir;

  @Test
  void riverbedCleansAndArchivesAHudiWrittenTableAndHudiReadsAndWritesOn() throws Exception {
    Path path = dir.resolve("hudi_mor_riverbed_services");
    var spec = new TableSpec("hudi_mor_riverbed_services", TableSpec.TableType.MERGE_ON_READ, List.of("uuid"), false,
        Map.of("hoodie.metadata.enable", "false", "hoodie.clean.automatic", "false",
            "hoodie.archive.automatic", "false"));
    var gen = new TripGenerator(20_261_201L);
    Random random = gen.random();
    var writer = new ScenarioWriter(path, spec);
    writer.bulkInsert(gen.newTrips(400, 1_000, 1_000));
    Map<String, String> compactEvery3 = Map.of("hoodie.compact.inline", "true",
        "hoodie.compact.inline.max.delta.commits", "3");
    for (int i = 0; i < 9; i++) {
      writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 80), compactEvery3);
    }
    ScenarioTable written = writer.finish();
    List<String> times = written.commits().stream().map(ScenarioTable.Commit::time).toList();

    Table table = RiverbedScenarioWriter.openLocal(path);
    List<CleanResult> cleans = Cleaner.of(table)
        .options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "3"))).execute();
    assertThat(cleans).hasSize(1);
    assertThat(cleans.get(0).filesDeleted()).as("slices older than the retained commits").isPositive();
    ArchiveResult archived = Archiver.of(RiverbedScenarioWriter.openLocal(path))
        .options(ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, "4", ArchiveOptions.MAX_COMMITS, "6",
            ArchiveOptions.COMPACTION_DELTA_COMMITS, "3"))).execute();
    List<String> archivedTimes = archived.completedInstants().stream().map(Instant::time).toList();
    assertThat(archivedTimes).as("commits Riverbed archived").isNotEmpty();

    SparkOracle.snapshot(path).withoutPhysicalMetaColumns()
        .assertSameAs(written.expectedSnapshot(), written + " Hudi snapshot after Riverbed's clean and archival");
    String retained = times.get(times.size() - 2);
    SparkOracle.asOf(path, retained).withoutPhysicalMetaColumns()
        .assertSameAs(written.expectedAsOf(retained), written + " Hudi as of " + retained);
    assertThat(HudiClients.metaClient(path).getArchivedTimeline().getCommitsTimeline().filterCompletedInstants()
        .getInstantsAsStream().map(HoodieInstant::getTimestamp).toList())
        .as("Hudi's archived timeline").containsExactlyElementsOf(archivedTimes);

    Map<String, String> hudiServices = Map.of("hoodie.clean.automatic", "true", "hoodie.cleaner.commits.retained",
        "3", "hoodie.archive.automatic", "true", "hoodie.keep.min.commits", "4", "hoodie.keep.max.commits", "6",
        "hoodie.compact.inline", "true", "hoodie.compact.inline.max.delta.commits", "3");
    for (int i = 0; i < 4; i++) {
      writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 80), hudiServices);
    }
    ScenarioTable after = writer.finish();
    SparkOracle.snapshot(path).withoutPhysicalMetaColumns()
        .assertSameAs(after.expectedSnapshot(), after + " Hudi snapshot after it wrote on");
    HudiReadsRiverbedTablesTest.riverbed(after, Query.snapshot()).withoutPhysicalMetaColumns()
        .assertSameAs(after.expectedSnapshot(), after + " Riverbed snapshot after Hudi wrote on");
  }
}
