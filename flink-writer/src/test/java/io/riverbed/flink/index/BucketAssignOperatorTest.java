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
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.util.Collector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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

  private final List<KeyedOneInputStreamOperatorTestHarness<String, RowData, RowData>> harnessesOfOtherOperators =
      new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (var h : harnesses) {
      h.close();
    }
    for (var h : harnessesOfOtherOperators) {
      h.close();
    }
  }

  /** One output row: operation, key, partition, file group. */
  record Routed(byte op, String key, String partition, String fileGroup) {}

  private KeyedOneInputStreamOperatorTestHarness<String, RowData, RowData> harness(boolean bootstrap,
      Map<String, String> extra, OperatorSubtaskState restoreFrom) throws Exception {
    return harness(bootstrap, extra, restoreFrom, null);
  }

  /** @param backend the state backend; null: the harness's heap backend */
  private KeyedOneInputStreamOperatorTestHarness<String, RowData, RowData> harness(boolean bootstrap,
      Map<String, String> extra, OperatorSubtaskState restoreFrom, StateBackend backend) throws Exception {
    return harness(bootstrap, extra, restoreFrom, backend, RecordKeyType.INSTANCE);
  }

  /** @param keyType the keys' type: {@link RecordKeyType} as the job keys the assigner, or an earlier release's */
  private KeyedOneInputStreamOperatorTestHarness<String, RowData, RowData> harness(boolean bootstrap,
      Map<String, String> extra, OperatorSubtaskState restoreFrom, StateBackend backend,
      org.apache.flink.api.common.typeinfo.TypeInformation<String> keyType) throws Exception {
    Map<String, String> conf = new LinkedHashMap<>(WriterFixtures.options(dir, "MERGE_ON_READ"));
    conf.putAll(extra);
    var options = FlinkWriteOptions.fromMap(conf);
    var operator = new BucketAssignOperator(options, bootstrap, WriterFixtures.ROW_TYPE);
    var h = new KeyedOneInputStreamOperatorTestHarness<>(operator, BY_KEY, keyType);
    harnesses.add(h);
    if (backend != null) {
      h.setStateBackend(backend);
    }
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

  /**
   * Jobs of earlier releases keyed the index by {@code Types.STRING}: their checkpoints and savepoints
   * restore into the {@link RecordKeyType} keys (the same bytes), on the heap and on RocksDB. (The
   * other way, an earlier release restoring this one's, Flink refuses: its string serializer accepts
   * only its own.)
   */
  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb"})
  void indexCheckpointsOfStringKeyedJobsRestoreIntoRecordKeys(String backendName) throws Exception {
    var earlier = harness(false, Map.of(), null, backend(backendName), Types.STRING);
    String group = process(earlier, upsert("k1", 10, 0), upsert("ключ-2", 10, 1)).get(0).fileGroup();
    process(earlier, delete("ключ-2", 30, 1));
    OperatorSubtaskState stringKeyed = earlier.snapshot(1, 1);

    var current = harness(false, Map.of(), stringKeyed, backend(backendName), RecordKeyType.INSTANCE);
    List<Routed> out = process(current, upsert("k1", 11, 0), upsert("ключ-2", 20, 1));
    assertThat(out.get(0)).isEqualTo(new Routed(WriteEnvelope.UPSERT, "k1", PARIS, group));
    assertThat(out.get(1).op()).as("the tombstone restored").isEqualTo(WriteEnvelope.STALE);
  }

  /**
   * The assigner looks a new key's tombstone up only if its state may hold tombstones; a checkpoint
   * of an earlier release carries no such flag, and its tombstones must still count.
   */
  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb"})
  void tombstonesOfACheckpointWithoutTheTombstoneFlagStillMakeOlderChangesStale(String backendName) throws Exception {
    var h = harness(false, Map.of(), null, backend(backendName));
    process(h, upsert("k1", 10, 0), delete("k1", 30, 0));
    OperatorSubtaskState full = h.snapshot(1, 1);
    OperatorSubtaskState keyedOnly = OperatorSubtaskState.builder()
        .setManagedKeyedState(full.getManagedKeyedState()).build();

    var restored = harness(false, Map.of(), keyedOnly, backend(backendName));
    assertThat(process(restored, upsert("k1", 20, 0), upsert("k2", 5, 0))).extracting(Routed::op)
        .containsExactly(WriteEnvelope.STALE, WriteEnvelope.UPSERT);
    var again = harness(false, Map.of(), full, backend(backendName));
    assertThat(process(again, upsert("k1", 20, 0))).extracting(Routed::op).containsExactly(WriteEnvelope.STALE);
    assertThat(process(again, upsert("k1", 31, 0))).extracting(Routed::op).containsExactly(WriteEnvelope.UPSERT);
  }

  /** An upsert without ordering value (changes not ordered across commits). */
  private static RowData unorderedUpsert(String key, int place) {
    var change = new WriterFixtures.Change(key, key, 0, place, false, false);
    return WriteEnvelope.of(WriteEnvelope.UPSERT, key, change.partition(), null, change.row(), null);
  }

  private static final long DAY = 86_400_000L;

  @Test
  void withIndexStateTtlAKeyNotWrittenForThatLongIsNewAgainAndEveryUpsertRestartsItsClock() throws Exception {
    var h = harness(false, Map.of(FlinkWriteOptions.INDEX_STATE_TTL, "1"), null);
    h.setStateTtlProcessingTime(0);
    String group = process(h, unorderedUpsert("k1", 0)).get(0).fileGroup();
    h.setStateTtlProcessingTime(DAY * 6 / 10);
    assertThat(process(h, unorderedUpsert("k1", 0))).containsExactly(new Routed(WriteEnvelope.UPSERT, "k1", PARIS, group));
    // 1.2 days after the insert, 0.6 after the last upsert: still known, so a move deletes it in Paris
    h.setStateTtlProcessingTime(DAY * 12 / 10);
    List<Routed> movedWhileKnown = process(h, unorderedUpsert("k1", 1));
    assertThat(movedWhileKnown).hasSize(2);
    assertThat(movedWhileKnown.get(0)).isEqualTo(new Routed(WriteEnvelope.DELETE, "k1", PARIS, group));

    h.setStateTtlProcessingTime(DAY * 12 / 10 + DAY + 1);
    List<Routed> movedWhenExpired = process(h, unorderedUpsert("k1", 0));

    // expired: a move back to Paris is an insert there, no delete in Lyon -- the table now holds k1 twice
    assertThat(movedWhenExpired).extracting(Routed::op, Routed::partition).containsExactly(
        org.assertj.core.groups.Tuple.tuple(WriteEnvelope.UPSERT, PARIS));
  }

  @Test
  void anExpiredKeysOlderChangeIsWrittenAsANewKeyNotDroppedAsStale() throws Exception {
    var withTtl = harness(false, Map.of(FlinkWriteOptions.INDEX_STATE_TTL, "0.5"), null);
    var withoutTtl = harness();
    for (var h : List.of(withTtl, withoutTtl)) {
      h.setStateTtlProcessingTime(0);
      process(h, upsert("k1", 10, 0));
      h.setStateTtlProcessingTime(DAY / 2 + 1);
    }

    assertThat(process(withTtl, upsert("k1", 5, 0))).extracting(Routed::op).containsExactly(WriteEnvelope.UPSERT);
    assertThat(process(withoutTtl, upsert("k1", 5, 0))).as("index.state.ttl=0: never expires")
        .extracting(Routed::op).containsExactly(WriteEnvelope.STALE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "1"})
  void restoringTheIndexWithIndexStateTtlSwitchedOnOrOffFailsNamingTheOption(String before) throws Exception {
    String after = before.equals("0") ? "1" : "0";
    var h = harness(false, Map.of(FlinkWriteOptions.INDEX_STATE_TTL, before), null);
    process(h, upsert("k1", 10, 0));
    OperatorSubtaskState snapshot = h.snapshot(1, 1);

    // Flink 1.20 cannot restore a state with TTL switched on or off (its serializer changes)
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> harness(false, Map.of(FlinkWriteOptions.INDEX_STATE_TTL, after), snapshot))
        .hasStackTraceContaining(FlinkWriteOptions.INDEX_STATE_TTL + " was switched on or off");
    var sameSetting = harness(false, Map.of(FlinkWriteOptions.INDEX_STATE_TTL, before.equals("0") ? "0" : "2"), snapshot);
    assertThat(process(sameSetting, upsert("k1", 11, 0))).extracting(Routed::partition).containsExactly(PARIS);
  }

  /** Writes index state of the first layout: one {@code (partition, file id)} tuple per key. */
  private static final class FirstLayoutIndex extends KeyedProcessFunction<String, RowData, RowData> {
    private static final long serialVersionUID = 1L;
    private transient ValueState<Tuple2<String, String>> locations;

    @Override
    public void open(org.apache.flink.api.common.functions.OpenContext context) {
      locations = getRuntimeContext().getState(LegacyIndexLocations.descriptor());
    }

    @Override
    public void processElement(RowData row, Context ctx, Collector<RowData> out) throws Exception {
      locations.update(Tuple2.of(WriteEnvelope.partition(row), "first-layout-" + WriteEnvelope.key(row)));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb"})
  void aCheckpointOfTheFirstIndexLayoutRestoresAndItsLocationsAreMovedToEntries(String backendName) throws Exception {
    var first = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new FirstLayoutIndex()), BY_KEY,
        Types.STRING);
    harnessesOfOtherOperators.add(first);
    first.setStateBackend(backend(backendName));
    first.setup(new RowDataSerializer(WriteEnvelope.rowType(WriterFixtures.ROW_TYPE)));
    first.open();
    first.processElement(upsert("k1", 10, 0), 0L);
    first.processElement(upsert("k2", 10, 1), 0L);
    OperatorSubtaskState firstLayout = first.snapshot(1, 1);

    var restored = harness(false, Map.of(), firstLayout, backend(backendName));
    List<Routed> out = process(restored, upsert("k1", 11, 0), upsert("k2", 11, 1), upsert("k3", 11, 0));
    OperatorSubtaskState moved = restored.snapshot(2, 2);
    var again = harness(false, Map.of(), moved, backend(backendName));
    List<Routed> afterSecondRestore = process(again, upsert("k2", 12, 1));

    assertThat(out.subList(0, 2)).containsExactly(
        new Routed(WriteEnvelope.UPSERT, "k1", PARIS, "first-layout-k1"),
        new Routed(WriteEnvelope.UPSERT, "k2", LYON, "first-layout-k2"));
    assertThat(out.get(2).fileGroup()).as("a new key is packed").doesNotStartWith("first-layout-");
    assertThat(afterSecondRestore).containsExactly(new Routed(WriteEnvelope.UPSERT, "k2", LYON, "first-layout-k2"));
    try (var keys = again.getOperator().getKeyedStateBackend().getKeys(LegacyIndexLocations.STATE_NAME,
        org.apache.flink.runtime.state.VoidNamespace.INSTANCE)) {
      assertThat(keys.count()).as("the first layout's state is empty once moved").isZero();
    }
  }

  private static StateBackend backend(String name) {
    return name.equals("rocksdb") ? new EmbeddedRocksDBStateBackend() : new HashMapStateBackend();
  }

  private static RowData marker(int subtask, int parallelism, int keyGroups) throws Exception {
    return new BootstrapMarker(subtask, parallelism, keyGroups).rowsForEveryKeyGroup(BY_KEY).get(0);
  }
}
