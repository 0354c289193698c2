package io.riverbed.flink.read;

import io.riverbed.format.TableException;
import io.riverbed.format.query.Split;
import io.riverbed.format.query.SplitCodec;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/** Writes {@link FileSliceSplit}s for assignment to readers and into checkpoints. */
public final class FileSliceSplitSerializer implements SimpleVersionedSerializer<FileSliceSplit> {
  public static final FileSliceSplitSerializer INSTANCE = new FileSliceSplitSerializer();
  private static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(FileSliceSplit split) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    write(split, out);
    return out.getCopyOfBuffer();
  }

  @Override
  public FileSliceSplit deserialize(int version, byte[] serialized) throws IOException {
    requireVersion(version);
    return read(new DataInputDeserializer(serialized));
  }

  static void requireVersion(int version) {
    if (version != VERSION) {
      throw new TableException("hudi source split state of version " + version + " cannot be read (this build reads "
          + VERSION + ")");
    }
  }

  static void write(FileSliceSplit split, DataOutputView out) throws IOException {
    out.writeUTF(split.splitId());
    out.writeLong(split.emittedRows());
    SplitCodec.writeSplit(split.split(), out);
    SplitCodec.writePlan(split.plan(), out);
  }

  static FileSliceSplit read(DataInputView in) throws IOException {
    String id = in.readUTF();
    long emitted = in.readLong();
    Split split = SplitCodec.readSplit(in, id);
    return new FileSliceSplit(id, split, SplitCodec.readPlan(in), emitted);
  }
}
