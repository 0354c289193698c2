package io.riverbed.flink.index;

import static io.riverbed.flink.sink.WriterFixtures.ROW_TYPE;
import static io.riverbed.flink.sink.WriterFixtures.assertNoPendingWrites;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.expected;
import static io.riverbed.flink.sink.WriterFixtures.options;
import static io.riverbed.flink.sink.WriterFixtures.read;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.ChunkedSource;
import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.FlinkTables;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sink.RiverbedSink;
import io.riverbed.flink.sink.WriterFixtures.Change;
import io.riverbed.flink.sink.WriterFixtures;
import io.riverbed.flink.write.RowTypeAvroConverter;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.AppendHandle;
import io.riverbed.format.write.CreateHandle;
import io.riverbed.format.write.WriteRecord;
import io.riverbed.format.write.WriteTaskContext;
import io.riverbed.format.write.WriteTransaction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new job (no restored state) on a table that already holds data: with index bootstrap, upserts
 * and deletes of stored keys find their file groups; without it, keys are duplicated.
 */
class IndexBootstrapJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  /** The partitions of {@link WriterFixtures}' places, by place. */
  private static final String[] PARTITIONS = {"eu/fr/paris", "eu/fr/lyon", "eu/de/berlin", "us/ca/sf", "us/ca/la",
      "us/ny/nyc", "asia/jp/tokyo", "asia/in/pune"};

  @TempDir
  Path dir;

  @AfterEach
  void disarm() {
    FaultInjection.reset();
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"MERGE_ON_READ", "COPY_ON_WRITE"})
  void newJobUpsertsAndDeletesKeysAFirstJobWrote(String tableType) throws Exception {
    var first = changes(21, 2000, 2, 0.3, 0.02, 0.02);
    var options = options(dir, tableType);
    write("bootstrap-first-" + tableType, first, options, 2, 0, 0);
    var second = changesOfStoredKeys(first, 22);
    var result = writeWithParallelInput("bootstrap-second-" + tableType, List.of(second.subList(0, 400), second.subList(400, second.size())),
        options, 0);
    List<List<Change>> all = new ArrayList<>(first);
    all.add(second);
    var table = table(options);
    assertThat(read(table)).isEqualTo(expected(all));
    assertNoPendingWrites(table);
    assertThat(loadedKeys(result)).isEqualTo(expected(first).size());
  }

  @Test
  void newJobFindsKeysOfATableWrittenByTheCorePrimitivesAndSkipsKeysDeletedInLogs() throws Exception {
    var options = options(dir, "MERGE_ON_READ");
    var flinkOptions = FlinkWriteOptions.fromMap(options);
    Schema schema = RowTypeAvroConverter.toAvroSchema(ROW_TYPE, "trips");
    Table table = FlinkTables.openOrCreate(flinkOptions, schema);
    // place 0 = eu/fr/paris, 3 = us/ca/sf
    var withBase = new FileGroupId("eu/fr/paris", FileNames.newFileId());
    var logOnly = new FileGroupId("us/ca/sf", FileNames.newFileId());
    commit(table, schema, flinkOptions, tx -> ctx -> {
      CreateHandle.of(ctx, withBase).write(List.of(upsert(schema, "a1", "a1-v1", 1, 0), upsert(schema, "a2", "a2-v1", 1, 0),
          upsert(schema, "a3", "a3-v1", 1, 0), upsert(schema, "a4", "a4-v1", 1, 0))).ifPresent(tx::addWriteStat);
      AppendHandle.of(ctx, logOnly, java.util.Optional.empty()).append(List.of(upsert(schema, "b1", "b1-v1", 1, 3),
          upsert(schema, "b2", "b2-v1", 1, 3), upsert(schema, "b3", "b3-v1", 1, 3))).ifPresent(tx::addWriteStat);
    });
    commit(table, schema, flinkOptions, tx -> ctx -> {
      var view = FileSystemViewLoader.load(table, TimelineStore.at(table.fs(), table.metaPath()).load());
      AppendHandle.of(ctx, withBase, view.latestSliceForWrite(withBase)).append(List.of(
          upsert(schema, "a1", "a1-v2", 2, 0), WriteRecord.delete("a2", "eu/fr/paris", 2L))).ifPresent(tx::addWriteStat);
      AppendHandle.of(ctx, logOnly, view.latestSliceForWrite(logOnly)).append(List.of(
          WriteRecord.delete("b1", "us/ca/sf", 2L))).ifPresent(tx::addWriteStat);
    });
    assertThat(read(table)).containsOnlyKeys("a1", "a3", "a4", "b2", "b3");

    var changes = List.of(
        new Change("a1", "a1-v3", 5, 0, false, false),
        new Change("a3", "a3-gone", 5, 0, true, false),
        new Change("b2", "b2-v2", 5, 3, false, false),
        new Change("b3", "b3-moved", 5, 6, false, false),
        new Change("b1", "b1-again", 5, 3, false, false),
        new Change("n1", "n1-v1", 5, 1, false, false));
    var result = writeWithParallelInput("bootstrap-core", List.of(changes), options, 0);

    assertThat(read(table)).isEqualTo(new TreeMap<>(Map.of(
        "a1", "a1-v3|5|eu/fr/paris",
        "a4", "a4-v1|1|eu/fr/paris",
        "b1", "b1-again|5|us/ca/sf",
        "b2", "b2-v2|5|us/ca/sf",
        "b3", "b3-moved|5|asia/jp/tokyo",
        "n1", "n1-v1|5|eu/fr/lyon")));
    // a2 and b1 were deleted in the logs: not indexed
    assertThat(loadedKeys(result)).isEqualTo(5);
  }

  @Test
  void withoutBootstrapANewJobDuplicatesStoredKeysAndDropsTheirDeletes() throws Exception {
    var options = options(dir, "MERGE_ON_READ");
    options.put(FlinkWriteOptions.INDEX_BOOTSTRAP, "false");
    // no small-file packing: a key the index does not know goes to a new file group, not by chance to its old one
    options.put(io.riverbed.format.write.WriteOptions.SMALL_FILE_LIMIT, "0");
    write("no-bootstrap-first", List.of(List.of(new Change("k1", "v1", 1, 0, false, false),
        new Change("k2", "v1", 1, 0, false, false))), options, 2, 0, 0);
    write("no-bootstrap-second", List.of(List.of(new Change("k1", "v2", 2, 0, false, false),
        new Change("k2", "gone", 2, 0, true, false))), options, 2, 0, 0);
    Map<String, Integer> rowsPerKey = new TreeMap<>();
    for (var r : TableReads.read(table(options).reload(), QuerySpec.snapshot())) {
      rowsPerKey.merge(r.get("uuid").toString(), 1, Integer::sum);
    }
    // the trade-off of index.bootstrap.enabled=false: k1 twice (old and new file group), k2 not deleted
    assertThat(rowsPerKey).isEqualTo(Map.of("k1", 2, "k2", 1));
  }

  @Test
  void bootstrapLoadsOnlyThePartitionsMatchingIndexPartitionRegex() throws Exception {
    var options = options(dir, "MERGE_ON_READ");
    // no small-file packing: a key the index does not know goes to a new file group, not by chance to its old one
    options.put(io.riverbed.format.write.WriteOptions.SMALL_FILE_LIMIT, "0");
    write("regex-first", List.of(List.of(new Change("p1", "v1", 1, 0, false, false),
        new Change("p2", "v1", 1, 0, false, false), new Change("l1", "v1", 1, 1, false, false))), options, 2, 0, 0);
    options.put(FlinkWriteOptions.INDEX_PARTITION_REGEX, "eu/fr/par.*");

    var result = writeWithParallelInput("regex-second", List.of(List.of(new Change("p1", "v2", 2, 0, false, false),
        new Change("l1", "v2", 2, 1, false, false))), options, 0);

    assertThat(loadedKeys(result)).as("the keys of eu/fr/paris only").isEqualTo(2);
    Map<String, Integer> rowsPerKey = new TreeMap<>();
    for (var r : TableReads.read(table(options).reload(), QuerySpec.snapshot())) {
      rowsPerKey.merge(r.get("uuid").toString(), 1, Integer::sum);
    }
    // l1 lives in eu/fr/lyon, outside the regex: its update was a new key, so the table holds it twice
    assertThat(rowsPerKey).isEqualTo(Map.of("p1", 1, "p2", 1, "l1", 2));
  }

  @Test
  void restoredJobDoesNotBootstrapAgain() throws Exception {
    var first = changes(23, 1000, 1, 0.0, 0.0, 0.0);
    var options = options(dir, "MERGE_ON_READ");
    write("restore-first", first, options, 2, 0, 0);
    var second = changesOfStoredKeys(first, 24);
    int third = second.size() / 3;
    FaultInjection.arm(FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT, 1);
    var result = writeWithParallelInput("restore-second",
        List.of(second.subList(0, third), second.subList(third, 2 * third), second.subList(2 * third, second.size())),
        options, 3);
    assertThat(FaultInjection.fired(FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT)).isEqualTo(1);
    // the attempt that finished restored the first checkpoint: it loaded nothing, and its updates of
    // stored keys still found their file groups (the restored index)
    assertThat(loadedKeys(result)).isZero();
    List<List<Change>> all = new ArrayList<>(first);
    all.add(second);
    var table = table(options);
    assertThat(read(table)).isEqualTo(expected(all));
    assertNoPendingWrites(table);
  }

  /**
   * Changes of the keys {@code stored} left: updates with larger and smaller ordering values,
   * deletes, moves to another partition, and new keys, shuffled.
   */
  private static List<Change> changesOfStoredKeys(List<List<Change>> stored, long seed) {
    Map<String, Change> live = new TreeMap<>();
    for (List<Change> chunk : stored) {
      for (Change c : chunk) {
        Change current = live.get(c.key());
        if (current == null || c.ts() >= current.ts()) {
          live.put(c.key(), c);
        }
      }
    }
    live.values().removeIf(Change::delete);
    var random = new java.util.Random(seed);
    List<Change> out = new ArrayList<>();
    int i = 0;
    for (Change c : live.values()) {
      switch (i++ % 6) {
        case 0 -> out.add(new Change(c.key(), "newer-" + i, c.ts() + 10, c.place(), false, false));
        case 1 -> out.add(new Change(c.key(), "older-" + i, c.ts() - 10, c.place(), false, false));
        case 2 -> out.add(new Change(c.key(), "deleted-" + i, c.ts() + 1, c.place(), true, random.nextBoolean()));
        case 3 -> out.add(new Change(c.key(), "moved-" + i, c.ts() + 5, (c.place() + 1 + random.nextInt(7)) % 8, false, false));
        default -> { }
      }
    }
    for (int n = 0; n < 200; n++) {
      out.add(new Change(String.format("new-%05d", n), "new-" + n, 1000, random.nextInt(8), false, false));
    }
    java.util.Collections.shuffle(out, random);
    return out;
  }

  /**
   * Writes {@code chunks} with an input of parallelism 2 (keyed by uuid, so a key's order is kept):
   * two index-bootstrap subtasks, two assigner subtasks.
   */
  private static JobExecutionResult writeWithParallelInput(String name, List<List<Change>> chunks,
      Map<String, String> options, int restarts) throws Exception {
    var env = WriterFixtures.env(2, restarts);
    ChunkedSource.register(name, WriterFixtures.rows(chunks));
    var type = InternalTypeInfo.of(ROW_TYPE);
    var stream = env.addSource(new ChunkedSource(name, 0), "chunks", type).setParallelism(1)
        .keyBy(row -> row.getString(0).toString(), Types.STRING)
        .map(row -> row, type).name("by-key").setParallelism(2);
    RiverbedSink.forRowData(ROW_TYPE, options).sinkTo(stream);
    return env.execute(name);
  }

  private static long loadedKeys(JobExecutionResult result) {
    Long n = result.getAccumulatorResult(IndexBootstrapOperator.LOADED_KEYS_ACCUMULATOR);
    return n == null ? 0 : n;
  }

  private static WriteRecord upsert(Schema schema, String key, String name, long ts, int place) {
    String[] p = PARTITIONS[place].split("/");
    var r = new GenericData.Record(schema);
    r.put("uuid", key);
    r.put("name", name);
    r.put("ts", ts);
    r.put("region", p[0]);
    r.put("country", p[1]);
    r.put("city", p[2]);
    r.put("_hoodie_is_deleted", false);
    return WriteRecord.upsert(key, String.join("/", p), r, ts);
  }

  /** One committed transaction of the core write primitives. */
  private static void commit(Table table, Schema schema, FlinkWriteOptions options,
      java.util.function.Function<WriteTransaction, Consumer<WriteTaskContext>> writes) {
    WriteTransaction tx = WriteTransaction.start(table, WriteOperationType.UPSERT);
    var ctx = WriteTaskContext.of(table, tx.instantTime(), 0, 1, 0, schema, options.writeOptions());
    writes.apply(tx).accept(ctx);
    tx.commit(schema, new HashMap<>());
  }
}
