package io.riverbed.format.write;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.TableException;
import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.base.BaseFileWriter;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.log.LogEntry;
import io.riverbed.format.log.MergedLogRecords;
import io.riverbed.format.log.ScanStats;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.log.SliceLogScanner;
import io.riverbed.format.timeline.CommittedLogWrites;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CompactionOperation;
import io.riverbed.format.timeline.WriteStat;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts one file group: merges the old base file (if any) with the slice's log files and writes
 * the new base file of the compaction instant, the way Hudi 0.15's compactor does with its merge
 * handle (old base present) or create handle (log-only slice):
 *
 * <ul>
 *   <li>Logs are scanned with the compaction instant as the query instant, the timeline's
 *       committed-instant predicate, the table's payload rule and ordering field.
 *   <li>Base records are visited in file order; a key with a log entry is merged by
 *       {@link PayloadMergeRule#combineWithBase}; keys only in the logs follow.
 *   <li>Every record keeps its {@code _hoodie_commit_time}/{@code _hoodie_commit_seqno}; only
 *       {@code _hoodie_file_name} is set to the new file's name. Deleted keys are dropped.
 *   <li>A log-only slice whose logs hold no committed entry gets no file (Hudi returns no write
 *       status then). Otherwise a file is written even if every record is deleted: Hudi's handles
 *       create the file before writing and close it with zero records, and the empty base file
 *       makes the new slice hide the old one.
 * </ul>
 */
final class CompactionFileGroupMerger {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionFileGroupMerger.class);

  private final Table table;
  private final String instantTime;
  private final Schema tableSchema;
  private final Schema writerSchema;
  private final Predicate<String> committed;
  private final CommittedLogWrites committedWrites;
  private final CompactionOptions options;
  private final Markers markers;
  private final PayloadMergeRule mergeRule;
  private final String orderingField;
  private final int keyPos;
  private final int fileNamePos;

  CompactionFileGroupMerger(Table table, String instantTime, Schema tableSchema, Predicate<String> committed,
      CommittedLogWrites committedWrites, CompactionOptions options, Markers markers) {
    this.table = table;
    this.instantTime = instantTime;
    this.tableSchema = tableSchema;
    this.writerSchema = TableSchemas.addMetaFields(tableSchema);
    this.committed = committed;
    this.committedWrites = committedWrites;
    this.options = options;
    this.markers = markers;
    this.mergeRule = PayloadMergeRule.forPayloadClass(table.config().payloadClass());
    this.orderingField = table.config().precombineField().orElse(null);
    this.keyPos = writerSchema.getField(MetaFields.RECORD_KEY).pos();
    this.fileNamePos = writerSchema.getField(MetaFields.FILE_NAME).pos();
    if (!table.config().populateMetaFields()) {
      throw new TableException("cannot compact table " + table.basePath()
          + ": tables without meta fields (hoodie.populate.meta.fields=false) are not supported");
    }
  }

  /** The table schema (without meta fields) the merged files are written in. */
  Schema tableSchema() {
    return tableSchema;
  }

  /**
   * Writes the new base file of {@code operation}.
   *
   * @param taskIndex position of the operation in the plan, used in the write token
   * @param attempt the last part of the write token: higher for a retry of the operation
   * @return the write stat of the new file, or empty if no file was needed
   */
  Optional<WriteStat> merge(CompactionOperation operation, int taskIndex, int attempt) {
    long scanStart = System.nanoTime();
    Path folder = table.partitionPath(operation.partitionPath());
    Optional<Path> oldBase = operation.dataFile().map(name -> new Path(folder, name));
    try (MergedLogRecords logs = scan(operation, folder)) {
      long scanMillis = (System.nanoTime() - scanStart) / 1_000_000;
      if (logs.size() == 0 && oldBase.isEmpty()) {
        LOG.debug("Compaction {}: file group {}/{} has no committed log entries and no base file; no file written",
            instantTime, operation.partitionPath(), operation.fileId());
        return Optional.empty();
      }
      long writeStart = System.nanoTime();
      String fileName = FileNames.baseFileName(operation.fileId(), FileNames.writeToken(taskIndex, 1, attempt), instantTime);
      markers.mark(operation.partitionPath(), fileName, oldBase.isPresent() ? Markers.Type.MERGE : Markers.Type.CREATE);
      Counts counts = new Counts();
      BaseFileWriter writer = BaseFileWriter.create(table.fs().getConf(), new Path(folder, fileName), writerSchema,
          options.baseFileOptions());
      BaseFileWriter.Result written;
      try {
        Set<String> mergedKeys = new HashSet<>();
        if (oldBase.isPresent()) {
          mergeBase(oldBase.get(), logs, writer, fileName, mergedKeys, counts);
        }
        for (LogEntry entry : logs) {
          if (mergedKeys.contains(entry.recordKey())) {
            continue;
          }
          if (entry.isDelete()) {
            counts.deletes++;
          } else {
            write(writer, ((LogEntry.Upsert) entry).record(), fileName);
            counts.inserts++;
          }
        }
        written = writer.finish();
      } catch (RuntimeException e) {
        try {
          writer.abort();
        } catch (RuntimeException abortFailure) {
          e.addSuppressed(abortFailure);
        }
        throw e;
      }
      long writeMillis = (System.nanoTime() - writeStart) / 1_000_000;
      LOG.debug("Compaction {}: wrote {} ({} records, {} bytes)", instantTime, written.path(), written.recordCount(),
          written.fileSizeBytes());
      return Optional.of(stat(operation, fileName, written, counts, logs, scanMillis, writeMillis));
    }
  }

  private MergedLogRecords scan(CompactionOperation operation, Path folder) {
    SliceLogScanner.Builder scanner = SliceLogScanner.builder(table.fs())
        .logFiles(operation.deltaFilePaths().stream().map(name -> new Path(folder, name)).toList())
        .readerSchema(writerSchema)
        .latestInstantTime(instantTime)
        .committed(committed)
        .orderingField(orderingField)
        .recordKeyField(MetaFields.RECORD_KEY)
        .mergeRule(mergeRule)
        .memoryBudgetBytes(options.memoryBudgetBytes())
        .spillDirectory(options.spillDirectory())
        .committedWrites(committedWrites)
        .fileGroup(table.basePath().toString(), new FileGroupId(operation.partitionPath(), operation.fileId()).toString());
    return scanner.build().scan();
  }

  private void mergeBase(Path oldBase, MergedLogRecords logs, BaseFileWriter writer, String fileName,
      Set<String> mergedKeys, Counts counts) {
    try (CloseableIterator<GenericRecord> records =
        BaseFileReader.recordsToRewrite(table.fs().getConf(), oldBase, writerSchema)) {
      while (records.hasNext()) {
        GenericRecord base = records.next();
        Object keyValue = base.get(keyPos);
        if (keyValue == null) {
          throw new InvalidRecordException("record without " + MetaFields.RECORD_KEY + " in base file " + oldBase
              + " of table " + table.basePath());
        }
        String key = keyValue.toString();
        Optional<LogEntry> entry = logs.get(key);
        if (entry.isEmpty()) {
          write(writer, base, fileName);
          continue;
        }
        mergedKeys.add(key);
        GenericRecord logRecord = entry.get() instanceof LogEntry.Upsert upsert ? upsert.record() : null;
        Optional<GenericRecord> result = mergeRule.combineWithBase(key, base, logRecord, orderingField);
        if (result.isEmpty()) {
          counts.deletes++;
        } else {
          write(writer, result.get(), fileName);
          if (result.get() != base) {
            counts.updates++;
          }
        }
      }
    }
  }

  private void write(BaseFileWriter writer, GenericRecord record, String fileName) {
    record.put(fileNamePos, fileName);
    writer.write(record);
  }

  private WriteStat stat(CompactionOperation operation, String fileName, BaseFileWriter.Result written, Counts counts,
      MergedLogRecords logs, long scanMillis, long writeMillis) {
    ScanStats scan = logs.stats();
    Double logSize = operation.metrics() == null ? null : operation.metrics().get(CompactionScheduler.TOTAL_LOG_FILES_SIZE);
    String path = operation.partitionPath().isEmpty() ? fileName : operation.partitionPath() + "/" + fileName;
    boolean merged = operation.dataFile().isPresent();
    return WriteStat.builder()
        .fileId(operation.fileId())
        .path(path)
        .prevCommit(merged ? operation.baseInstantTime() : WriteStat.NULL_COMMIT)
        .numWrites(written.recordCount())
        .numDeletes(counts.deletes)
        .numUpdateWrites(counts.updates)
        .numInserts(counts.inserts)
        .totalWriteBytes(written.fileSizeBytes())
        .partitionPath(operation.partitionPath())
        .totalLogRecords(scan.records() + scan.deletes())
        .totalLogFilesCompacted(scan.logFiles())
        .totalLogSizeCompacted(logSize == null ? 0 : logSize.longValue())
        .totalUpdatedRecordsCompacted(logs.size())
        .totalLogBlocks(scan.blocks())
        .totalCorruptLogBlock(scan.corruptBlocks())
        .totalRollbackBlocks(scan.rollbackBlocks())
        .fileSizeInBytes(written.fileSizeBytes())
        .runtimeStats(new WriteStat.RuntimeStats(scanMillis, merged ? writeMillis : 0, merged ? 0 : writeMillis))
        .build();
  }

  private static final class Counts {
    long deletes;
    long updates;
    long inserts;
  }
}
