package io.riverbed.it.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.RollbackMetadata;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.riverbed.RiverbedScenarioWriter;
import io.riverbed.it.scenario.ExpectedTable;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.TableSpec;
import io.riverbed.it.scenario.Trip;
import io.riverbed.it.scenario.TripGenerator;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge-on-read table written by Riverbed's core on a non-local Hadoop file system, then read
 * back there by the core, by Apache Hudi 0.15's Spark datasource and by Riverbed's Spark
 * datasource: every reader returns the expected model. The store is started once per class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StoreRoundTripContract {
  /** Riverbed's Spark datasource, by class name (Hudi's bundle is on the same classpath). */
  static final String RIVERBED_SOURCE = "io.riverbed.spark.HudiDataSource";

  private FileSystem fs;
  private ScenarioTable scenario;
  private List<RollbackMetadata> rollbacks;
  private String location;

  /** Starts the store with its files under {@code dir}. */
  abstract void startStore(Path dir) throws Exception;

  abstract void stopStore() throws Exception;

  /** The URI of {@code path} on the store. */
  abstract String uri(String path);

  /** What a client of the store needs in its Hadoop configuration. */
  abstract Map<String, String> hadoopSettings();

  @BeforeAll
  void writeTable(@TempDir Path dir) throws Exception {
    long start = System.nanoTime();
    startStore(dir);
    long started = System.nanoTime();
    Configuration conf = new Configuration();
    hadoopSettings().forEach(conf::set);
    location = uri("warehouse/rb_store_trips");
    // An uncached instance: Spark's reads below must reach the store with their own configuration.
    fs = FileSystem.newInstance(URI.create(location), conf);
    scenario = write(fs, location);
    hadoopSettings().forEach(SparkOracle.spark().sparkContext().hadoopConfiguration()::set);
    System.out.printf("STORAGE %s: store up in %.1f s, table written in %.1f s%n", getClass().getSimpleName(),
        (started - start) / 1e9, (System.nanoTime() - started) / 1e9);
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (fs != null) {
        fs.close();
      }
    } finally {
      stopStore();
    }
  }

  /**
   * 600 trips over 3-level partitions: bulk insert, an upsert (a fifth of the updates lose on ts)
   * with new keys, a delete, an upsert that fails and is rolled back, an upsert, a compaction, and
   * an upsert that leaves logs on the compacted slices.
   */
  private ScenarioTable write(FileSystem fs, String location) {
    var spec = new TableSpec("rb_store_trips", TableSpec.TableType.MERGE_ON_READ, List.of("uuid"), false, Map.of());
    var gen = new TripGenerator(20_261_129L);
    Random random = gen.random();
    // Small files so a few hundred records make several file groups and small-file routing.
    var writer = RiverbedScenarioWriter.onFileSystem(fs, new org.apache.hadoop.fs.Path(location), spec, 64 * 1024);
    writer.bulkInsert(gen.newTrips(600, 1_000, 1_000));
    var updates = someUpdates(gen, writer.model(), random, 150);
    updates.addAll(gen.newTrips(40, 2_000, 1_000));
    Collections.shuffle(updates, random);
    writer.upsert(updates);
    var deletes = new ArrayList<>(shuffledLive(writer.model(), random).subList(0, 40));
    deletes.addAll(gen.newTrips(3, 1_000, 1_000));
    writer.delete(deletes);
    var failed = someUpdates(gen, writer.model(), random, 100);
    failed.addAll(gen.newTrips(30, 5_000, 1_000));
    rollbacks = writer.failedUpsertRolledBack(failed);
    writer.upsert(someUpdates(gen, writer.model(), random, 80));
    writer.compact();
    writer.upsert(someUpdates(gen, writer.model(), random, 60));
    return writer.finish();
  }

  @Test
  void coreReadsTheTableItWroteOnTheStore() {
    Table table = Table.open(fs, new org.apache.hadoop.fs.Path(location));
    assertThat(scenario.commits()).extracting(ScenarioTable.Commit::operation)
        .containsExactly("bulk_insert", "upsert", "delete", "upsert", "compaction", "upsert");
    core(table, Query.snapshot()).withoutPhysicalMetaColumns().assertSameAs(scenario.expectedSnapshot(), scenario + " core snapshot");
    core(table, Query.readOptimized()).withoutPhysicalMetaColumns()
        .assertSameAs(scenario.expectedRows(scenario.commit("compaction").state()), scenario + " core read_optimized");
    for (ScenarioTable.Commit c : scenario.commits()) {
      core(table, Query.asOf(c.time())).withoutPhysicalMetaColumns()
          .assertSameAs(scenario.expectedAsOf(c.time()), scenario + " core as of " + c.time() + " (" + c.operation() + ")");
    }
    Timeline timeline = TimelineStore.at(table.fs(), table.metaPath()).load();
    assertThat(timeline.commitsTimeline().pending().instants()).as("pending write instants").isEmpty();
    assertThat(rollbacks).hasSize(1);
    assertThat(timeline.ofAction(Action.ROLLBACK).completed().instants()).hasSize(1);
  }

  @Test
  void hudiReadsEveryQueryKindAsTheModel() {
    Rows snapshot = hudi(Query.snapshot());
    snapshot.withoutPhysicalMetaColumns().assertSameAs(scenario.expectedSnapshot(), scenario + " Hudi snapshot");
    hudi(Query.readOptimized()).withoutPhysicalMetaColumns()
        .assertSameAs(scenario.expectedRows(scenario.commit("compaction").state()), scenario + " Hudi read_optimized");
    for (ScenarioTable.Commit c : scenario.commits()) {
      hudi(Query.asOf(c.time())).withoutPhysicalMetaColumns()
          .assertSameAs(scenario.expectedAsOf(c.time()), scenario + " Hudi as of " + c.time() + " (" + c.operation() + ")");
    }
    List<ScenarioTable.Commit> commits = scenario.commits();
    String before = commits.get(1).time();
    String end = commits.get(3).time();
    Table table = Table.open(fs, new org.apache.hadoop.fs.Path(location));
    // A merge-on-read incremental query returns the log records written in the range, losers on
    // ordering value included, so its reference is Hudi itself, checked against the core here.
    Query incremental = Query.incremental(before, end);
    Rows hudiIncremental = hudi(incremental);
    assertThat(hudiIncremental.withoutPhysicalMetaColumns().minus(scenario.expectedIncremental(before, end)).size())
        .as("incremental rows that are not in the model are versions that lost on ts")
        .isLessThanOrEqualTo(scenario.versionsWrittenIn(before, end).size() - scenario.expectedIncremental(before, end).size());
    core(table, incremental).assertSameAs(hudiIncremental, scenario + " " + incremental + ", core vs Hudi");
    core(table, Query.snapshot()).assertSameAs(snapshot, scenario + " snapshot, core vs Hudi (file names and seqnos too)");
  }

  @Test
  void riverbedSparkDataSourceReturnsWhatHudiReturns() {
    List<Query> queries = new ArrayList<>(List.of(Query.snapshot(), Query.readOptimized()));
    List<ScenarioTable.Commit> commits = scenario.commits();
    queries.add(Query.asOf(commits.get(2).time()));
    queries.add(Query.incremental(commits.get(1).time(), commits.get(3).time()));
    for (Query q : queries) {
      Rows hudi = hudi(q);
      assertThat(hudi.size()).as(q.toString()).isPositive();
      riverbedSpark(q).assertSameAs(hudi, scenario + " " + q + ", Riverbed's Spark datasource vs Hudi 0.15");
    }
  }

  private Rows hudi(Query q) {
    return readWith(SparkOracle.HUDI_SOURCE, q);
  }

  private Rows riverbedSpark(Query q) {
    return readWith(RIVERBED_SOURCE, q);
  }

  private Rows readWith(String source, Query q) {
    return SparkOracle.canonicalRows(SparkOracle.spark().read().format(source).options(q.hudiOptions()).load(location));
  }

  private static Rows core(Table table, Query q) {
    return Rows.ofJsonLines(TableReads.lines(table.reload(), QuerySpec.fromOptions(q.hudiOptions())));
  }

  private static List<Trip> shuffledLive(ExpectedTable model, Random random) {
    var live = new ArrayList<>(model.state().values().stream().map(ExpectedTable.Entry::trip).toList());
    live.sort(Comparator.comparing(Trip::uuid));
    Collections.shuffle(live, random);
    return live;
  }

  /** Updates of {@code count} live keys, one in five with a smaller ts (it must lose). */
  private static List<Trip> someUpdates(TripGenerator gen, ExpectedTable model, Random random, int count) {
    var out = new ArrayList<Trip>();
    for (Trip t : shuffledLive(model, random).subList(0, count)) {
      out.add(gen.update(t, t.ts() + (random.nextInt(5) == 0 ? -1 : 1) * (1 + random.nextInt(500))));
    }
    return out;
  }
}
