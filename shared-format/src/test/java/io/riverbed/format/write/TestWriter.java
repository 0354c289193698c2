package io.riverbed.format.write;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.List;
import java.util.Map;

/**
 * The write tests' engine: a {@link SingleTaskEngine} over {@link WriteTestSupport#SCHEMA}, each
 * write one upsert instant. {@link #index} plays the engine's state index; {@link #writeUncommitted}
 * stops before the commit (a crashed writer).
 */
final class TestWriter {
  final Table table;
  final WriteOptions options;
  final Map<String, FileGroupId> index;
  private final SingleTaskEngine engine;

  TestWriter(Table table, WriteOptions options) {
    this.table = table;
    this.options = options;
    this.engine = new SingleTaskEngine(table, WriteTestSupport.SCHEMA, options);
    this.index = engine.index();
  }

  String write(List<WriteRecord> batch) {
    return write(batch, Map.of());
  }

  String write(List<WriteRecord> batch, Map<String, String> extraMetadata) {
    return engine.write(WriteOperationType.UPSERT, batch, extraMetadata);
  }

  SingleTaskEngine.PendingWrite writeUncommitted(List<WriteRecord> batch) {
    return engine.writeUncommitted(WriteOperationType.UPSERT, batch);
  }
}
