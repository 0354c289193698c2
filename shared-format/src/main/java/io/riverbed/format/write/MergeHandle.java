package io.riverbed.format.write;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.TableException;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.base.BaseFileWriter;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.timeline.WriteStat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * COPY_ON_WRITE merge of one file group: reads the current base file, applies the batch with the
 * payload rule in effect, and writes a new base file with the same file id at instant T.
 *
 * <ul>
 *   <li>a key with no change is copied as is, meta fields included (as Hudi's merge handle does);
 *   <li>an update whose payload rule keeps the stored record (event-time payloads, smaller ordering
 *       value) also copies the stored record unchanged;
 *   <li>an update that wins is written with the new instant's meta fields;
 *   <li>a delete drops the key (a delete always wins against the stored record, as in Hudi 0.15);
 *   <li>keys not in the base file are appended as inserts.
 * </ul>
 */
public final class MergeHandle {
  private static final Logger LOG = LoggerFactory.getLogger(MergeHandle.class);

  private final WriteTaskContext context;
  private final FileSlice currentSlice;
  private final BaseFile currentBase;

  private MergeHandle(WriteTaskContext context, FileSlice currentSlice, BaseFile currentBase) {
    this.context = context;
    this.currentSlice = currentSlice;
    this.currentBase = currentBase;
  }

  /**
   * A handle merging into {@code currentSlice}, the group's latest committed slice, which must have
   * a base file and no log files.
   */
  public static MergeHandle of(WriteTaskContext context, FileSlice currentSlice) {
    Objects.requireNonNull(currentSlice, "currentSlice");
    BaseFile base = currentSlice.baseFile().orElseThrow(() -> new TableException("file group "
        + currentSlice.fileGroupId() + " of table " + context.table().basePath() + " has no base file to merge into"
        + " at instant " + context.instantTime()));
    if (currentSlice.hasLogs()) {
      throw new TableException("file group " + currentSlice.fileGroupId() + " of table " + context.table().basePath()
          + " has log files; a copy-on-write merge would lose them (instant " + context.instantTime() + ")");
    }
    return new MergeHandle(context, currentSlice, base);
  }

  /** Merges the batch (precombined first) and writes the new base file. */
  public WriteStat merge(List<WriteRecord> batch) {
    String partition = currentSlice.partitionPath();
    Map<String, WriteRecord> changes = new LinkedHashMap<>();
    for (WriteRecord change : BatchPrecombiner.precombine(batch)) {
      if (!change.partitionPath().equals(partition)) {
        throw new InvalidRecordException("record key '" + change.recordKey() + "' of partition '"
            + change.partitionPath() + "' cannot be merged into file group " + currentSlice.fileGroupId()
            + " at instant " + context.instantTime());
      }
      changes.put(change.recordKey(), change);
    }
    PayloadMergeRule rule = context.mergeRule();
    String orderingField = context.orderingField();
    String fileName = FileNames.baseFileName(currentSlice.fileId(), context.writeToken(), context.instantTime());
    FileValues file = new FileValues(new Utf8(context.instantTime()), new Utf8(partition), new Utf8(fileName));
    context.prepareFile(partition, fileName, Markers.Type.MERGE);
    Path path = new Path(context.table().partitionPath(partition), fileName);
    var counts = new long[3]; // updates, deletes, inserts
    BaseFileWriter writer = BaseFileWriter.create(context.table().fs().getConf(), path, context.writerSchema(),
        context.options().baseFile());
    BaseFileWriter.Result result;
    try {
      try (CloseableIterator<GenericRecord> stored = BaseFileReader.recordsToRewrite(context.table().fs().getConf(),
          currentBase.path(), context.writerSchema())) {
        while (stored.hasNext()) {
          GenericRecord old = stored.next();
          Object keyValue = old.get(MetaFields.RECORD_KEY);
          if (keyValue == null) {
            throw new TableException("record without " + MetaFields.RECORD_KEY + " in base file " + currentBase.path());
          }
          String key = keyValue.toString();
          WriteRecord change = changes.remove(key);
          if (change == null) {
            writer.write(key, old);
          } else if (change.isDelete()) {
            counts[1]++;
          } else {
            GenericRecord incoming = withMeta(change, file);
            Optional<GenericRecord> merged = rule.combineWithBase(key, old, incoming, orderingField);
            if (merged.isEmpty()) {
              counts[1]++;
            } else if (merged.get() == old) {
              writer.write(key, old);
            } else {
              writer.write(key, merged.get());
              counts[0]++;
            }
          }
        }
      }
      for (WriteRecord insert : changes.values()) {
        if (!insert.isDelete() && !PayloadMergeRule.isDeleteRecord(insert.data())) {
          writer.write(insert.recordKey(), withMeta(insert, file));
          counts[2]++;
        }
      }
      result = writer.finish();
    } catch (RuntimeException e) {
      CreateHandle.abortQuietly(writer, e);
      throw e;
    }
    LOG.debug("Merged {} updates, {} deletes, {} inserts into {}", counts[0], counts[1], counts[2], path);
    return WriteStat.builder()
        .fileId(currentSlice.fileId())
        .path(WriteTaskContext.relativePath(partition, fileName))
        .prevCommit(currentBase.instantTime())
        .numWrites(result.recordCount())
        .numUpdateWrites(counts[0])
        .numDeletes(counts[1])
        .numInserts(counts[2])
        .totalWriteBytes(result.fileSizeBytes())
        .partitionPath(partition)
        .fileSizeInBytes(result.fileSizeBytes())
        .build();
  }

  /** The meta values every record the merge writes of its own shares. */
  private record FileValues(Utf8 commitTime, Utf8 partitionPath, Utf8 fileName) {}

  private GenericRecord withMeta(WriteRecord change, FileValues file) {
    return MetaRecords.withMetaFields(context.writerSchema(), change.data(), file.commitTime(),
        context.nextSequenceNumber(), change.recordKey(), file.partitionPath(), file.fileName());
  }
}
