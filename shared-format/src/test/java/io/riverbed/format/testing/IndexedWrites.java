package io.riverbed.format.testing;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.table.Table;
import io.riverbed.format.write.BatchPrecombiner;
import io.riverbed.format.write.FileGroupPacker;
import io.riverbed.format.write.TableWriter;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import io.riverbed.format.write.WriteTransaction;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Writes a batch into an instant as a single-task engine does: a key → file group map plays the
 * engine's state index, {@link FileGroupPacker} places new keys, the core's {@link TableWriter}
 * writes the groups. New keys are added to the map; deletes of keys it does not hold are dropped.
 */
public final class IndexedWrites {
  private IndexedWrites() {}

  /** Upserts and deletes, precombined first: known keys to their file group, new keys packed. */
  public static void upsert(WriteTransaction tx, Schema schema, WriteOptions options, List<WriteRecord> batch,
      Map<String, FileGroupId> index) {
    Table table = tx.table();
    write(tx, TableWriter.<WriteRecord>builder(table, schema, options), FileGroupPacker.of(() -> table, options, 0, 1),
        batch, index, true);
  }

  /** A load into base files whatever the table type, every key packed as new, as a bulk insert does. */
  public static void bulkInsert(WriteTransaction tx, Schema schema, WriteOptions options, List<WriteRecord> batch,
      Map<String, FileGroupId> index) {
    Table table = tx.table();
    write(tx, TableWriter.<WriteRecord>builder(table, schema, options).baseFiles(),
        FileGroupPacker.ofBaseFiles(() -> table, options, 0, 1), batch, index, false);
  }

  private static void write(WriteTransaction tx, TableWriter.Builder<WriteRecord> builder, FileGroupPacker packer,
      List<WriteRecord> batch, Map<String, FileGroupId> index, boolean lookUp) {
    TableWriter<WriteRecord> writer = builder.build(tx::instantTime, (record, partition) -> record);
    for (WriteRecord r : BatchPrecombiner.precombine(batch)) {
      FileGroupId id = lookUp ? index.get(r.recordKey()) : null;
      if (id == null && r.isDelete()) {
        continue;
      }
      if (id == null) {
        id = new FileGroupId(r.partitionPath(), packer.assign(r.partitionPath()));
        index.put(r.recordKey(), id);
      }
      writer.write(id.partitionPath(), id.fileId(), r, 0);
    }
    tx.addWriteStats(writer.prepareCommit().writeStats());
  }
}
