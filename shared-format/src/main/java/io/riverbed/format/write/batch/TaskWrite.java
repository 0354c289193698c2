package io.riverbed.format.write.batch;

import io.riverbed.format.table.Table;
import io.riverbed.format.write.FileGroupPacker;
import io.riverbed.format.write.TableWriter;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.commit.CommitMessage;
import java.io.Serializable;
import java.util.Iterator;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * One task of a batch write: writes the changes routed to it into file groups with the core's
 * {@link TableWriter} and returns its {@link CommitMessage}. A change already located (its key's
 * file group, from the index lookup) goes to that group; a new key goes where {@link FileGroupPacker}
 * places it among the small file groups this task owns; a delete of a key the table does not hold
 * is dropped. {@link #taskOf} routes changes so that every change of one file group reaches the
 * same task: a located change by its file id, as the packer assigns small groups to tasks.
 */
public final class TaskWrite {
  /** Bytes of changes a task buffers before it writes its largest file group. */
  static final long BUFFER_LIMIT_BYTES = 128L * 1024 * 1024;

  /**
   * A change and the file group its key lives in (null: a key the table does not hold). A class,
   * not a record, for Spark's Kryo serializer (see {@link EncodedChange}).
   */
  public static final class Routed implements Serializable {
    private static final long serialVersionUID = 1L;
    private final EncodedChange change;
    private final String fileId;

    public Routed(EncodedChange change, String fileId) {
      this.change = change;
      this.fileId = fileId;
    }

    public EncodedChange change() {
      return change;
    }

    public String fileId() {
      return fileId;
    }
  }

  private TaskWrite() {}

  /** The task, of {@code parallelism}, that writes {@code routed}. */
  public static int taskOf(Routed routed, int parallelism) {
    String fileId = routed.fileId();
    int hash = fileId != null ? fileId.hashCode()
        : (routed.change().partitionPath() + '\u0000' + routed.change().recordKey()).hashCode();
    return Math.floorMod(hash, parallelism);
  }

  /**
   * Writes one task's changes into {@code instant}.
   *
   * @param schema the write schema the changes' records are in (no meta fields)
   * @param baseFiles write new keys into base files whatever the table type (bulk insert)
   */
  public static CommitMessage write(Table table, Schema schema, WriteOptions options, boolean baseFiles, String instant,
      int task, int parallelism, int attempt, Iterator<Routed> changes) {
    EncodedChange.Codec codec = new EncodedChange.Codec(schema);
    TableWriter.Builder<EncodedChange> builder = TableWriter.<EncodedChange>builder(table, schema, options)
        .task(task, parallelism, attempt)
        .bufferLimitBytes(BUFFER_LIMIT_BYTES);
    FileGroupPacker packer = baseFiles ? FileGroupPacker.ofBaseFiles(() -> table, options, task, parallelism)
        : FileGroupPacker.of(() -> table, options, task, parallelism);
    TableWriter<EncodedChange> writer = (baseFiles ? builder.baseFiles() : builder)
        .build(() -> instant, (change, partition) -> codec.decode(change));
    while (changes.hasNext()) {
      Routed next = changes.next();
      EncodedChange change = next.change();
      String fileId = next.fileId();
      if (fileId == null) {
        if (change.isDelete()) {
          continue;
        }
        fileId = packer.assign(change.partitionPath());
      }
      writer.write(change.partitionPath(), fileId, change, change.size());
    }
    TableWriter.Prepared prepared = writer.prepareCommit();
    return new CommitMessage(task, instant, prepared.writeStats(), prepared.staleRecords(), Optional.empty());
  }
}
