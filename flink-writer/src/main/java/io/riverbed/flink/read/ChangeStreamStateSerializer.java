package io.riverbed.flink.read;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Writes a streaming read's {@link ChangeStreamState} into checkpoints. */
final class ChangeStreamStateSerializer implements SimpleVersionedSerializer<ChangeStreamState> {
  static final ChangeStreamStateSerializer INSTANCE = new ChangeStreamStateSerializer();

  @Override
  public int getVersion() {
    return FileSliceSplitSerializer.INSTANCE.getVersion();
  }

  @Override
  public byte[] serialize(ChangeStreamState state) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(1024);
    out.writeBoolean(state.position() != null);
    if (state.position() != null) {
      out.writeUTF(state.position());
    }
    out.writeInt(state.unassigned().size());
    for (FileSliceSplit split : state.unassigned()) {
      FileSliceSplitSerializer.write(split, out);
    }
    out.writeInt(state.unfinished().size());
    for (Map.Entry<String, String> e : state.unfinished().entrySet()) {
      out.writeUTF(e.getKey());
      out.writeUTF(e.getValue());
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public ChangeStreamState deserialize(int version, byte[] serialized) throws IOException {
    FileSliceSplitSerializer.requireVersion(version);
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    String position = in.readBoolean() ? in.readUTF() : null;
    int n = in.readInt();
    List<FileSliceSplit> splits = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      splits.add(FileSliceSplitSerializer.read(in));
    }
    int m = in.readInt();
    Map<String, String> unfinished = new HashMap<>(m);
    for (int i = 0; i < m; i++) {
      unfinished.put(in.readUTF(), in.readUTF());
    }
    return new ChangeStreamState(position, splits, unfinished);
  }
}
