package io.riverbed.format.write;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.TableException;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.base.BaseFileRows;
import io.riverbed.format.base.BaseFileWriter;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.timeline.WriteStat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.hadoop.conf.Configuration;
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
 *
 * A stored row written unchanged is copied as the Parquet values it was read with when the base
 * file has the new file's columns ({@link BaseFileRows}), the same bytes as its Avro record would
 * give; only the rows the batch replaces become records. Other base files (nested columns, a
 * schema that evolved since) are read as Avro records in the writer schema.
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
    String fileName = FileNames.baseFileName(currentSlice.fileId(), context.writeToken(), context.instantTime());
    FileValues file = new FileValues(new Utf8(context.instantTime()), new Utf8(partition), new Utf8(fileName));
    context.prepareFile(partition, fileName, Markers.Type.MERGE);
    Path path = new Path(context.table().partitionPath(partition), fileName);
    var counts = new long[3]; // updates, deletes, inserts
    BaseFileWriter writer = BaseFileWriter.create(context.table().fs().getConf(), path, context.writerSchema(),
        context.options().baseFile());
    BaseFileWriter.Result result;
    try {
      try (StoredRows stored = StoredRows.open(context.table().fs().getConf(), currentBase.path(), writer,
          context.writerSchema())) {
        mergeStored(stored, changes, file, writer, counts);
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

  /**
   * Copies the stored rows the batch leaves alone (or whose stored version wins) and applies the
   * batch to the others.
   */
  private void mergeStored(StoredRows stored, Map<String, WriteRecord> changes, FileValues file, BaseFileWriter writer,
      long[] counts) {
    PayloadMergeRule rule = context.mergeRule();
    String orderingField = context.orderingField();
    boolean comparesStored = rule.comparesBaseOrdering(orderingField);
    while (stored.next()) {
      String key = stored.recordKey();
      if (key == null) {
        throw new TableException("record without " + MetaFields.RECORD_KEY + " in base file " + currentBase.path());
      }
      WriteRecord change = changes.remove(key);
      if (change == null) {
        stored.copy(key, writer);
      } else if (change.isDelete()) {
        counts[1]++;
      } else {
        GenericRecord incoming = withMeta(change, file);
        Comparable<?> persisted = comparesStored ? stored.orderingValue(orderingField, key) : null;
        switch (rule.outcomeWithBase(key, persisted, incoming, orderingField)) {
          case BASE -> stored.copy(key, writer);
          case LOG -> {
            writer.write(key, incoming);
            counts[0]++;
          }
          case DELETED -> counts[1]++;
        }
      }
    }
  }

  /**
   * The current base file's rows: as their Parquet values where the new file has the same columns
   * ({@link BaseFileRows}: a copied row is written as it was read), else as Avro records in the
   * writer schema.
   */
  private interface StoredRows extends AutoCloseable {
    static StoredRows open(Configuration conf, Path path, BaseFileWriter writer, Schema writerSchema) {
      Optional<BaseFileRows> rows = BaseFileRows.open(conf, path, writer.parquetSchema(), writerSchema,
          MetaFields.RECORD_KEY);
      return rows.isPresent() ? new ParquetValues(rows.get(), writerSchema)
          : new AvroRecords(BaseFileReader.recordsToRewrite(conf, path, writerSchema));
    }

    boolean next();

    /** The current row's record key; null when it has none. */
    String recordKey();

    /** The current row's ordering value as the payload rule reads it from a stored record. */
    Comparable<?> orderingValue(String orderingField, String recordKey);

    /** Writes the current row unchanged. */
    void copy(String recordKey, BaseFileWriter writer);

    @Override
    void close();
  }

  private record ParquetValues(BaseFileRows rows, Schema schema) implements StoredRows {
    @Override
    public boolean next() {
      return rows.next();
    }

    @Override
    public String recordKey() {
      return rows.recordKey();
    }

    @Override
    public Comparable<?> orderingValue(String orderingField, String recordKey) {
      Schema.Field field = schema.getField(orderingField);
      return field == null ? null : OrderingValues.ofStoredValue(field, rows.avroValue(orderingField), recordKey);
    }

    @Override
    public void copy(String recordKey, BaseFileWriter writer) {
      writer.copy(recordKey, rows);
    }

    @Override
    public void close() {
      rows.close();
    }
  }

  private static final class AvroRecords implements StoredRows {
    private final CloseableIterator<GenericRecord> records;
    private GenericRecord current;

    AvroRecords(CloseableIterator<GenericRecord> records) {
      this.records = records;
    }

    @Override
    public boolean next() {
      current = records.hasNext() ? records.next() : null;
      return current != null;
    }

    @Override
    public String recordKey() {
      Object key = current.get(MetaFields.RECORD_KEY);
      return key == null ? null : key.toString();
    }

    @Override
    public Comparable<?> orderingValue(String orderingField, String recordKey) {
      return OrderingValues.ofRecordForCombine(current, orderingField, recordKey);
    }

    @Override
    public void copy(String recordKey, BaseFileWriter writer) {
      writer.write(recordKey, current);
    }

    @Override
    public void close() {
      records.close();
    }
  }

  /** The meta values every record the merge writes of its own shares. */
  private record FileValues(Utf8 commitTime, Utf8 partitionPath, Utf8 fileName) {}

  private GenericRecord withMeta(WriteRecord change, FileValues file) {
    return MetaRecords.withMetaFields(context.writerSchema(), change.data(), file.commitTime(),
        context.nextSequenceNumber(), change.recordKey(), file.partitionPath(), file.fileName());
  }
}
