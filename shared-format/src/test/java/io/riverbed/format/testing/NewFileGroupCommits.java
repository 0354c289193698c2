package io.riverbed.format.testing;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.CreateHandle;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.WriteRecord;
import io.riverbed.format.write.WriteTaskContext;
import io.riverbed.format.write.WriteTransaction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * The simplest complete write: records keyed by the table's own key generator, committed as new
 * file groups (one base file per partition) in one upsert instant. For tests that need committed
 * tables with given partitions and schemas (schema evolution included), not particular file layouts.
 */
public final class NewFileGroupCommits {
  private NewFileGroupCommits() {}

  /** Commits {@code records} (of {@code schema}) as new file groups, one per partition; returns the instant time. */
  public static String commit(Table table, Schema schema, List<GenericRecord> records) {
    RecordKeyer keyer = RecordKeyer.forTable(table.config());
    Map<String, List<WriteRecord>> byPartition = new LinkedHashMap<>();
    for (GenericRecord r : records) {
      WriteRecord w = keyer.toWriteRecord(r);
      byPartition.computeIfAbsent(w.partitionPath(), p -> new ArrayList<>()).add(w);
    }
    WriteTransaction txn = WriteTransaction.start(table, WriteOperationType.UPSERT);
    WriteTaskContext ctx = WriteTaskContext.single(table, txn.instantTime(), schema);
    byPartition.forEach((partition, batch) ->
        CreateHandle.of(ctx, new FileGroupId(partition, FileNames.newFileId())).write(batch).ifPresent(txn::addWriteStat));
    txn.commit(schema, Map.of());
    return txn.instantTime();
  }
}
