package io.riverbed.format.write;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an engine does with the primitives, single task: precombine, route known keys to their
 * file group (the "index" map), assign new keys with {@link FileGroupPacker}, write each group with
 * the right handle. {@link #writeUncommitted} stops before the commit (a crashed writer).
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
    var ctx = WriteTaskContext.of(table, tx.instantTime(), 0, 1, 0, WriteTestSupport.SCHEMA, options);
    FileSystemView view = FileSystemViewLoader.load(table, WriteTestSupport.timeline(table));
    Map<FileGroupId, List<WriteRecord>> byGroup = new LinkedHashMap<>();
    Map<FileGroupId, Boolean> isNew = new HashMap<>();
    FileGroupPacker packer = FileGroupPacker.of(() -> table, options, 0, 1);
    for (WriteRecord r : BatchPrecombiner.precombine(batch)) {
      FileGroupId id = index.get(r.recordKey());
      if (id == null && r.isDelete()) {
        continue;
      }
      if (id == null) {
        id = new FileGroupId(r.partitionPath(), packer.assign(r.partitionPath()));
        isNew.put(id, view.latestSliceForWrite(id).isEmpty());
        index.put(r.recordKey(), id);
      }
      byGroup.computeIfAbsent(id, k -> new ArrayList<>()).add(r);
    }
    byGroup.forEach((id, records) -> {
      if (table.type() == TableType.MERGE_ON_READ) {
        AppendHandle.of(ctx, id, view.latestSliceForWrite(id)).append(records).ifPresent(tx::addWriteStat);
      } else if (Boolean.TRUE.equals(isNew.get(id))) {
        CreateHandle.of(ctx, id).write(records).ifPresent(tx::addWriteStat);
      } else {
        tx.addWriteStat(MergeHandle.of(ctx, view.latestSliceForWrite(id).orElseThrow()).merge(records));
      }
    });
    return tx;
  }
}
