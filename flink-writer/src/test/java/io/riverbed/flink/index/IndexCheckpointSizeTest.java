package io.riverbed.flink.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sink.WriterFixtures;
import io.riverbed.format.record.OrderingValueCodec;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyedStateHandle;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.runtime.state.storage.FileSystemCheckpointStorage;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a checkpoint of the state index uploads, per key, on the heap backend and on RocksDB with
 * incremental checkpoints (the switch point in {@code docs/PERFORMANCE.md}): the bucket assigner
 * holds 20,000 keys (UUIDs, as the write benchmark's), checkpoints, then 1% of the keys change and
 * it checkpoints again. On the heap every checkpoint writes the whole index; on RocksDB the second
 * uploads only the files the changes made.
 */
class IndexCheckpointSizeTest {
  private static final int KEYS = 20_000;
  private static final int CHANGED = KEYS / 100;

  @TempDir Path dir;

  /** Bytes uploaded by the first (full) and the second checkpoint, and the index's whole size at the second. */
  private record Sizes(long first, long second, long secondWhole) {
    double bytesPerKey() {
      return (double) first / KEYS;
    }
  }

  private Sizes checkpoints(StateBackend backend) throws Exception {
    var options = FlinkWriteOptions.fromMap(WriterFixtures.options(dir, "MERGE_ON_READ"));
    var operator = new BucketAssignOperator(options, false, WriterFixtures.ROW_TYPE);
    try (var h = new KeyedOneInputStreamOperatorTestHarness<String, RowData, RowData>(operator, WriteEnvelope::key,
        Types.STRING)) {
      h.setStateBackend(backend);
      // files, as on a cluster (in memory, RocksDB uploads every file again); 1 KB inline threshold
      h.setCheckpointStorage(new FileSystemCheckpointStorage(dir.resolve("checkpoints").toUri(), 1024));
      h.setup(new RowDataSerializer(WriteEnvelope.rowType(WriterFixtures.ROW_TYPE)));
      h.open();
      for (int i = 0; i < KEYS; i++) {
        h.processElement(upsert(i, 1_000), 0L);
      }
      OperatorSubtaskState first = h.snapshot(1, 1);
      h.notifyOfCompletedCheckpoint(1);
      for (int i = 0; i < KEYS; i += KEYS / CHANGED) {
        h.processElement(upsert(i, 2_000), 0L);
      }
      OperatorSubtaskState second = h.snapshot(2, 2);
      h.getOutput().clear();
      return new Sizes(uploaded(first), uploaded(second), whole(second));
    }
  }

  private static RowData upsert(int i, long ts) {
    String key = UUID.nameUUIDFromBytes(Integer.toString(i).getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
    var change = new WriterFixtures.Change(key, key, ts, i % 8, false, false);
    return WriteEnvelope.of(WriteEnvelope.UPSERT, key, change.partition(), null, change.row(), OrderingValueCodec.encode(ts));
  }

  private static long uploaded(OperatorSubtaskState state) {
    return state.getManagedKeyedState().stream().mapToLong(KeyedStateHandle::getCheckpointedSize).sum();
  }

  private static long whole(OperatorSubtaskState state) {
    return state.getManagedKeyedState().stream().mapToLong(KeyedStateHandle::getStateSize).sum();
  }

  @Test
  void onTheHeapEveryCheckpointWritesTheWholeIndex() throws Exception {
    Sizes heap = checkpoints(new HashMapStateBackend());
    System.out.printf("INDEX CHECKPOINT heap: first %d B (%.1f B/key), second after %d changed keys %d B%n", heap.first(),
        heap.bytesPerKey(), CHANGED, heap.second());

    assertThat(heap.second()).as("1%% of the keys changed, the whole index written again")
        .isGreaterThan(heap.first() * 9 / 10);
    // key (36-char UUID) + partition + file id (UUID-based) + ordering value: about 100 bytes, no more
    assertThat(heap.bytesPerKey()).isBetween(60.0, 130.0);
  }

  @Test
  void onIncrementalRocksDbASecondCheckpointUploadsOnlyWhatChanged() throws Exception {
    var backend = new EmbeddedRocksDBStateBackend(true);
    // the harness's few MB of managed memory would make write buffers of a few KB, and thousands of
    // tiny SST files compacted between the checkpoints; a cluster gives RocksDB far more
    backend.getMemoryConfiguration().setUseManagedMemory(false);
    Sizes rocksDb = checkpoints(backend);
    System.out.printf("INDEX CHECKPOINT rocksdb incremental: first %d B (%.1f B/key), second after %d changed keys "
        + "%d B uploaded of %d B%n", rocksDb.first(), rocksDb.bytesPerKey(), CHANGED, rocksDb.second(),
        rocksDb.secondWhole());

    assertThat(rocksDb.second()).as("uploaded by the second checkpoint").isLessThan(rocksDb.first() / 5);
    assertThat(rocksDb.secondWhole()).as("the index it describes").isGreaterThan(rocksDb.first() * 9 / 10);
  }
}
