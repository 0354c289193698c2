package io.riverbed.it.riverbed;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.savepoint.Restore;
import io.riverbed.format.savepoint.Savepoint;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantInfo;
import io.riverbed.format.timeline.RestoreMetadata;
import io.riverbed.format.timeline.RestorePlan;
import io.riverbed.format.timeline.SavepointMetadata;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.ScenarioWriter;
import io.riverbed.it.scenario.TableSpec;
import io.riverbed.it.scenario.Trip;
import io.riverbed.it.scenario.TripGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hudi.avro.model.HoodieInstantInfo;
import org.apache.hudi.avro.model.HoodieRestoreMetadata;
import org.apache.hudi.avro.model.HoodieRestorePlan;
import org.apache.hudi.avro.model.HoodieRollbackMetadata;
import org.apache.hudi.avro.model.HoodieSavepointMetadata;
import org.apache.hudi.client.SparkRDDWriteClient;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.timeline.TimelineMetadataUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Savepoints and restores across engines, Apache Hudi 0.15 as the oracle: Hudi reads a table
 * Riverbed savepointed, parses its savepoint and restores the table to it with its write client;
 * after Riverbed's restore Hudi reads exactly the savepoint's rows (snapshot and time travel) and
 * parses the restore's files; Riverbed reads the savepoint Hudi's write client made, pins the same
 * files for it, and restores a Hudi-written table to it, which Hudi then reads as of the savepoint.
 */
class SavepointCrossEngineTest {
  @TempDir Path dir;

  /** A Riverbed-written table, the commit to savepoint, and Hudi's time travel to it before anything else. */
  private record Written(Path path, ScenarioTable t, String savepoint, Rows asOfSavepoint) {}

  /**
   * MOR: bulk insert, upsert (to be savepointed), compaction, upsert on the compacted slices, a
   * failed upsert rolled back, upsert, compaction, upsert.
   */
  private Written writeMor(String name) {
    Path path = dir.resolve(name);
    var gen = new TripGenerator(20_260_401L);
    Random random = gen.random();
    var writer = RiverbedScenarioWriter.mergeOnRead(path);
    writer.bulkInsert(gen.newTrips(400, 1_000, 1_000));
    String savepoint = writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 120)).time();
    writer.compact();
    writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 120));
    writer.failedUpsertRolledBack(RiverbedScenarios.someUpdates(gen, writer.model(), random, 60));
    writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 120));
    writer.compact();
    writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 120));
    return new Written(path, writer.finish(), savepoint, SparkOracle.asOf(path, savepoint));
  }

  private static Table open(Path path) throws IOException {
    return RiverbedScenarioWriter.openLocal(path);
  }

  private static TimelineStore store(Path path) throws IOException {
    Table table = open(path);
    return TimelineStore.at(table.fs(), table.metaPath());
  }

  private static Rows riverbed(ScenarioTable t, Query q) {
    return HudiReadsRiverbedTablesTest.riverbed(t, q);
  }

  private static HoodieTableMetaClient metaClient(Path path) {
    return HudiClients.metaClient(path);
  }

  /** Hudi's write client on the table, metadata table off. */
  private static SparkRDDWriteClient<?> hudiClient(Path path, String tableName) {
    return HudiClients.writeClient(HudiClients.writeConfig(path, tableName).build());
  }

  /**
   * After a restore to {@code s}: Hudi's snapshot and time travel to {@code s}, and Riverbed's
   * snapshot, return exactly the rows time travel to {@code s} returned before it, the model's.
   */
  private static void assertReadsAsOfSavepoint(ScenarioTable t, String s, Rows asOfSavepoint, String restore) {
    SparkOracle.snapshot(t.path()).assertSameAs(asOfSavepoint, t + " Hudi snapshot after " + restore);
    SparkOracle.asOf(t.path(), s).assertSameAs(asOfSavepoint, t + " Hudi time travel to the savepoint after " + restore);
    asOfSavepoint.withoutPhysicalMetaColumns().assertSameAs(t.expectedAsOf(s), t + " as of the savepoint vs model");
    riverbed(t, Query.snapshot()).assertSameAs(asOfSavepoint, t + " Riverbed snapshot after " + restore);
  }

  private static Map<String, TreeSet<String>> files(Map<String, List<String>> byPartition) {
    Map<String, TreeSet<String>> out = new TreeMap<>();
    byPartition.forEach((p, names) -> out.put(p, new TreeSet<>(names)));
    return out;
  }

  private static Map<String, TreeSet<String>> hudiFiles(HoodieSavepointMetadata metadata) {
    Map<String, TreeSet<String>> out = new TreeMap<>();
    metadata.getPartitionMetadata().forEach((p, m) -> out.put(p, new TreeSet<>(m.getSavepointDataFile())));
    return out;
  }

  /** The write instants after {@code savepoint}, newest first, as a restore plan names them. */
  private static List<InstantInfo> writesAfter(Timeline timeline, String savepoint) {
    List<Instant> after = new ArrayList<>(timeline.writeTimeline().filter(i -> i.time().compareTo(savepoint) > 0)
        .instants());
    Collections.reverse(after);
    return after.stream().map(InstantInfo::of).toList();
  }

  private static byte[] details(HoodieTableMetaClient client, HoodieInstant instant) {
    return client.getActiveTimeline().getInstantDetails(instant).get();
  }

  @Test
  void hudiReadsARiverbedSavepointedTableParsesTheSavepointAndRestoresTheTableToIt() throws Exception {
    Written w = writeMor("rb_savepointed_mor");
    Path path = w.path();
    ScenarioTable t = w.t();
    String s = w.savepoint();
    Rows asOfSavepoint = w.asOfSavepoint();
    Rows snapshot = SparkOracle.snapshot(path);

    SavepointMetadata ours = Savepoint.of(open(path), s).user("riverbed-ops").comments("before the backfill").execute();

    SparkOracle.snapshot(path).assertSameAs(snapshot, t + " Hudi snapshot after the savepoint");
    HoodieTableMetaClient client = metaClient(path);
    HoodieTimeline savepoints = client.getActiveTimeline().getSavePointTimeline();
    assertThat(savepoints.filterCompletedInstants().getInstantsAsStream().map(HoodieInstant::getTimestamp).toList())
        .containsExactly(s);
    HoodieSavepointMetadata hudi = TimelineMetadataUtils.deserializeHoodieSavepointMetadata(
        details(client, savepoints.filterCompletedInstants().firstInstant().get()));
    assertThat(hudi.getSavepointedBy()).isEqualTo("riverbed-ops");
    assertThat(hudi.getComments()).isEqualTo("before the backfill");
    assertThat(hudi.getSavepointedAt()).isEqualTo(ours.savepointedAt());
    assertThat(hudi.getVersion()).isEqualTo(1);
    assertThat(hudiFiles(hudi)).isEqualTo(files(ours.dataFilesByPartition()));
    List<InstantInfo> planned = writesAfter(store(path).load(), s);
    assertThat(planned).extracting(InstantInfo::action).contains("deltacommit", "commit");

    try (var writer = hudiClient(path, t.name())) {
      writer.restoreToSavepoint(s);
    }

    assertReadsAsOfSavepoint(t, s, asOfSavepoint, "Hudi's restore");
    Timeline timeline = store(path).load();
    assertThat(timeline.writeTimeline().completedAndCompactionInstants().last().map(Instant::time)).contains(s);
    assertThat(timeline.filter(i -> i.time().compareTo(s) > 0).instants()).singleElement()
        .satisfies(i -> assertThat(i.action()).isEqualTo(Action.RESTORE));
    Instant restore = timeline.ofAction(Action.RESTORE).completed().last().orElseThrow();
    TimelineStore store = store(path);
    RestorePlan plan = RestorePlan.fromBytes(store.read(Instant.requested(restore.time(), Action.RESTORE)), "Hudi's plan");
    assertThat(plan.savepointToRestoreTimestamp()).isEqualTo(s);
    assertThat(plan.instantsToRollback()).as("Hudi's plan: the order Riverbed plans").containsExactlyElementsOf(planned);
    RestoreMetadata metadata = RestoreMetadata.fromBytes(store.read(restore), "Hudi's restore");
    assertThat(metadata.restoreInstantInfo()).containsExactlyElementsOf(planned);
    assertThat(metadata.rollbacks().keySet()).containsExactlyInAnyOrderElementsOf(metadata.instantsToRollback());
    assertThat(metadata.totalFilesDeleted()).isPositive();
  }

  @Test
  void afterRiverbedsRestoreHudiReadsExactlyTheSavepointsRowsAndParsesTheRestore() throws Exception {
    Written w = writeMor("rb_restored_mor");
    Path path = w.path();
    ScenarioTable t = w.t();
    String s = w.savepoint();
    Rows asOfSavepoint = w.asOfSavepoint();
    Savepoint.of(open(path), s).execute();
    List<InstantInfo> planned = writesAfter(store(path).load(), s);
    assertThat(store(path).load().ofAction(Action.ROLLBACK).completed().isEmpty()).as("a rollback after the savepoint")
        .isFalse();

    RestoreMetadata ours = Restore.of(open(path), s).execute();

    assertThat(ours.restoreInstantInfo()).containsExactlyElementsOf(planned);
    assertReadsAsOfSavepoint(t, s, asOfSavepoint, "Riverbed's restore");

    HoodieTableMetaClient client = metaClient(path);
    HoodieTimeline restores = client.getActiveTimeline().getRestoreTimeline();
    assertThat(restores.getInstantsAsStream().map(i -> i.getTimestamp() + " " + i.getState()).toList())
        .containsExactly(ours.startRestoreTime() + " COMPLETED");
    HoodieRestoreMetadata hudi = TimelineMetadataUtils.deserializeHoodieRestoreMetadata(
        details(client, restores.firstInstant().get()));
    assertThat(hudi.getStartRestoreTime()).isEqualTo(ours.startRestoreTime());
    assertThat(hudi.getInstantsToRollback()).containsExactlyElementsOf(ours.instantsToRollback());
    assertThat(hudi.getRestoreInstantInfo()).extracting(HoodieInstantInfo::getCommitTime, HoodieInstantInfo::getAction)
        .containsExactlyElementsOf(planned.stream().map(i -> org.assertj.core.groups.Tuple.tuple(i.commitTime(),
            i.action())).toList());
    hudi.getHoodieRestoreMetadata().forEach((instant, rollbacks) -> assertThat(rollbacks).singleElement()
        .extracting(HoodieRollbackMetadata::getCommitsRollback).isEqualTo(List.of(instant)));
    HoodieRestorePlan plan = TimelineMetadataUtils.deserializeAvroMetadata(details(client,
        new HoodieInstant(HoodieInstant.State.REQUESTED, HoodieTimeline.RESTORE_ACTION, ours.startRestoreTime())),
        HoodieRestorePlan.class);
    assertThat(plan.getSavepointToRestoreTimestamp()).isEqualTo(s);
    assertThat(plan.getVersion()).isEqualTo(2);
    assertThat(client.getActiveTimeline().getRollbackTimeline().getInstantsAsStream()
        .filter(i -> i.getTimestamp().compareTo(s) > 0).toList()).as("no rollback after the savepoint").isEmpty();
    assertThat(client.getCommitsTimeline().filterCompletedInstants().lastInstant().get().getTimestamp()).isEqualTo(s);
    assertThat(client.getActiveTimeline().getSavePointTimeline().filterCompletedInstants().getInstantsAsStream()
        .map(HoodieInstant::getTimestamp).toList()).containsExactly(s);
  }

  /** Hudi MOR: bulk insert, upsert, upsert with inline compaction, insert_overwrite of one partition, upsert. */
  private static ScenarioTable writeHudiMor(Path path) {
    var spec = new TableSpec("hudi_savepointed_mor", TableSpec.TableType.MERGE_ON_READ, List.of("uuid"), false,
        Map.of("hoodie.metadata.enable", "false"));
    var gen = new TripGenerator(20_260_402L);
    Random random = gen.random();
    var writer = new ScenarioWriter(path, spec);
    writer.bulkInsert(gen.newTrips(400, 1_000, 1_000));
    writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 120));
    writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 120),
        Map.of("hoodie.compact.inline", "true", "hoodie.compact.inline.max.delta.commits", "1"));
    List<Trip> live = new ArrayList<>(writer.model().state().values().stream().map(io.riverbed.it.scenario.ExpectedTable.Entry::trip).toList());
    live.sort(java.util.Comparator.comparing(Trip::uuid));
    String[] partition = {live.get(0).region(), live.get(0).country(), live.get(0).city()};
    var overwrite = new ArrayList<Trip>();
    live.stream().filter(tr -> tr.city().equals(partition[2])).limit(20).forEach(tr -> overwrite.add(gen.update(tr, tr.ts() + 1)));
    overwrite.addAll(gen.newTrips(20, List.<String[]>of(partition), 1_000, 3_000));
    writer.insertOverwrite(overwrite);
    writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 120));
    return writer.finish();
  }

  @Test
  void riverbedReadsAHudiSavepointPinsTheSameFilesAndRestoresTheHudiTableToIt() throws Exception {
    Path path = dir.resolve("hudi_savepointed_mor");
    ScenarioTable t = writeHudiMor(path);
    String s = t.commits().get(1).time();
    Rows asOfSavepoint = SparkOracle.asOf(path, s);
    try (var writer = hudiClient(path, t.name())) {
      writer.savepoint(s, "hudi-ops", "made by Hudi");
    }

    TimelineStore store = store(path);
    Timeline timeline = store.load();
    assertThat(timeline.ofAction(Action.SAVEPOINT).completed().times()).containsExactly(s);
    SavepointMetadata hudis = SavepointMetadata.fromBytes(store.read(Instant.completed(s, Action.SAVEPOINT)),
        "Hudi's savepoint");
    assertThat(hudis.savepointedBy()).isEqualTo("hudi-ops");
    assertThat(hudis.comments()).isEqualTo("made by Hudi");
    Table table = open(path);
    Map<String, List<String>> ourPick = new TreeMap<>();
    table.listPartitions().forEach(p -> ourPick.put(p, new ArrayList<>()));
    for (FileSlice slice : FileSystemViewLoader.load(table, timeline).latestSlicesBeforeOrOn(s)) {
      List<String> names = ourPick.get(slice.partitionPath());
      slice.baseFile().ifPresent(b -> names.add(b.fileName()));
      slice.logFiles().stream().map(LogFile::fileName).forEach(names::add);
    }
    assertThat(files(ourPick)).as("the files Riverbed's savepoint would pin vs Hudi's").isEqualTo(files(
        hudis.dataFilesByPartition()));
    List<InstantInfo> planned = writesAfter(timeline, s);
    assertThat(planned).extracting(InstantInfo::action).contains("deltacommit", "commit", "replacecommit");

    RestoreMetadata ours = Restore.of(open(path), s).execute();

    assertThat(ours.restoreInstantInfo()).containsExactlyElementsOf(planned);
    assertReadsAsOfSavepoint(t, s, asOfSavepoint, "Riverbed's restore of Hudi's table");
    HoodieTableMetaClient client = metaClient(path);
    assertThat(client.getCommitsTimeline().filterCompletedInstants().lastInstant().get().getTimestamp()).isEqualTo(s);
    assertThat(TimelineMetadataUtils.deserializeHoodieRestoreMetadata(details(client,
        client.getActiveTimeline().getRestoreTimeline().lastInstant().get())).getInstantsToRollback())
        .containsExactlyElementsOf(ours.instantsToRollback());
  }
}
