package io.riverbed.it.riverbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.ArchiveResult;
import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.TripGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.hudi.avro.model.HoodieArchivedMetaEntry;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.log.HoodieLogFormat;
import org.apache.hudi.common.table.log.block.HoodieAvroDataBlock;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.config.HoodieArchivalConfig;
import org.apache.hudi.config.HoodieCleanConfig;
import org.apache.hudi.config.HoodieCompactionConfig;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.storage.StoragePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archival across engines, Apache Hudi 0.15 as the oracle: Hudi reads a table Riverbed archived as
 * before (snapshot, time travel to active instants) and its {@code HoodieArchivedTimeline} and log
 * reader load Riverbed's archive file with the archived instants' actions and states, also after a
 * crash between writing it and deleting the active files left duplicates; Hudi's own
 * archiver on a Riverbed table, then Riverbed reads it, writes and archives on, and Hudi reads that.
 */
class ArchiveCrossEngineTest {
  @TempDir Path dir;

  /** MOR: bulk insert, then eight upserts with a compaction after every third (11 completed instants). */
  private static RiverbedScenarioWriter writeMor(Path path) {
    var gen = new TripGenerator(20_260_301L);
    Random random = gen.random();
    var writer = RiverbedScenarioWriter.mergeOnRead(path);
    writer.bulkInsert(gen.newTrips(300, 1_000, 1_000));
    for (int i = 1; i <= 8; i++) {
      writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 80));
      if (i % 3 == 0) {
        writer.compact();
      }
    }
    return writer;
  }

  private static ArchiveOptions keep(int min, int max) {
    return ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, Integer.toString(min),
        ArchiveOptions.MAX_COMMITS, Integer.toString(max), ArchiveOptions.COMPACTION_DELTA_COMMITS, "1"));
  }

  private static Table open(Path path) throws IOException {
    return RiverbedScenarioWriter.openLocal(path);
  }

  private static HoodieTableMetaClient metaClient(Path path) {
    return HudiClients.metaClient(path);
  }

  private static List<String> hudiActiveCompletedCommits(Path path) {
    return metaClient(path).getActiveTimeline().getCommitsTimeline().filterCompletedInstants().getInstantsAsStream()
        .map(HoodieInstant::getTimestamp).toList();
  }

  /** Every entry of one archive file as Hudi's log reader decodes it: "time action STATE". */
  private static List<String> hudiDecodedEntries(Path path, String archiveFile) throws IOException {
    HoodieTableMetaClient client = metaClient(path);
    StoragePath file = new StoragePath(client.getArchivePath(), archiveFile);
    List<String> out = new ArrayList<>();
    try (HoodieLogFormat.Reader reader = HoodieLogFormat.newReader(client.getStorage(), new HoodieLogFile(file),
        HoodieArchivedMetaEntry.getClassSchema())) {
      while (reader.hasNext()) {
        HoodieAvroDataBlock block = (HoodieAvroDataBlock) reader.next();
        try (var records = block.getRecordIterator(HoodieRecord.HoodieRecordType.AVRO)) {
          records.forEachRemaining(r -> {
            GenericRecord e = (GenericRecord) (IndexedRecord) ((HoodieRecord<?>) r).getData();
            out.add(e.get("commitTime") + " " + e.get("actionType") + " " + e.get("actionState"));
          });
        }
      }
    }
    return out;
  }

  private static List<String> riverbedEntries(List<Instant> archived) {
    return archived.stream().map(i -> i.time() + " " + i.action().word() + " " + i.state().name()).toList();
  }

  @Test
  void hudiReadsATableRiverbedArchivedAsBeforeAndLoadsItsArchivedTimeline() throws Exception {
    Path path = dir.resolve("rb_archived_mor");
    ScenarioTable t = writeMor(path).finish();
    List<String> times = t.commitTimes();
    Rows snapshot = SparkOracle.snapshot(path);
    Map<String, Rows> asOf = new LinkedHashMap<>();
    times.subList(times.size() - 3, times.size()).forEach(c -> asOf.put(c, SparkOracle.asOf(path, c)));

    ArchiveResult result = Archiver.of(open(path)).options(keep(3, 5)).execute();

    List<String> archivedTimes = result.completedInstants().stream().map(Instant::time).toList();
    assertThat(archivedTimes).containsExactlyElementsOf(times.subList(0, times.size() - 3));
    assertThat(hudiActiveCompletedCommits(path)).containsExactlyElementsOf(times.subList(times.size() - 3, times.size()));
    SparkOracle.snapshot(path).assertSameAs(snapshot, t + " Hudi snapshot after Riverbed's archival");
    snapshot.withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), t + " snapshot vs model");
    asOf.forEach((time, rows) -> SparkOracle.asOf(path, time).assertSameAs(rows, t + " Hudi as of " + time));
    HudiReadsRiverbedTablesTest.riverbed(t, Query.snapshot()).assertSameAs(snapshot, t + " Riverbed snapshot");

    HoodieArchivedTimeline archived = metaClient(path).getArchivedTimeline();
    assertThat(archived.getInstantsAsStream().map(i -> i.getTimestamp() + " " + i.getAction() + " " + i.getState())
        .toList()).as("Hudi's archived timeline: every state of every archived instant")
        .containsExactlyInAnyOrderElementsOf(riverbedEntries(result.archived()));
    assertThat(archived.filterCompletedInstants().getInstantsAsStream().map(HoodieInstant::getTimestamp).toList())
        .containsExactlyElementsOf(archivedTimes);
    assertThat(archived.getCommitsTimeline().filterCompletedInstants().countInstants()).isEqualTo(archivedTimes.size());
    archived.loadCompletedInstantDetailsInMemory();
    HoodieInstant firstDelta = archived.getDeltaCommitTimeline().firstInstant().get();
    assertThat(archived.getInstantDetails(firstDelta).get()).as("details of " + firstDelta).isNotEmpty();
    assertThat(hudiDecodedEntries(path, result.archiveFile().orElseThrow()))
        .as("every state Hudi's log reader decodes").containsExactlyElementsOf(riverbedEntries(result.archived()));
    assertThat(hudiDecodedEntries(path, result.archiveFile().get()))
        .anyMatch(e -> e.endsWith(" compaction REQUESTED")).anyMatch(e -> e.endsWith(" deltacommit INFLIGHT"));
  }

  @Test
  void hudiLoadsTheArchiveAfterACrashBetweenWritingItAndDeletingTheActiveFiles() throws Exception {
    Path path = dir.resolve("rb_archive_crash_mor");
    ScenarioTable t = writeMor(path).finish();
    List<String> times = t.commitTimes();
    Table table = open(path);
    assertThatThrownBy(() -> Archiver.of(table).options(keep(3, 5)).afterArchiveFileWritten(() -> {
      throw new IllegalStateException("crash");
    }).execute()).hasMessage("crash");
    assertThat(hudiActiveCompletedCommits(path)).as("nothing deleted yet").containsExactlyElementsOf(times);
    SparkOracle.snapshot(path).withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), t + " Hudi after the crash");

    ArchiveResult rerun = Archiver.of(open(path)).options(keep(3, 5)).execute();

    assertThat(rerun.archiveFile()).contains(".commits_.archive.2_1-0-1");
    HoodieArchivedTimeline archived = metaClient(path).getArchivedTimeline();
    assertThat(archived.filterCompletedInstants().getInstantsAsStream().map(HoodieInstant::getTimestamp).distinct()
        .toList()).as("Hudi's archived timeline over the duplicated entries")
        .containsExactlyElementsOf(times.subList(0, times.size() - 3));
    assertThat(hudiActiveCompletedCommits(path)).containsExactlyElementsOf(times.subList(times.size() - 3, times.size()));
    SparkOracle.snapshot(path).withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), t + " Hudi after the rerun");
  }

  /** Hudi's write client archiving with keep.min/max 3/4 (cleaner retaining 2), metadata table off. */
  private static void hudiArchive(Path path, String tableName) {
    HoodieWriteConfig config = HudiClients.writeConfig(path, tableName)
        .withCleanConfig(HoodieCleanConfig.newBuilder().retainCommits(2).build())
        .withArchivalConfig(HoodieArchivalConfig.newBuilder().archiveCommitsWith(3, 4).build())
        .withCompactionConfig(HoodieCompactionConfig.newBuilder().withMaxNumDeltaCommitsBeforeCompaction(1).build())
        .build();
    try (var client = HudiClients.writeClient(config)) {
      client.archive();
    }
  }

  @Test
  void hudiArchivesARiverbedTableAndRiverbedReadsWritesAndArchivesOn() throws Exception {
    Path path = dir.resolve("rb_hudi_archived_mor");
    RiverbedScenarioWriter writer = writeMor(path);
    ScenarioTable t = writer.finish();
    List<String> times = t.commitTimes();

    hudiArchive(path, t.name());

    Table table = open(path);
    List<String> active = TimelineStore.at(table.fs(), table.metaPath()).load().commitsTimeline().completed().times();
    assertThat(active).as("Hudi kept 3 commits").containsExactlyElementsOf(times.subList(times.size() - 3, times.size()));
    assertThat(ArchivedTimeline.load(table).timeline().completed().times()).as("Riverbed reads Hudi's archive")
        .containsExactlyElementsOf(times.subList(0, times.size() - 3));
    assertThat(riverbedEntries(ArchivedTimeline.load(table).instants())).as("every state Hudi archived")
        .containsExactlyInAnyOrderElementsOf(metaClient(path).getArchivedTimeline().getInstantsAsStream()
            .map(i -> i.getTimestamp() + " " + i.getAction() + " " + i.getState()).toList());
    HudiReadsRiverbedTablesTest.riverbed(t, Query.snapshot()).withoutPhysicalMetaColumns()
        .assertSameAs(t.expectedSnapshot(), t + " Riverbed snapshot after Hudi's archival");
    String lastActive = times.get(times.size() - 2);
    HudiReadsRiverbedTablesTest.riverbed(t, Query.asOf(lastActive)).withoutPhysicalMetaColumns()
        .assertSameAs(t.expectedAsOf(lastActive), t + " Riverbed as of " + lastActive);

    var gen = new TripGenerator(7L);
    for (int i = 0; i < 3; i++) {
      writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), gen.random(), 60));
    }
    writer.compact();
    ScenarioTable after = writer.finish();
    ArchiveResult ours = Archiver.of(open(path)).options(keep(3, 4)).execute();

    assertThat(ours.archiveFile()).as("the next version after Hudi's file").contains(".commits_.archive.2_1-0-1");
    List<String> all = after.commitTimes();
    assertThat(hudiActiveCompletedCommits(path)).containsExactlyElementsOf(all.subList(all.size() - 3, all.size()));
    assertThat(metaClient(path).getArchivedTimeline().filterCompletedInstants().getInstantsAsStream()
        .map(HoodieInstant::getTimestamp).toList())
        .as("Hudi's archived timeline over both files").containsExactlyElementsOf(all.subList(0, all.size() - 3));
    SparkOracle.snapshot(path).withoutPhysicalMetaColumns().assertSameAs(after.expectedSnapshot(), after + " Hudi snapshot");
    HudiReadsRiverbedTablesTest.riverbed(after, Query.snapshot()).withoutPhysicalMetaColumns()
        .assertSameAs(after.expectedSnapshot(), after + " Riverbed snapshot");
  }
}
