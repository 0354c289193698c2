package io.riverbed.flink.read;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Writes the enumerator's {@link PendingSplits} into checkpoints. */
public final class PendingSplitsSerializer implements SimpleVersionedSerializer<PendingSplits> {
  public static final PendingSplitsSerializer INSTANCE = new PendingSplitsSerializer();

  @Override
  public int getVersion() {
    return FileSliceSplitSerializer.INSTANCE.getVersion();
  }

  @Override
  public byte[] serialize(PendingSplits state) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(1024);
    out.writeBoolean(state.planned());
    out.writeInt(state.unassigned().size());
    for (FileSliceSplit split : state.unassigned()) {
      FileSliceSplitSerializer.write(split, out);
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public PendingSplits deserialize(int version, byte[] serialized) throws IOException {
    FileSliceSplitSerializer.requireVersion(version);
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    boolean planned = in.readBoolean();
    int n = in.readInt();
    List<FileSliceSplit> splits = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      splits.add(FileSliceSplitSerializer.read(in));
    }
    return new PendingSplits(planned, splits);
  }
}
