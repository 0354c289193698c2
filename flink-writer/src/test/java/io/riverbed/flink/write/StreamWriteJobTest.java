package io.riverbed.flink.write;

import static io.riverbed.flink.sink.WriterFixtures.assertTableHolds;
import static io.riverbed.flink.sink.WriterFixtures.assertNoPendingWrites;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.expected;
import static io.riverbed.flink.sink.WriterFixtures.options;
import static io.riverbed.flink.sink.WriterFixtures.read;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.commit.WriteCoordinator;
import io.riverbed.flink.sink.ChunkedSource;
import io.riverbed.flink.sink.RiverbedSink;
import io.riverbed.flink.sink.WriterFixtures.Change;
import io.riverbed.flink.sink.WriterFixtures;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.write.BucketIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class StreamWriteJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir
  Path dir;

  @Test
  void mergeOnReadUpsertsEqualLastWriterWins() throws Exception {
    var stream = changes(1, 3000, 5, 0.3, 0.03, 0.03);
    var options = options(dir, "MERGE_ON_READ");
    write("mor-upsert", stream, options, 2, 0, 0);
    var table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
    var store = TimelineStore.at(table.fs(), table.metaPath());
    var last = store.load().commitsTimeline().completed().last().orElseThrow();
    assertThat(last.action()).isEqualTo(io.riverbed.format.timeline.Action.DELTA_COMMIT);
    var metadata = CommitMetadata.fromJson(store.read(last), last.toString());
    assertThat(metadata.extraMetadata()).containsKeys(WriteCoordinator.JOB_ID_KEY, WriteCoordinator.CHECKPOINT_ID_KEY,
        WriteCoordinator.WRITER_ID_KEY, "schema");
    assertThat(metadata.operationType().name()).isEqualTo("UPSERT");
  }

  @Test
  void copyOnWriteUpsertsEqualLastWriterWins() throws Exception {
    var stream = changes(2, 3000, 5, 0.3, 0.03, 0.03);
    var options = options(dir, "COPY_ON_WRITE");
    write("cow-upsert", stream, options, 2, 0, 0);
    var table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
    var view = FileSystemViewLoader.load(table, TimelineStore.at(table.fs(), table.metaPath()).load());
    assertThat(view.latestMergedSlices("99999999999999999")).allSatisfy(s -> assertThat(s.hasLogs()).isFalse());
  }

  @Test
  void bucketIndexPutsKeysInBucketFileGroups() throws Exception {
    var stream = changes(3, 2000, 4, 0.3, 0.02, 0.0);
    var options = options(dir, "MERGE_ON_READ");
    options.put("hoodie.index.type", "BUCKET");
    options.put("hoodie.bucket.index.num.buckets", "3");
    write("bucket", stream, options, 2, 0, 0);
    var table = table(options);
    assertTableHolds(table, stream);
    var view = FileSystemViewLoader.load(table, TimelineStore.at(table.fs(), table.metaPath()).load());
    for (var slice : view.latestMergedSlices("99999999999999999")) {
      assertThat(BucketIndex.bucketOf(slice.fileId())).isBetween(0, 2);
    }
    var records = io.riverbed.format.testing.TableReads.read(table, io.riverbed.format.query.QuerySpec.snapshot());
    for (var r : records) {
      int bucket = BucketIndex.bucket(r.get("uuid").toString(), List.of("uuid"), 3);
      assertThat(BucketIndex.bucketOf(r.get("_hoodie_file_name").toString())).isEqualTo(bucket);
    }
  }

  @Test
  void insertOperationDoesNotLookUpKeys() throws Exception {
    var first = List.of(List.of(new Change("k1", "a", 1, 0, false, false), new Change("k2", "b", 1, 0, false, false)));
    var second = List.of(List.of(new Change("k1", "c", 2, 3, false, false)));
    var options = options(dir, "MERGE_ON_READ");
    options.put("write.operation", "insert");
    write("insert-1", first, options, 2, 0, 0);
    write("insert-2", second, options, 2, 0, 0);
    var records = io.riverbed.format.testing.TableReads.read(table(options), io.riverbed.format.query.QuerySpec.snapshot());
    List<String> rows = new ArrayList<>();
    records.forEach(r -> rows.add(r.get("uuid") + "|" + r.get("name") + "|" + r.get("_hoodie_partition_path")));
    assertThat(rows).containsExactlyInAnyOrder("k1|a|eu/fr/paris", "k2|b|eu/fr/paris", "k1|c|us/ca/sf");
    var store = TimelineStore.at(table(options).fs(), table(options).metaPath());
    var last = store.load().commitsTimeline().completed().last().orElseThrow();
    assertThat(CommitMetadata.fromJson(store.read(last), "").operationType().name()).isEqualTo("INSERT");
  }

  @Test
  void deleteOperationDeletesEveryIncomingKey() throws Exception {
    // A second job has no Flink state: the BUCKET index finds the keys without it (the state index
    // needs index bootstrap for this, IndexBootstrapJobTest).
    var stream = changes(4, 1000, 2, 0.0, 0.0, 0.0);
    var options = options(dir, "COPY_ON_WRITE");
    options.put("hoodie.index.type", "BUCKET");
    write("delete-1", stream, options, 2, 0, 0);
    List<Change> deletes = new ArrayList<>();
    for (Change c : stream.get(0)) {
      deletes.add(new Change(c.key(), "x", c.ts() + 1, c.place(), false, false));
    }
    options.put("write.operation", "delete");
    write("delete-2", List.of(deletes), options, 2, 0, 0);
    Map<String, String> expected = new TreeMap<>(expected(stream));
    deletes.forEach(d -> expected.remove(d.key()));
    assertThat(read(table(options))).isEqualTo(expected).hasSize(500);
  }

  @Test
  void rowKindAndFlagDeletesRemoveKeys() throws Exception {
    var inserts = List.of(new Change("a", "a", 1, 0, false, false), new Change("b", "b", 1, 1, false, false),
        new Change("c", "c", 1, 2, false, false));
    var deletes = List.of(new Change("a", "a", 2, 0, true, false), new Change("b", "b", 2, 1, true, true));
    var options = options(dir, "MERGE_ON_READ");
    write("rowkind", List.of(inserts, deletes), options, 2, 0, 0);
    assertThat(read(table(options))).containsOnlyKeys("c");
  }

  @Test
  void idleCheckpointsOpenNoInstant() throws Exception {
    var stream = changes(5, 300, 3, 0.3, 0.0, 0.0);
    var options = options(dir, "MERGE_ON_READ");
    write("idle", stream, options, 2, 0, 4);
    var table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
    assertThat(WriterFixtures.completedWrites(table)).isEqualTo(3);
    var store = TimelineStore.at(table.fs(), table.metaPath());
    for (var i : store.load().instants()) {
      var t = io.riverbed.format.timeline.InstantTime.parseToDateTime(i.time());
      assertThat(java.time.Duration.between(t, java.time.LocalDateTime.now(java.time.ZoneOffset.UTC)).abs())
          .as("instant %s is UTC", i.time()).isLessThan(java.time.Duration.ofMinutes(10));
    }
  }

  /**
   * A bounded input subtask without data finishes at once (one file read at parallelism 2); the
   * other keeps emitting one chunk per completed checkpoint. Checkpoints must keep completing, so
   * each chunk commits at its own checkpoint; if they were declined (an operator with union-list
   * state chained to the finished subtask), the source would wait for a completion for ever.
   */
  @Test
  @org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
  void checkpointsKeepCompletingAfterAnInputSubtaskFinished() throws Exception {
    var stream = changes(9, 600, 3, 0.3, 0.02, 0.0);
    var options = options(dir, "MERGE_ON_READ");
    var env = WriterFixtures.env(2, 0);
    ChunkedSource.register("finished-subtask", WriterFixtures.rows(stream));
    var input = env.addSource(new ChunkedSource("finished-subtask", 0), "chunks",
        org.apache.flink.table.runtime.typeutils.InternalTypeInfo.of(WriterFixtures.ROW_TYPE)).setParallelism(2);
    RiverbedSink.forRowData(WriterFixtures.ROW_TYPE, options).sinkTo(input);
    env.execute("finished-subtask");
    var table = table(options);
    assertTableHolds(table, stream);
    assertThat(WriterFixtures.completedWrites(table)).isEqualTo(3);
  }

  @Test
  void writerBuffersStayWithinBatchSize() throws Exception {
    var stream = changes(6, 8000, 1, 0.3, 0.0, 0.0);
    var options = options(dir, "MERGE_ON_READ");
    options.put("write.batch.size", "0.05");
    long bound = (long) (0.05 * 1024 * 1024);
    var result = write("memory", stream, options, 1, 0, 0);
    long rowBytes = 8000L * 100;
    assertThat(rowBytes).isGreaterThan(10 * bound);
    Long max = result.getAccumulatorResult(StreamWriteOperator.MAX_BUFFERED_ACCUMULATOR);
    assertThat(max).isPositive().isLessThanOrEqualTo(bound);
    assertThat(read(table(options))).isEqualTo(expected(stream));
  }
}
