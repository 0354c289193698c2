package io.riverbed.flink;

import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.KafkaOffsets;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What one writer subtask wrote for one instant between two of its checkpoints: the stats of its
 * files (Hudi's commit-metadata JSON, so the bytes are the format's own), tagged with the checkpoint
 * that carried them. Immutable; travels in operator events and in checkpointed state.
 *
 * @param subtask the writer subtask that wrote the files
 * @param checkpointId the checkpoint whose snapshot flushed and reported them
 * @param instant the instant the files belong to
 * @param statsJson {@code HoodieCommitMetadata} JSON holding the write stats, and in its
 *     extraMetadata the number of changes dropped as stale ({@value #STALE_RECORDS_KEY}) when not 0
 *     and the Kafka offsets consumed up to the checkpoint ({@link KafkaOffsets#KEY}) when known
 */
public record WriteResult(int subtask, long checkpointId, String instant, byte[] statsJson) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** extraMetadata key of a commit: changes dropped because their key's stored write or delete was newer. */
  static final String STALE_RECORDS_KEY = "riverbed.write.stale.records";

  static WriteResult of(int subtask, long checkpointId, String instant, List<WriteStat> stats, long staleRecords,
      KafkaOffsets kafkaOffsets) {
    var metadata = CommitMetadata.builder(WriteOperationType.UNKNOWN).addWriteStats(stats);
    if (staleRecords != 0) {
      metadata.extraMetadata(STALE_RECORDS_KEY, Long.toString(staleRecords));
    }
    if (kafkaOffsets != null) {
      metadata.extraMetadata(KafkaOffsets.KEY, kafkaOffsets.format());
    }
    return new WriteResult(subtask, checkpointId, instant, metadata.build().toJsonBytes());
  }

  public List<WriteStat> stats() {
    return metadata().writeStats();
  }

  /** Changes this subtask dropped as stale in the epoch of this result. */
  public long staleRecords() {
    return Long.parseLong(metadata().extraMetadata().getOrDefault(STALE_RECORDS_KEY, "0"));
  }

  /** The Kafka offsets consumed up to this result's checkpoint, if this subtask received them. */
  public java.util.Optional<KafkaOffsets> kafkaOffsets() {
    return java.util.Optional.ofNullable(metadata().extraMetadata().get(KafkaOffsets.KEY)).map(KafkaOffsets::parse);
  }

  private CommitMetadata metadata() {
    return CommitMetadata.fromJson(statsJson, "write result of subtask " + subtask + " for instant " + instant
        + " at checkpoint " + checkpointId);
  }

  /** The identity of a result: a subtask reports once per checkpoint and instant. */
  String id() {
    return instant + "/" + subtask + "/" + checkpointId;
  }

  byte[] toBytes() {
    var bytes = new ByteArrayOutputStream();
    try (var out = new DataOutputStream(bytes)) {
      write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  void write(DataOutputStream out) throws IOException {
    out.writeInt(subtask);
    out.writeLong(checkpointId);
    out.writeUTF(instant);
    out.writeInt(statsJson.length);
    out.write(statsJson);
  }

  static WriteResult read(DataInputStream in) throws IOException {
    int subtask = in.readInt();
    long checkpointId = in.readLong();
    String instant = in.readUTF();
    byte[] json = new byte[in.readInt()];
    in.readFully(json);
    return new WriteResult(subtask, checkpointId, instant, json);
  }

  static WriteResult fromBytes(byte[] bytes) {
    try (var in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      return read(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
