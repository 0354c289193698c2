package io.riverbed.it.riverbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleanResult;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CleanFileInfo;
import io.riverbed.format.timeline.CleanMetadata;
import io.riverbed.format.timeline.CleanerPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.TripGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hudi.avro.model.HoodieCleanMetadata;
import org.apache.hudi.avro.model.HoodieCleanerPlan;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.TimelineMetadataUtils;
import org.apache.hudi.common.util.CleanerUtils;
import org.apache.hudi.config.HoodieCleanConfig;
import org.apache.hudi.config.HoodieWriteConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cleaning across engines, Apache Hudi 0.15 as the oracle: Hudi reads a table Riverbed cleaned as
 * before inside the retention window and parses Riverbed's clean files; Hudi's own cleaner, on a
 * Riverbed table, deletes exactly the files Riverbed's planner picks and executes a plan Riverbed
 * wrote; Riverbed reads, writes and cleans on after Hudi's clean.
 */
class CleanCrossEngineTest {
  private static final int RETAINED = 3;

  @TempDir Path dir;

  /** MOR: bulk insert, upsert, compaction, two upserts, compaction, upsert (7 write instants). */
  private static RiverbedScenarioWriter writeMor(Path path) {
    var gen = new TripGenerator(20_260_101L);
    Random random = gen.random();
    var writer = RiverbedScenarioWriter.mergeOnRead(path);
    writer.bulkInsert(gen.newTrips(400, 1_000, 1_000));
    writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 120));
    writer.compact();
    writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 120));
    writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 120));
    writer.compact();
    writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), random, 120));
    return writer;
  }

  private static CleanOptions retain() {
    return CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, Integer.toString(RETAINED)));
  }

  private static Table open(Path path) throws IOException {
    return RiverbedScenarioWriter.openLocal(path);
  }

  private static Rows riverbed(ScenarioTable t, Query q) {
    return HudiReadsRiverbedTablesTest.riverbed(t, q);
  }

  private static HoodieTableMetaClient metaClient(Path path) {
    return HudiClients.metaClient(path);
  }

  /** Hudi's write client cleaning with KEEP_LATEST_COMMITS, {@value #RETAINED} commits, metadata table off. */
  private static HoodieCleanMetadata hudiClean(Path path, String tableName) {
    HoodieWriteConfig config = HudiClients.writeConfig(path, tableName)
        .withCleanConfig(HoodieCleanConfig.newBuilder().retainCommits(RETAINED).build())
        .build();
    try (var client = HudiClients.writeClient(config)) {
      return client.clean();
    }
  }

  private static Map<String, TreeSet<String>> planned(CleanerPlan plan) {
    Map<String, TreeSet<String>> out = new TreeMap<>();
    plan.filePathsToBeDeletedPerPartition().forEach((p, files) -> out.put(p, new TreeSet<>(files.stream()
        .map(CleanFileInfo::filePath).map(f -> new org.apache.hadoop.fs.Path(f).getName()).toList())));
    return out;
  }

  private static Map<String, TreeSet<String>> deletedBy(HoodieCleanMetadata metadata) {
    Map<String, TreeSet<String>> out = new TreeMap<>();
    metadata.getPartitionMetadata().forEach((p, m) -> {
      if (!m.getSuccessDeleteFiles().isEmpty()) {
        out.put(p, new TreeSet<>(m.getSuccessDeleteFiles()));
      }
    });
    return out;
  }

  @Test
  void hudiReadsATableRiverbedCleanedAsBeforeInsideRetentionAndParsesItsCleanFiles() throws Exception {
    Path path = dir.resolve("rb_cleaned_mor");
    ScenarioTable t = writeMor(path).finish();
    List<ScenarioTable.Commit> commits = t.commits();
    String earliest = commits.get(commits.size() - RETAINED).time();
    Rows snapshot = SparkOracle.snapshot(path);
    Map<String, Rows> asOf = new LinkedHashMap<>();
    commits.stream().filter(c -> c.time().compareTo(earliest) >= 0).forEach(c -> asOf.put(c.time(), SparkOracle.asOf(path, c.time())));
    Rows incremental = SparkOracle.incremental(path, earliest, t.latest().time());

    CleanResult result = Cleaner.of(open(path)).options(retain()).execute().get(0);

    assertThat(result.earliestInstantRetained()).isEqualTo(earliest);
    assertThat(result.filesDeleted()).isPositive();
    SparkOracle.snapshot(path).assertSameAs(snapshot, t + " Hudi snapshot after Riverbed's clean");
    snapshot.withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), t + " snapshot vs model");
    asOf.forEach((time, rows) -> SparkOracle.asOf(path, time).assertSameAs(rows, t + " Hudi as of " + time + " after the clean"));
    SparkOracle.incremental(path, earliest, t.latest().time()).assertSameAs(incremental, t + " Hudi incremental after the clean");
    riverbed(t, Query.snapshot()).assertSameAs(snapshot, t + " Riverbed snapshot after the clean");
    riverbed(t, Query.asOf(earliest)).assertSameAs(asOf.get(earliest), t + " Riverbed as of " + earliest);
    assertThatThrownBy(() -> SparkOracle.asOf(path, commits.get(1).time()))
        .hasStackTraceContaining("Cleaner cleaned up the timestamp of interest");

    HoodieTableMetaClient client = metaClient(path);
    List<HoodieInstant> cleans = client.getActiveTimeline().getCleanerTimeline().filterCompletedInstants().getInstants();
    assertThat(cleans).extracting(HoodieInstant::getTimestamp).containsExactly(result.instantTime());
    HoodieCleanMetadata metadata = CleanerUtils.getCleanerMetadata(client, cleans.get(0));
    assertThat(metadata.getEarliestCommitToRetain()).isEqualTo(earliest);
    assertThat(metadata.getTotalFilesDeleted()).isEqualTo(result.filesDeleted());
    assertThat(metadata.getVersion()).isEqualTo(CleanerUtils.LATEST_CLEAN_METADATA_VERSION);
    assertThat(deletedBy(metadata)).isEqualTo(new TreeMap<>(result.deletedFilesByPartition().entrySet().stream()
        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> new TreeSet<>(e.getValue())))));
    TimelineStore store = TimelineStore.at(open(path).fs(), open(path).metaPath());
    byte[] planBytes = store.read(Instant.requested(result.instantTime(), Action.CLEAN));
    HoodieCleanerPlan plan = TimelineMetadataUtils.deserializeCleanerPlan(planBytes);
    assertThat(plan.getEarliestInstantToRetain().getTimestamp()).isEqualTo(earliest);
    assertThat(plan.getPolicy()).isEqualTo("KEEP_LATEST_COMMITS");
    assertThat(CleanerUtils.getCleanerPlan(client, planBytes).getFilePathsToBeDeletedPerPartition().values().stream()
        .mapToInt(List::size).sum()).isEqualTo(result.filesDeleted());
  }

  @Test
  void hudisCleanerDeletesWhatRiverbedPlansAndRiverbedReadsWritesAndCleansOn() throws Exception {
    Path path = dir.resolve("rb_hudi_cleaned_mor");
    RiverbedScenarioWriter writer = writeMor(path);
    ScenarioTable t = writer.finish();
    Table table = open(path);
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    String ours = Cleaner.of(table).options(retain()).scheduleClean().orElseThrow();
    Instant requested = Instant.requested(ours, Action.CLEAN);
    CleanerPlan plan = CleanerPlan.fromBytes(store.read(requested), "our plan");
    store.delete(requested);

    HoodieCleanMetadata hudi = hudiClean(path, t.name());

    assertThat(hudi.getEarliestCommitToRetain()).isEqualTo(plan.earliestInstantToRetain().timestamp());
    assertThat(deletedBy(hudi)).as("files Hudi's cleaner deleted vs Riverbed's plan").isEqualTo(planned(plan));
    riverbed(t, Query.snapshot()).withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), t + " Riverbed snapshot after Hudi's clean");
    String earliest = hudi.getEarliestCommitToRetain();
    riverbed(t, Query.asOf(earliest)).withoutPhysicalMetaColumns().assertSameAs(t.expectedAsOf(earliest), t + " Riverbed as of " + earliest);
    assertThatThrownBy(() -> riverbed(t, Query.asOf(t.commits().get(1).time()))).hasMessageContaining("time travel");
    String hudiClean = store.load().ofAction(Action.CLEAN).completed().last().orElseThrow().time();
    Instant hudiCompleted = Instant.completed(hudiClean, Action.CLEAN);
    assertThat(CleanMetadata.fromBytes(store.read(hudiCompleted), "Hudi's clean").totalFilesDeleted())
        .isEqualTo(hudi.getTotalFilesDeleted());

    var gen = new TripGenerator(5L);
    writer.upsert(RiverbedScenarios.someUpdates(gen, writer.model(), gen.random(), 100));
    writer.compact();
    ScenarioTable after = writer.finish();
    List<CleanResult> again = Cleaner.of(open(path)).options(retain()).execute();
    assertThat(again).hasSize(1);
    assertThat(again.get(0).filesDeleted()).isPositive();
    SparkOracle.snapshot(path).withoutPhysicalMetaColumns().assertSameAs(after.expectedSnapshot(), after + " Hudi snapshot after both cleans");
    riverbed(after, Query.snapshot()).withoutPhysicalMetaColumns().assertSameAs(after.expectedSnapshot(), after + " Riverbed snapshot after both cleans");
  }

  @Test
  void hudiExecutesACleanPlanRiverbedScheduled() throws Exception {
    Path path = dir.resolve("rb_plan_for_hudi");
    ScenarioTable t = writeMor(path).finish();
    String ours = Cleaner.of(open(path)).options(retain()).scheduleClean().orElseThrow();
    HoodieTableMetaClient client = metaClient(path);
    HoodieInstant requested = client.getActiveTimeline().getCleanerTimeline().filterInflightsAndRequested().lastInstant().get();
    assertThat(requested.getTimestamp()).isEqualTo(ours);
    HoodieCleanerPlan plan = CleanerUtils.getCleanerPlan(client, requested);
    int planned = plan.getFilePathsToBeDeletedPerPartition().values().stream().mapToInt(List::size).sum();
    assertThat(planned).isPositive();

    HoodieCleanMetadata hudi = hudiClean(path, t.name());

    assertThat(hudi.getStartCleanTime()).as("Hudi ran Riverbed's pending plan").isEqualTo(ours);
    assertThat(hudi.getTotalFilesDeleted()).isEqualTo(planned);
    SparkOracle.snapshot(path).withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), t + " Hudi snapshot");
    riverbed(t, Query.snapshot()).withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), t + " Riverbed snapshot");
  }
}
