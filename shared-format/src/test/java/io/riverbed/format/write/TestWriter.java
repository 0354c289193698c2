package io.riverbed.format.write;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.IndexedWrites;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A single-task engine over the core writer: the {@link #index} map plays the engine's state
 * index ({@link IndexedWrites}); each write is one upsert instant. {@link #writeUncommitted} stops
 * before the commit (a crashed writer).
 */
final class TestWriter {
  final Table table;
  final WriteOptions options;
  final Map<String, FileGroupId> index = new HashMap<>();

  TestWriter(Table table, WriteOptions options) {
    this.table = table;
    this.options = options;
  }

  String write(List<WriteRecord> batch) {
    return write(batch, Map.of());
  }

  String write(List<WriteRecord> batch, Map<String, String> extraMetadata) {
    WriteTransaction tx = writeUncommitted(batch);
    tx.commit(WriteTestSupport.SCHEMA, extraMetadata);
    return tx.instantTime();
  }

  WriteTransaction writeUncommitted(List<WriteRecord> batch) {
    WriteTransaction tx = WriteTransaction.start(table, WriteOperationType.UPSERT);
    IndexedWrites.upsert(tx, WriteTestSupport.SCHEMA, options, batch, index);
    return tx;
  }
}
