package io.riverbed.flink;

import io.riverbed.format.timeline.CommitMetadata;
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
 * @param statsJson {@code HoodieCommitMetadata} JSON holding only the write stats
 */
public record WriteResult(int subtask, long checkpointId, String instant, byte[] statsJson) implements Serializable {
  private static final long serialVersionUID = 1L;

  static WriteResult of(int subtask, long checkpointId, String instant, List<WriteStat> stats) {
    byte[] json = CommitMetadata.builder(WriteOperationType.UNKNOWN).addWriteStats(stats).build().toJsonBytes();
    return new WriteResult(subtask, checkpointId, instant, json);
  }

  public List<WriteStat> stats() {
    return CommitMetadata.fromJson(statsJson, "write result of subtask " + subtask + " for instant " + instant
        + " at checkpoint " + checkpointId).writeStats();
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
