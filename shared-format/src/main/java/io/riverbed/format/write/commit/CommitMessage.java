package io.riverbed.format.write.commit;

import io.riverbed.format.TableException;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.KafkaOffsets;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * What one write task wrote for one instant: the stats of its files, and what the task adds to the
 * commit's metadata (changes it dropped as stale, the Kafka offsets it consumed). The unit an
 * engine ships from its tasks to the {@link TableCommitter} and keeps in its checkpoints, always in
 * the one byte form of {@link #toBytes()} (which is also its Java serialized form).
 *
 * @param taskId the writer task (Flink: subtask index) that wrote the files
 * @param instantTime the instant the files belong to
 * @param writeStats one stat per file written (Hudi's {@code HoodieWriteStat})
 * @param staleRecords changes dropped because their key's stored write or delete was newer
 * @param kafkaOffsets the Kafka offsets consumed up to the point this message was made, if the task knows them
 * @param writtenSchema the schema (no meta fields) the task wrote its files in, when it may differ from the
 *     committer's: a task that added columns met in its input; the commit records the union
 *     ({@link io.riverbed.format.record.SchemaEvolution#union})
 */
public record CommitMessage(int taskId, String instantTime, List<WriteStat> writeStats, long staleRecords,
    Optional<KafkaOffsets> kafkaOffsets, Optional<Schema> writtenSchema) implements Serializable {

  /** The first byte of {@link #toBytes()}: the version of the layout. */
  static final byte FORMAT_VERSION = 2;
  /** The layout before the written schema, still read from older checkpoints. */
  private static final byte FORMAT_VERSION_1 = 1;

  public CommitMessage {
    Objects.requireNonNull(instantTime, "instantTime");
    writeStats = List.copyOf(writeStats);
    kafkaOffsets = Objects.requireNonNullElse(kafkaOffsets, Optional.empty());
    writtenSchema = Objects.requireNonNullElse(writtenSchema, Optional.empty());
    if (staleRecords < 0) {
      throw new IllegalArgumentException("staleRecords < 0: " + staleRecords);
    }
  }

  /** A message of files written in the committer's schema. */
  public CommitMessage(int taskId, String instantTime, List<WriteStat> writeStats, long staleRecords,
      Optional<KafkaOffsets> kafkaOffsets) {
    this(taskId, instantTime, writeStats, staleRecords, kafkaOffsets, Optional.empty());
  }

  /** A message without stale records or Kafka offsets. */
  public static CommitMessage of(int taskId, String instantTime, List<WriteStat> writeStats) {
    return new CommitMessage(taskId, instantTime, writeStats, 0, Optional.empty());
  }

  /**
   * The message as bytes, big-endian: {@code byte} version (2), {@code int} task id, string instant
   * time, {@code long} stale records, string Kafka offsets ({@link KafkaOffsets#format()}, empty
   * when absent), the write stats as {@code HoodieCommitMetadata} JSON (the format's own field
   * names), then the written schema's JSON (empty when absent); each string and the JSON as an
   * {@code int} byte length and UTF-8 bytes. Version 1 ended after the write stats.
   */
  public byte[] toBytes() {
    var bytes = new ByteArrayOutputStream();
    try (var out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT_VERSION);
      out.writeInt(taskId);
      writeString(out, instantTime);
      out.writeLong(staleRecords);
      writeString(out, kafkaOffsets.map(KafkaOffsets::format).orElse(""));
      byte[] json = CommitMetadata.builder(WriteOperationType.UNKNOWN).addWriteStats(writeStats).build().toJsonBytes();
      out.writeInt(json.length);
      out.write(json);
      writeString(out, writtenSchema.map(Schema::toString).orElse(""));
    } catch (IOException e) {
      throw new TableException("cannot serialize the commit message of task " + taskId + " for instant " + instantTime, e);
    }
    return bytes.toByteArray();
  }

  /**
   * Reads {@link #toBytes()}'s bytes.
   *
   * @throws TableException if they are not a commit message of a known version
   */
  public static CommitMessage fromBytes(byte[] bytes) {
    try (var in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      byte version = in.readByte();
      if (version != FORMAT_VERSION && version != FORMAT_VERSION_1) {
        throw new TableException("commit message format version " + version + " is not supported (expected "
            + FORMAT_VERSION_1 + " or " + FORMAT_VERSION + ")");
      }
      int taskId = in.readInt();
      String instant = readString(in);
      long stale = in.readLong();
      String offsets = readString(in);
      byte[] json = new byte[in.readInt()];
      in.readFully(json);
      String schema = version == FORMAT_VERSION_1 ? "" : readString(in);
      if (in.read() != -1) {
        throw new TableException("commit message of task " + taskId + " for instant " + instant
            + " has bytes after its end");
      }
      List<WriteStat> stats = CommitMetadata.fromJson(json, "commit message of task " + taskId + " for instant "
          + instant).writeStats();
      return new CommitMessage(taskId, instant, stats, stale,
          offsets.isEmpty() ? Optional.empty() : Optional.of(KafkaOffsets.parse(offsets)),
          schema.isEmpty() ? Optional.empty() : Optional.of(new Schema.Parser().parse(schema)));
    } catch (IOException e) {
      throw new TableException("cannot read a commit message of " + bytes.length + " bytes: it is truncated", e);
    }
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String readString(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0) {
      throw new IOException("negative string length " + length);
    }
    byte[] b = new byte[length];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  // Java serialization goes through the byte form, so there is one codec.
  @Serial
  private Object writeReplace() {
    return new SerializedForm(toBytes());
  }

  private record SerializedForm(byte[] bytes) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    @Serial
    private Object readResolve() {
      return fromBytes(bytes);
    }
  }
}
