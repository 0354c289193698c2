package io.riverbed.format.write;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.base.BaseFileWriter;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.timeline.WriteStat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.util.Utf8;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the first base file of a new file group, {@code fileId_token_T.parquet} (COW inserts).
 * Deletes in the batch are dropped: there is nothing to delete in a new file group.
 */
public final class CreateHandle {
  private static final Logger LOG = LoggerFactory.getLogger(CreateHandle.class);

  private final WriteTaskContext context;
  private final FileGroupId fileGroupId;

  private CreateHandle(WriteTaskContext context, FileGroupId fileGroupId) {
    this.context = context;
    this.fileGroupId = fileGroupId;
  }

  /** A handle creating file group {@code fileGroupId} (use {@link FileNames#newFileId()} for the id). */
  public static CreateHandle of(WriteTaskContext context, FileGroupId fileGroupId) {
    return new CreateHandle(Objects.requireNonNull(context), Objects.requireNonNull(fileGroupId));
  }

  /**
   * Writes the batch (precombined first).
   *
   * @return the write stat; empty if the batch holds no upsert
   */
  public Optional<WriteStat> write(List<WriteRecord> batch) {
    List<WriteRecord> inserts = BatchPrecombiner.precombine(batch).stream().filter(r -> !r.isDelete()).toList();
    if (inserts.isEmpty()) {
      return Optional.empty();
    }
    String partition = fileGroupId.partitionPath();
    String fileName = FileNames.baseFileName(fileGroupId.fileId(), context.writeToken(), context.instantTime());
    context.prepareFile(partition, fileName, Markers.Type.CREATE);
    Path path = new Path(context.table().partitionPath(partition), fileName);
    BaseFileWriter writer = BaseFileWriter.create(context.table().fs().getConf(), path, context.writerSchema(),
        context.options().baseFile());
    BaseFileWriter.Result result;
    Utf8 commitTime = new Utf8(context.instantTime());
    Utf8 partitionValue = new Utf8(partition);
    Utf8 fileNameValue = new Utf8(fileName);
    try {
      for (WriteRecord insert : inserts) {
        if (!insert.partitionPath().equals(partition)) {
          throw new InvalidRecordException("record key '" + insert.recordKey() + "' of partition '"
              + insert.partitionPath() + "' cannot be written to file group " + fileGroupId + " at instant "
              + context.instantTime());
        }
        writer.write(insert.recordKey(), MetaRecords.withMetaFields(context.writerSchema(), insert.data(),
            commitTime, context.nextSequenceNumber(), insert.recordKey(), partitionValue, fileNameValue));
      }
      result = writer.finish();
    } catch (RuntimeException e) {
      abortQuietly(writer, e);
      throw e;
    }
    LOG.debug("Created base file {} with {} records", path, result.recordCount());
    return Optional.of(WriteStat.builder()
        .fileId(fileGroupId.fileId())
        .path(WriteTaskContext.relativePath(partition, fileName))
        .prevCommit(WriteStat.NULL_COMMIT)
        .numWrites(result.recordCount())
        .numInserts(result.recordCount())
        .totalWriteBytes(result.fileSizeBytes())
        .partitionPath(partition)
        .fileSizeInBytes(result.fileSizeBytes())
        .build());
  }

  static void abortQuietly(BaseFileWriter writer, RuntimeException primary) {
    try {
      writer.abort();
    } catch (RuntimeException e) {
      primary.addSuppressed(e);
    }
  }
}
