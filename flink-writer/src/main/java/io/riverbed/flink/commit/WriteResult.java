package io.riverbed.flink.commit;

import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.KafkaOffsets;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.commit.CommitMessage;
import io.riverbed.format.write.commit.TableCommitter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * What one writer subtask wrote for one instant between two of its checkpoints: the core's
 * {@link CommitMessage}, tagged with the checkpoint that carried it. Immutable; travels in operator
 * events and in checkpointed state.
 *
 * @param checkpointId the checkpoint whose snapshot flushed and reported the files
 * @param message the subtask's commit message (stats, stale records, Kafka offsets) for the instant
 */
public record WriteResult(long checkpointId, CommitMessage message) implements Serializable {
  private static final long serialVersionUID = 2L;

  /** extraMetadata key of a commit: changes dropped because their key's stored write or delete was newer. */
  public static final String STALE_RECORDS_KEY = TableCommitter.STALE_RECORDS_KEY;

  /**
   * The first {@code int} of the current byte form. The first form began with the subtask index
   * (never negative), so both stay readable from older checkpoints.
   */
  private static final int FORMAT_2 = -2;

  public WriteResult {
    Objects.requireNonNull(message, "message");
  }

  /** The result of {@code subtask}'s epoch that checkpoint {@code checkpointId} ended. */
  public static WriteResult of(int subtask, long checkpointId, String instant, List<WriteStat> stats, long staleRecords,
      KafkaOffsets kafkaOffsets) {
    return of(subtask, checkpointId, instant, stats, staleRecords, kafkaOffsets, Optional.empty());
  }

  /** As above, of files written in {@code writtenSchema} (a writer that added columns), if given. */
  public static WriteResult of(int subtask, long checkpointId, String instant, List<WriteStat> stats, long staleRecords,
      KafkaOffsets kafkaOffsets, Optional<Schema> writtenSchema) {
    return new WriteResult(checkpointId, new CommitMessage(subtask, instant, stats, staleRecords,
        Optional.ofNullable(kafkaOffsets), writtenSchema));
  }

  /** The writer subtask that wrote the files. */
  public int subtask() {
    return message.taskId();
  }

  /** The instant the files belong to. */
  public String instant() {
    return message.instantTime();
  }

  public List<WriteStat> stats() {
    return message.writeStats();
  }

  /** Changes this subtask dropped as stale in the epoch of this result. */
  public long staleRecords() {
    return message.staleRecords();
  }

  /** The Kafka offsets consumed up to this result's checkpoint, if this subtask received them. */
  public Optional<KafkaOffsets> kafkaOffsets() {
    return message.kafkaOffsets();
  }

  /** The identity of a result: a subtask reports once per checkpoint and instant. */
  String id() {
    return instant() + "/" + subtask() + "/" + checkpointId;
  }

  /** The byte form the writer keeps in its operator state ({@link #write}). */
  public byte[] toBytes() {
    var bytes = new ByteArrayOutputStream();
    try (var out = new DataOutputStream(bytes)) {
      write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** {@code int} -2, {@code long} checkpoint id, {@code int} length and the {@link CommitMessage#toBytes()} bytes. */
  void write(DataOutputStream out) throws IOException {
    byte[] bytes = message.toBytes();
    out.writeInt(FORMAT_2);
    out.writeLong(checkpointId);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  /** Reads {@link #write}'s form, or the first form (subtask, checkpoint, instant, commit-metadata JSON). */
  static WriteResult read(DataInputStream in) throws IOException {
    int first = in.readInt();
    if (first == FORMAT_2) {
      long checkpointId = in.readLong();
      byte[] bytes = new byte[in.readInt()];
      in.readFully(bytes);
      return new WriteResult(checkpointId, CommitMessage.fromBytes(bytes));
    }
    if (first < 0) {
      throw new IOException("unknown write result format " + first);
    }
    long checkpointId = in.readLong();
    String instant = in.readUTF();
    byte[] json = new byte[in.readInt()];
    in.readFully(json);
    CommitMetadata metadata = CommitMetadata.fromJson(json, "write result of subtask " + first + " for instant "
        + instant + " at checkpoint " + checkpointId);
    var extra = metadata.extraMetadata();
    return of(first, checkpointId, instant, metadata.writeStats(),
        Long.parseLong(extra.getOrDefault(STALE_RECORDS_KEY, "0")),
        Optional.ofNullable(extra.get(KafkaOffsets.KEY)).map(KafkaOffsets::parse).orElse(null));
  }

  /** Reads {@link #toBytes}'s form, or the first form of older checkpoints. */
  public static WriteResult fromBytes(byte[] bytes) {
    try (var in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      return read(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
