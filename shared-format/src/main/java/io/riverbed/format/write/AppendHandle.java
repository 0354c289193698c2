package io.riverbed.format.write;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.TableException;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.log.AvroDataBlock;
import io.riverbed.format.log.DeleteBlock;
import io.riverbed.format.log.DeleteRecord;
import io.riverbed.format.log.LogFileWriter;
import io.riverbed.format.record.AvroBinaryRecord;
import io.riverbed.format.timeline.WriteStat;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one batch of changes to a MERGE_ON_READ file group as a new log file version of its
 * latest slice (storage without append: every write is a new file): one Avro data block with the
 * upserts and, if there are deletes, one delete block. The slice is the one a pending compaction
 * opened if there is one; a new file group's first slice is keyed by the writing instant. On a
 * version 6 table the log file is named by the slice's base instant; on version 8 by the writing
 * delta commit, as Hudi 1.x names it (readers place it by that commit's completion time). The
 * version is one above the highest on storage for that name; if another writer of the table (a
 * Flink task and a Spark task may share a write token) created that file meanwhile, the next
 * version is taken.
 */
public final class AppendHandle {
  private static final Logger LOG = LoggerFactory.getLogger(AppendHandle.class);
  /** How many log versions a write skips, taken by concurrent writers between its listing and its create, before failing. */
  private static final int MAX_VERSIONS_SKIPPED = 100;

  private final WriteTaskContext context;
  private final FileGroupId fileGroupId;
  private final FileSlice latestSlice;

  private AppendHandle(WriteTaskContext context, FileGroupId fileGroupId, FileSlice latestSlice) {
    this.context = context;
    this.fileGroupId = fileGroupId;
    this.latestSlice = latestSlice;
  }

  /**
   * A handle for {@code fileGroupId}.
   *
   * @param latestSlice the group's latest committed slice for writing
   *     ({@link io.riverbed.format.file.FileSystemView#latestSliceForWrite}); empty for a new file group
   */
  public static AppendHandle of(WriteTaskContext context, FileGroupId fileGroupId, Optional<FileSlice> latestSlice) {
    Objects.requireNonNull(fileGroupId, "fileGroupId");
    return new AppendHandle(context, fileGroupId, latestSlice.orElse(null));
  }

  /** True if this handle creates the file group (its first slice is keyed by the writing instant). */
  public boolean isNewFileGroup() {
    return latestSlice == null;
  }

  /** The base instant of the slice the log file goes to. */
  public String baseInstant() {
    return latestSlice == null ? context.instantTime() : latestSlice.baseInstant();
  }

  /**
   * The instant the log file's name carries: the slice's base instant, or the writing instant on a
   * table whose log files are named by their delta commit (version 8).
   */
  public String logFileInstant() {
    return context.table().config().logFilesNamedByDeltaCommit() ? context.instantTime() : baseInstant();
  }

  /**
   * Writes the batch (precombined first) as a new log file.
   *
   * @return the delta write stat; empty if the batch is empty
   * @throws InvalidRecordException if a change belongs to another partition
   */
  public Optional<WriteStat> append(List<WriteRecord> batch) {
    return append(batch, -1);
  }

  /**
   * As {@link #append(List)}, with the highest version of the slice's log files named by
   * {@link #logFileInstant()} on storage already known to the caller (from its listing of the partition, and its own writes since), so the
   * partition is not listed again; 0 if there is none. A version another writer took meanwhile is
   * skipped as in {@link #append(List)}.
   */
  public Optional<WriteStat> append(List<WriteRecord> batch, int highestVersionOnStorage) {
    List<WriteRecord> changes = BatchPrecombiner.precombine(batch);
    if (changes.isEmpty()) {
      return Optional.empty();
    }
    String partition = fileGroupId.partitionPath();
    String instant = context.instantTime();
    List<DeleteRecord> deletes = new ArrayList<>();
    List<WriteRecord> upserts = new ArrayList<>(changes.size());
    for (WriteRecord change : changes) {
      requirePartition(change);
      if (change.isDelete()) {
        deletes.add(new DeleteRecord(change.recordKey(), partition, change.orderingValue()));
      } else {
        upserts.add(change);
      }
    }
    DataRecords records = dataRecords(upserts);
    String baseInstant = baseInstant();
    List<String> sliceLogs = new ArrayList<>();
    if (latestSlice != null) {
      latestSlice.logFiles().forEach(l -> sliceLogs.add(l.fileName()));
    }
    String nameInstant = logFileInstant();
    int version = highestVersionOnStorage >= 0 ? Math.max(highestVersionOnStorage + 1, FileNames.FIRST_LOG_VERSION)
        : nextLogVersion(nameInstant);
    String fileName;
    Path path;
    LogFileWriter writer;
    for (int skipped = 0; ; skipped++, version++) {
      fileName = FileNames.logFileName(fileGroupId.fileId(), nameInstant, version, context.writeToken());
      context.prepareFile(partition, fileName, Markers.Type.APPEND);
      path = new Path(context.table().partitionPath(partition), fileName);
      Optional<LogFileWriter> created = LogFileWriter.createIfAbsent(context.table().fs(), path);
      if (created.isPresent()) {
        writer = created.get();
        break;
      }
      if (skipped >= MAX_VERSIONS_SKIPPED) {
        throw new TableException("cannot create a log file for file group " + fileGroupId + " of table "
            + context.table().basePath() + " at instant " + instant + ": versions up to " + fileName
            + " were all taken by other writers meanwhile");
      }
      LOG.info("Log file {} was created by another writer meanwhile; instant {} takes the next version", path, instant);
    }
    long size = write(writer, records, deletes);
    sliceLogs.add(fileName);
    boolean created = latestSlice == null;
    WriteStat stat = WriteStat.builder()
        .fileId(fileGroupId.fileId())
        .path(WriteTaskContext.relativePath(partition, fileName))
        .prevCommit(created ? WriteStat.NULL_COMMIT : baseInstant)
        .numWrites(records.size())
        .numDeletes(deletes.size())
        .numInserts(created ? records.size() : 0)
        .numUpdateWrites(created ? 0 : records.size())
        .totalWriteBytes(size)
        .partitionPath(partition)
        .fileSizeInBytes(size)
        .delta(version, 0, latestSlice == null ? "" : latestSlice.baseFile().map(b -> b.fileName()).orElse(""),
            sliceLogs)
        .build();
    LOG.debug("Appended {} records and {} deletes to {} ({} bytes)", records.size(), deletes.size(), path, size);
    return Optional.of(stat);
  }

  /**
   * The upserts as records of the writer schema: encoded straight from their bytes when every one is
   * an {@link AvroBinaryRecord} of the table schema (no field decoded), else as Avro records.
   */
  private DataRecords dataRecords(List<WriteRecord> upserts) {
    String instant = context.instantTime();
    String partition = fileGroupId.partitionPath();
    Schema writerSchema = context.writerSchema();
    if (allEncodedAsWriterSchema(upserts, writerSchema)) {
      var encoding = new MetaRecords.Encoding();
      List<byte[]> encoded = new ArrayList<>(upserts.size());
      for (WriteRecord change : upserts) {
        encoded.add(MetaRecords.encodeWithMetaFields(encoding, instant, context.nextSequenceNumber(),
            change.recordKey(), partition, fileGroupId.fileId(), (AvroBinaryRecord) change.data()));
      }
      return new DataRecords(null, encoded);
    }
    List<GenericRecord> records = new ArrayList<>(upserts.size());
    for (WriteRecord change : upserts) {
      records.add(MetaRecords.withMetaFields(writerSchema, change.data(), instant,
          context.nextSequenceNumber(), change.recordKey(), partition, fileGroupId.fileId()));
    }
    return new DataRecords(records, null);
  }

  private static boolean allEncodedAsWriterSchema(List<WriteRecord> upserts, Schema writerSchema) {
    Schema matching = null;
    for (WriteRecord change : upserts) {
      if (!(change.data() instanceof AvroBinaryRecord encoded)) {
        return false;
      }
      Schema schema = encoded.getSchema();
      if (schema != matching) {
        if (!MetaRecords.encodesAsWriterSchema(writerSchema, schema)) {
          return false;
        }
        matching = schema;
      }
    }
    return true;
  }

  /** The data block's records: Avro records, or their encodings. */
  private record DataRecords(List<GenericRecord> records, List<byte[]> encoded) {
    int size() {
      return records != null ? records.size() : encoded.size();
    }

    boolean isEmpty() {
      return size() == 0;
    }

    AvroDataBlock block(String instantTime, Schema writerSchema) {
      return records != null ? AvroDataBlock.of(instantTime, writerSchema, records)
          : AvroDataBlock.ofEncoded(instantTime, writerSchema, encoded);
    }
  }

  private long write(LogFileWriter writer, DataRecords records, List<DeleteRecord> deletes) {
    try {
      if (!records.isEmpty()) {
        writer.append(records.block(context.instantTime(), context.writerSchema()));
      }
      if (!deletes.isEmpty()) {
        writer.append(DeleteBlock.of(context.instantTime(), context.writerSchema(), deletes));
      }
      return writer.close();
    } finally {
      writer.abort();
    }
  }

  /** One more than the highest version of the group's log files named by {@code nameInstant} on storage (committed or not). */
  private int nextLogVersion(String nameInstant) {
    Path folder = context.table().partitionPath(fileGroupId.partitionPath());
    int max = 0;
    try {
      for (FileStatus st : context.table().fs().listStatus(folder)) {
        Optional<LogFile> log = LogFile.of(st.getPath(), st.getLen());
        if (log.isPresent() && log.get().fileId().equals(fileGroupId.fileId())
            && log.get().baseInstant().equals(nameInstant)) {
          max = Math.max(max, log.get().version());
        }
      }
    } catch (FileNotFoundException e) {
      return FileNames.FIRST_LOG_VERSION;
    } catch (IOException e) {
      throw new TableException("cannot list partition " + folder + " to version a log file of file group "
          + fileGroupId + " for instant " + context.instantTime(), e);
    }
    return Math.max(max + 1, FileNames.FIRST_LOG_VERSION);
  }

  private void requirePartition(WriteRecord change) {
    if (!change.partitionPath().equals(fileGroupId.partitionPath())) {
      throw new InvalidRecordException("record key '" + change.recordKey() + "' of partition '"
          + change.partitionPath() + "' cannot be written to file group " + fileGroupId + " of table "
          + context.table().basePath() + " at instant " + context.instantTime());
    }
  }
}
