package io.riverbed.flink.sink;

import static io.riverbed.flink.sink.WriterFixtures.ROW_TYPE;
import static io.riverbed.flink.sink.WriterFixtures.env;
import static io.riverbed.flink.sink.WriterFixtures.options;
import static io.riverbed.flink.sink.WriterFixtures.read;
import static io.riverbed.flink.sink.WriterFixtures.rows;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.commit.WriteResult;
import io.riverbed.flink.sink.WriterFixtures.Change;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.TimelineStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Event-time ordering across commits: a change whose ordering value is smaller than that of its
 * key's last committed write or delete is not written, whichever commit it arrives in — the same
 * job, a job restored from a checkpoint, or a new job without state on the same table. Each test
 * forces the interleaving: the older change is in a later chunk (so a later checkpoint and instant)
 * than the delete or update it is older than.
 */
class EventTimeOrderingJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir
  Path dir;

  /** Inserts, then a delete and an update, then changes older than those. */
  private static final List<Change> INSERTS = List.of(
      new Change("k1", "k1-v1", 2000, 0, false, false),
      new Change("k2", "k2-v1", 2000, 0, false, false),
      new Change("k3", "k3-v1", 5000, 3, false, false),
      new Change("k5", "k5-v1", 3000, 3, false, false));
  private static final List<Change> DELETE_AND_UPDATE = List.of(
      new Change("k1", "k1-deleted", 7000, 0, true, false),
      new Change("k3", "k3-v2", 6000, 3, false, false),
      new Change("k5", "k5-deleted", 4000, 3, true, true));
  private static final List<Change> OLDER = List.of(
      new Change("k1", "k1-replayed", 2000, 0, false, false),
      new Change("k3", "k3-late", 5500, 3, false, false),
      new Change("k2", "k2-late", 1000, 0, false, false),
      new Change("k2", "k2-late-delete", 1500, 0, true, false),
      new Change("k5", "k5-replayed", 3000, 3, false, false),
      new Change("k4", "k4-v1", 1, 1, false, false));
  private static final Map<String, String> EXPECTED = Map.of(
      "k2", "k2-v1|2000|eu/fr/paris",
      "k3", "k3-v2|6000|us/ca/sf",
      "k4", "k4-v1|1|eu/fr/lyon");

  private Map<String, String> options(String tableType, String index) {
    var o = WriterFixtures.options(dir, tableType);
    o.put(FlinkWriteOptions.INDEX_TYPE, index);
    return o;
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"MERGE_ON_READ, FLINK_STATE", "COPY_ON_WRITE, FLINK_STATE", "MERGE_ON_READ, BUCKET",
      "COPY_ON_WRITE, BUCKET"})
  void olderChangesInALaterCommitThanADeleteOrAnUpdateAreDropped(String tableType, String index) throws Exception {
    var options = options(tableType, index);
    write("ordering-one-job-" + tableType + index, List.of(INSERTS, DELETE_AND_UPDATE, OLDER), options, 2, 0, 0);
    Table table = table(options);
    assertThat(read(table)).isEqualTo(EXPECTED);
    assertThat(staleRecords(table)).isEqualTo(5);
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"MERGE_ON_READ, FLINK_STATE", "COPY_ON_WRITE, FLINK_STATE", "MERGE_ON_READ, BUCKET",
      "COPY_ON_WRITE, BUCKET"})
  void olderChangesAreDroppedAfterARestoreFromACheckpoint(String tableType, String index) throws Exception {
    var options = options(tableType, index);
    String name = "ordering-restore-" + tableType + index;
    var env = env(2, 2);
    ChunkedSource.register(name, rows(List.of(INSERTS, DELETE_AND_UPDATE, OLDER)));
    // fails once the checkpoint after the delete and update completed; the older changes come after the restore
    var stream = env.addSource(ChunkedSource.failingOnceAfter(name, 1), "chunks", InternalTypeInfo.of(ROW_TYPE))
        .setParallelism(1);
    RiverbedSink.forRowData(ROW_TYPE, options).sinkTo(stream);
    env.execute(name);
    assertThat(ChunkedSource.restoredPosition(name)).as("restored from a checkpoint after chunk 1").isEqualTo(2);
    Table table = table(options);
    assertThat(read(table)).isEqualTo(EXPECTED);
    assertThat(staleRecords(table)).isEqualTo(5);
  }

  /**
   * A new job without restored state loads ordering values from the table, and the deletes still
   * in log files (MERGE_ON_READ before compaction): the replayed records stay dropped.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"FLINK_STATE", "BUCKET"})
  void aNewJobWithoutStateDropsChangesOlderThanTheTableHolds(String index) throws Exception {
    var options = options("MERGE_ON_READ", index);
    write("ordering-first-" + index, List.of(INSERTS, DELETE_AND_UPDATE), options, 2, 0, 0);
    write("ordering-second-" + index, List.of(OLDER), options, 2, 0, 0);
    Table table = table(options);
    assertThat(read(table)).isEqualTo(EXPECTED);
    assertThat(staleRecords(table)).isEqualTo(5);
  }

  /** COPY_ON_WRITE keeps no trace of a delete in its files: a new job still drops updates older than the stored record. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"FLINK_STATE", "BUCKET"})
  void aNewJobWithoutStateOnACopyOnWriteTableDropsOlderUpdates(String index) throws Exception {
    var options = options("COPY_ON_WRITE", index);
    write("ordering-cow-first-" + index, List.of(INSERTS, DELETE_AND_UPDATE), options, 2, 0, 0);
    write("ordering-cow-second-" + index, List.of(List.of(
        new Change("k3", "k3-late", 5500, 3, false, false),
        new Change("k2", "k2-late", 1000, 0, false, false),
        new Change("k2", "k2-late-delete", 1500, 0, true, false),
        new Change("k4", "k4-v1", 1, 1, false, false))), options, 2, 0, 0);
    Table table = table(options);
    assertThat(read(table)).isEqualTo(EXPECTED);
    assertThat(staleRecords(table)).isEqualTo(3);
  }

  /** The stale changes the commits of {@code table} record in their extraMetadata. */
  static long staleRecords(Table table) {
    var store = TimelineStore.at(table.fs(), table.metaPath());
    long n = 0;
    for (var instant : store.load().commitsTimeline().completed().instants()) {
      var metadata = CommitMetadata.fromJson(store.read(instant), instant.toString());
      n += Long.parseLong(metadata.extraMetadata().getOrDefault(WriteResult.STALE_RECORDS_KEY, "0"));
    }
    return n;
  }
}
