package io.riverbed.format.write.batch;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.FileGroupPacker;
import io.riverbed.format.write.TableWriter;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.commit.CommitMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Serializable;
import java.util.Iterator;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * One task of a batch write: writes the changes routed to it into file groups with the core's
 * {@link TableWriter} and returns its {@link CommitMessage}. A change already located (its key's
 * file group, from the index lookup) goes to that group; a new key goes where {@link FileGroupPacker}
 * places it among the small file groups this task owns ({@link Placement}); a delete of a key the
 * table does not hold is dropped. {@link #taskOf} routes changes so that every change of one file group reaches the
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

    /** Writes the routed change in its binary form (file id, then the {@link EncodedChange#writeTo change}). */
    public void writeTo(DataOutput out) throws IOException {
      EncodedChange.writeString(out, fileId);
      change.writeTo(out);
    }

    /** Reads a routed change {@link #writeTo} wrote. */
    public static Routed readFrom(DataInput in) throws IOException {
      String fileId = EncodedChange.readString(in);
      return new Routed(EncodedChange.readFrom(in), fileId);
    }

    /** The binary form as an array, for an engine to keep the changes between two passes. */
    public byte[] toBytes() {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + (int) change.size());
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        writeTo(out);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return bytes.toByteArray();
    }

    public static Routed fromBytes(byte[] bytes) {
      try {
        return readFrom(new DataInputStream(new ByteArrayInputStream(bytes)));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read a routed change from its " + bytes.length + " bytes", e);
      }
    }
  }

  /** Where a task writes the keys the table does not hold yet. */
  public enum Placement {
    /**
     * Insert and upsert, as Hudi 0.15's Spark writer with an index that cannot index log files
     * places them: new keys in base files, small file groups first (COPY_ON_WRITE: every small one;
     * MERGE_ON_READ: the {@link BatchWriteOptions#smallFileGroupCandidates} smallest base-only ones of
     * a partition, rewritten with their updates), then new file groups; updates of other groups as the
     * table's type writes them (MERGE_ON_READ: logs).
     */
    UPSERT,
    /** In base files whatever the table type, small base-only file groups first (bulk insert). */
    BASE_FILES,
    /** In base files of new file groups only: the overwrite operations, whose old file groups are replaced. */
    NEW_FILE_GROUPS;

    /** The placement of an operation's new keys, as Hudi 0.15's Spark writer places them. */
    public static Placement of(WriteOperationType operation) {
      return switch (operation) {
        case BULK_INSERT -> BASE_FILES;
        case INSERT_OVERWRITE, INSERT_OVERWRITE_TABLE -> NEW_FILE_GROUPS;
        default -> UPSERT;
      };
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
   * {@code routed} bound for the file group {@code plan} gives it if it is a new key; as it is if
   * its key is located; null for a delete of a key the table does not hold (nothing to write).
   */
  public static Routed placed(Routed routed, InsertBuckets plan) {
    if (routed.fileId() != null) {
      return routed;
    }
    EncodedChange change = routed.change();
    return change.isDelete() ? null : new Routed(change, plan.fileIdOf(change.partitionPath(), change.recordKey()));
  }

  /**
   * Writes one task's changes into {@code instant}, with new keys placed as
   * {@link Placement#of}{@code (options.operation())} says.
   *
   * @param schema the write schema the changes' records are in (no meta fields)
   */
  public static CommitMessage write(Table table, Schema schema, BatchWriteOptions options, String instant, int task,
      int parallelism, int attempt, Iterator<Routed> changes) {
    return write(table, schema, options, instant, task, parallelism, attempt, null, changes);
  }

  /**
   * As {@link #write(Table, Schema, BatchWriteOptions, String, int, int, int, Iterator)}, for an
   * insert or upsert whose new keys {@code plan} placed ({@link #placed}): every change arrives with
   * its file group, and the groups the plan gives new keys are written as base files.
   *
   * @param plan null to place new keys in this task ({@link FileGroupPacker})
   */
  public static CommitMessage write(Table table, Schema schema, BatchWriteOptions options, String instant, int task,
      int parallelism, int attempt, InsertBuckets plan, Iterator<Routed> changes) {
    WriteOptions write = options.write();
    Placement placement = Placement.of(options.operation());
    if (plan != null && placement != Placement.UPSERT) {
      throw new IllegalArgumentException("a " + options.operation() + " places its new keys itself, not by an insert plan");
    }
    EncodedChange.Codec codec = new EncodedChange.Codec(schema);
    TableWriter.Builder<EncodedChange> builder = TableWriter.<EncodedChange>builder(table, schema, write)
        .task(task, parallelism, attempt)
        .bufferLimitBytes(BUFFER_LIMIT_BYTES);
    FileGroupPacker packer = switch (placement) {
      case UPSERT -> table.type() == TableType.MERGE_ON_READ
          ? FileGroupPacker.ofSmallestBaseFiles(() -> table, write, task, parallelism, options.smallFileGroupCandidates())
          : FileGroupPacker.of(() -> table, write, task, parallelism);
      case BASE_FILES -> FileGroupPacker.ofBaseFiles(() -> table, write, task, parallelism);
      case NEW_FILE_GROUPS -> FileGroupPacker.ofBaseFiles(() -> null, write, task, parallelism);
    };
    TableWriter<EncodedChange> writer = (placement == Placement.UPSERT
        ? builder.baseFilesFor(plan != null ? plan::tookNewKeys : packer::tookNewKeys) : builder.baseFiles())
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
