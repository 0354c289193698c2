package io.riverbed.format.testing;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.BatchPrecombiner;
import io.riverbed.format.write.FileGroupPacker;
import io.riverbed.format.write.TableWriter;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import io.riverbed.format.write.commit.CommitMessage;
import io.riverbed.format.write.commit.Committable;
import io.riverbed.format.write.commit.TableCommitter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * A single-task engine over the core's write path, for tests that need tables written the way the
 * engines write them: a key → file group map plays the engine's state index, {@link FileGroupPacker}
 * places new keys, the core's {@link TableWriter} writes the groups and {@link TableCommitter}
 * commits each write as one instant. Deletes of keys the map does not hold are dropped.
 */
public final class SingleTaskEngine {
  /** The writer id the engine's commits carry. */
  public static final String WRITER_ID = "single-task-engine";

  private final Table table;
  private final Schema schema;
  private final WriteOptions options;
  private final TableCommitter committer;
  private final Map<String, FileGroupId> index = new HashMap<>();
  private long identifier;

  public SingleTaskEngine(Table table, Schema schema, WriteOptions options) {
    this.table = table;
    this.schema = schema;
    this.options = options;
    this.committer = TableCommitter.of(table, WRITER_ID).schema(schema);
  }

  /** The engine's index: record key → file group. Tests may read and change it. */
  public Map<String, FileGroupId> index() {
    return index;
  }

  /** Writes {@code batch} as one committed instant of {@code operation}; its time. */
  public String write(WriteOperationType operation, List<WriteRecord> batch, Map<String, String> extraMetadata) {
    PendingWrite pending = writeUncommitted(operation, batch);
    pending.commit(extraMetadata);
    return pending.instantTime();
  }

  /**
   * Opens an instant and writes {@code batch} into it without committing: the files are on storage,
   * the instant is inflight, as a writer that crashed before its commit leaves them. A bulk insert
   * packs every key as new into base files; other operations look keys up in the index first.
   */
  public PendingWrite writeUncommitted(WriteOperationType operation, List<WriteRecord> batch) {
    committer.operationType(operation);
    String instant = committer.begin();
    boolean bulk = operation == WriteOperationType.BULK_INSERT;
    TableWriter.Builder<WriteRecord> builder = TableWriter.builder(table, schema, options);
    FileGroupPacker packer = bulk ? FileGroupPacker.ofBaseFiles(() -> table, options, 0, 1)
        : FileGroupPacker.of(() -> table, options, 0, 1);
    TableWriter<WriteRecord> writer = (bulk ? builder.baseFiles() : builder).build(() -> instant, (r, p) -> r);
    List<String> added = new ArrayList<>();
    for (WriteRecord r : BatchPrecombiner.precombine(batch)) {
      FileGroupId id = bulk ? null : index.get(r.recordKey());
      if (id == null && r.isDelete()) {
        continue;
      }
      if (id == null) {
        id = new FileGroupId(r.partitionPath(), packer.assign(r.partitionPath()));
        if (index.put(r.recordKey(), id) == null) {
          added.add(r.recordKey());
        }
      }
      writer.write(id.partitionPath(), id.fileId(), r, 0);
    }
    TableWriter.Prepared prepared = writer.prepareCommit();
    CommitMessage message = new CommitMessage(0, instant, prepared.writeStats(), prepared.staleRecords(),
        Optional.empty());
    return new PendingWrite(operation, instant, message, added);
  }

  /** A write on storage whose instant is not committed yet. */
  public final class PendingWrite {
    private final WriteOperationType operation;
    private final String instantTime;
    private final CommitMessage message;
    private final List<String> addedKeys;

    private PendingWrite(WriteOperationType operation, String instantTime, CommitMessage message,
        List<String> addedKeys) {
      this.operation = operation;
      this.instantTime = instantTime;
      this.message = message;
      this.addedKeys = addedKeys;
    }

    public String instantTime() {
      return instantTime;
    }

    /** Commits the write through the engine's committer. */
    public void commit(Map<String, String> extraMetadata) {
      committer.operationType(operation);
      committer.commit(new Committable(++identifier, instantTime, List.of(message), extraMetadata));
    }

    /** The writer died: the index entries this write added are lost with it; the instant stays pending. */
    public void abandon() {
      addedKeys.forEach(index::remove);
    }
  }
}
