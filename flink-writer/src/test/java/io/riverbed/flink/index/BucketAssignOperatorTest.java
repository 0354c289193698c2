package io.riverbed.flink.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sink.WriterFixtures;
import io.riverbed.format.record.OrderingValueCodec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bucket assigner (Flink-state index) driven record by record in Flink's keyed operator test
 * harness, without a cluster: where new keys, updates, deletes, stale and moved changes go, how
 * index bootstrap rows and markers hold and release records, and that the index survives a
 * snapshot and restore.
 */
class BucketAssignOperatorTest {
  private static final KeySelector<RowData, String> BY_KEY = WriteEnvelope::key;
  private static final String PARIS = "eu/fr/paris";
  private static final String LYON = "eu/fr/lyon";

  @TempDir
  Path dir;

  private final List<KeyedOneInputStreamOperatorTestHarness<String, RowData, RowData>> harnesses = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (var h : harnesses) {
      h.close();
    }
  }

  /** One output row: operation, key, partition, file group. */
  record Routed(byte op, String key, String partition, String fileGroup) {}

  private KeyedOneInputStreamOperatorTestHarness<String, RowData, RowData> harness(boolean bootstrap,
      Map<String, String> extra, OperatorSubtaskState restoreFrom) throws Exception {
    Map<String, String> conf = new LinkedHashMap<>(WriterFixtures.options(dir, "MERGE_ON_READ"));
    conf.putAll(extra);
    var options = FlinkWriteOptions.fromMap(conf);
    var operator = new BucketAssignOperator(options, bootstrap, WriterFixtures.ROW_TYPE);
    var h = new KeyedOneInputStreamOperatorTestHarness<>(operator, BY_KEY, Types.STRING);
    harnesses.add(h);
    h.setup(new RowDataSerializer(WriteEnvelope.rowType(WriterFixtures.ROW_TYPE)));
    if (restoreFrom != null) {
      h.initializeState(restoreFrom);
    }
    h.open();
    return h;
  }

  private KeyedOneInputStreamOperatorTestHarness<String, RowData, RowData> harness() throws Exception {
    return harness(false, Map.of(), null);
  }

  /** Partition index of {@link WriterFixtures}' places: 0 = eu/fr/paris, 1 = eu/fr/lyon. */
  private static RowData upsert(String key, long ts, int place) {
    var change = new WriterFixtures.Change(key, key + "@" + ts, ts, place, false, false);
    return WriteEnvelope.of(WriteEnvelope.UPSERT, key, change.partition(), null, change.row(), ordering(ts));
  }

  private static RowData delete(String key, long ts, int place) {
    var change = new WriterFixtures.Change(key, key + "@" + ts, ts, place, true, false);
    return WriteEnvelope.of(WriteEnvelope.DELETE, key, change.partition(), null, change.row(), ordering(ts));
  }

  private static byte[] ordering(long ts) {
    return OrderingValueCodec.encode(ts);
  }

  /** Feeds {@code rows} and returns what came out since the last call. */
  private static List<Routed> process(KeyedOneInputStreamOperatorTestHarness<String, RowData, RowData> h,
      RowData... rows) throws Exception {
    for (RowData row : rows) {
      h.processElement(row, 0L);
    }
    List<Routed> out = new ArrayList<>();
    for (RowData r : h.extractOutputValues()) {
      out.add(new Routed(WriteEnvelope.op(r), WriteEnvelope.key(r), WriteEnvelope.partition(r),
          WriteEnvelope.fileGroup(r)));
    }
    h.getOutput().clear();
    return out;
  }

  @Test
  void newKeysArePackedIntoANewFileGroupOfTheirPartitionAndUpdatesFollowTheKey() throws Exception {
    var h = harness();
    List<Routed> inserted = process(h, upsert("k1", 10, 0), upsert("k2", 10, 0), upsert("k3", 10, 1));
    List<Routed> updated = process(h, upsert("k1", 11, 0));

    assertThat(inserted).extracting(Routed::op).containsOnly(WriteEnvelope.UPSERT);
    assertThat(inserted).extracting(Routed::partition).containsExactly(PARIS, PARIS, LYON);
    String paris = inserted.get(0).fileGroup();
    assertThat(paris).isNotBlank();
    assertThat(inserted.get(1).fileGroup()).as("small new group topped up").isEqualTo(paris);
    assertThat(inserted.get(2).fileGroup()).isNotEqualTo(paris);
    assertThat(updated).containsExactly(new Routed(WriteEnvelope.UPSERT, "k1", PARIS, paris));
  }

  @Test
  void deleteIsRoutedToTheKeysFileGroupAndOlderChangesAfterItAreStale() throws Exception {
    var h = harness();
    String group = process(h, upsert("k1", 10, 0)).get(0).fileGroup();

    assertThat(process(h, delete("k1", 20, 0))).containsExactly(new Routed(WriteEnvelope.DELETE, "k1", PARIS, group));
    assertThat(process(h, delete("unknown", 20, 0))).as("nothing to delete").isEmpty();
    // the tombstone keeps the delete's ordering value: an older replay of the key is stale
    assertThat(process(h, upsert("k1", 15, 0))).extracting(Routed::op).containsExactly(WriteEnvelope.STALE);
    assertThat(process(h, upsert("unknown", 5, 0))).extracting(Routed::op).containsExactly(WriteEnvelope.STALE);
    // a newer upsert brings the key back as a new key
    List<Routed> back = process(h, upsert("k1", 21, 0));
    assertThat(back).extracting(Routed::op, Routed::partition).containsExactly(
        org.assertj.core.groups.Tuple.tuple(WriteEnvelope.UPSERT, PARIS));
  }

  @Test
  void changeOlderThanTheKeysLastWriteIsStaleAndATieIsNot() throws Exception {
    var h = harness();
    String group = process(h, upsert("k1", 10, 0)).get(0).fileGroup();

    List<Routed> stale = process(h, upsert("k1", 9, 0), delete("k1", 8, 0));
    List<Routed> tie = process(h, upsert("k1", 10, 0));

    assertThat(stale).extracting(Routed::op).containsExactly(WriteEnvelope.STALE, WriteEnvelope.STALE);
    assertThat(stale).extracting(Routed::fileGroup).as("counted against the key's group").containsOnly(group);
    assertThat(tie).containsExactly(new Routed(WriteEnvelope.UPSERT, "k1", PARIS, group));
  }

  @Test
  void keyMovingToAnotherPartitionIsDeletedInTheOldAndInsertedInTheNewWithTheGlobalIndex() throws Exception {
    var h = harness();
    String old = process(h, upsert("k1", 10, 0)).get(0).fileGroup();

    List<Routed> moved = process(h, upsert("k1", 11, 1));
    List<Routed> after = process(h, upsert("k1", 12, 1));

    assertThat(moved).hasSize(2);
    assertThat(moved.get(0)).isEqualTo(new Routed(WriteEnvelope.DELETE, "k1", PARIS, old));
    assertThat(moved.get(1).op()).isEqualTo(WriteEnvelope.UPSERT);
    assertThat(moved.get(1).partition()).isEqualTo(LYON);
    assertThat(after).containsExactly(new Routed(WriteEnvelope.UPSERT, "k1", LYON, moved.get(1).fileGroup()));
  }

  @Test
  void bootstrapHoldsRecordsUntilEveryBootstrapSubtasksMarkerThenReleasesThemInOrder() throws Exception {
    var h = harness(true, Map.of(), null);
    int keyGroups = h.getOperator().getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
    RowData indexed = WriteEnvelope.index(WriteEnvelope.INDEX, "k1", PARIS, "boot-group-1", ordering(10));
    RowData tombstone = WriteEnvelope.index(WriteEnvelope.TOMBSTONE, "k9", PARIS, null, ordering(50));

    List<Routed> beforeMarkers = process(h, indexed, upsert("k2", 10, 0), upsert("k1", 11, 0), tombstone,
        upsert("k9", 40, 0), upsert("k1", 9, 0));
    List<Routed> afterFirstMarker = process(h, marker(0, 2, keyGroups));
    List<Routed> released = process(h, marker(1, 2, keyGroups));
    List<Routed> later = process(h, upsert("k1", 12, 0), marker(0, 2, keyGroups));

    assertThat(beforeMarkers).as("nothing passes while the index loads").isEmpty();
    assertThat(afterFirstMarker).as("one of two bootstrap subtasks is done").isEmpty();
    assertThat(released).extracting(Routed::key).as("in arrival order").containsExactly("k2", "k1", "k9", "k1");
    assertThat(released.get(1)).isEqualTo(new Routed(WriteEnvelope.UPSERT, "k1", PARIS, "boot-group-1"));
    assertThat(released.get(2).op()).as("older than the bootstrapped delete").isEqualTo(WriteEnvelope.STALE);
    assertThat(released.get(3).op()).as("older than k1's released update").isEqualTo(WriteEnvelope.STALE);
    assertThat(later).as("straight through; a late marker changes nothing")
        .containsExactly(new Routed(WriteEnvelope.UPSERT, "k1", PARIS, "boot-group-1"));
  }

  @Test
  void snapshotAndRestoreKeepTheIndexAndIgnoreLaterBootstrapRows() throws Exception {
    var h = harness(true, Map.of(), null);
    int keyGroups = h.getOperator().getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
    process(h, marker(0, 1, keyGroups));
    String group = process(h, upsert("k1", 10, 0)).get(0).fileGroup();
    process(h, delete("k2", 30, 0));
    OperatorSubtaskState snapshot = h.snapshot(1, 1);

    var restored = harness(true, Map.of(), snapshot);
    // a restored job's bootstrap rows must not overwrite the index, and nothing is held for markers
    List<Routed> out = process(restored,
        WriteEnvelope.index(WriteEnvelope.INDEX, "k1", PARIS, "stale-bootstrap-group", ordering(99)),
        upsert("k1", 11, 0), upsert("k2", 20, 0));

    assertThat(out).hasSize(2);
    assertThat(out.get(0)).isEqualTo(new Routed(WriteEnvelope.UPSERT, "k1", PARIS, group));
    assertThat(out.get(1).op()).as("the tombstone survived the restore").isEqualTo(WriteEnvelope.STALE);
  }

  private static RowData marker(int subtask, int parallelism, int keyGroups) throws Exception {
    return new BootstrapMarker(subtask, parallelism, keyGroups).rowsForEveryKeyGroup(BY_KEY).get(0);
  }
}
