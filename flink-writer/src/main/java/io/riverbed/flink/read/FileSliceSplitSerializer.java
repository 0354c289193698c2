package io.riverbed.flink.read;

import io.riverbed.format.TableException;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.query.Split;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.timeline.State;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.hadoop.fs.Path;

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
    Split s = split.split();
    FileSlice slice = s.slice();
    out.writeUTF(slice.partitionPath());
    out.writeUTF(slice.fileId());
    out.writeUTF(slice.baseInstant());
    writeOptional(out, slice.baseFile().map(b -> b.path().toString()));
    out.writeLong(slice.baseFile().map(BaseFile::length).orElse(0L));
    out.writeInt(slice.logFiles().size());
    for (LogFile log : slice.logFiles()) {
      out.writeUTF(log.path().toString());
      out.writeLong(log.length());
    }
    out.writeUTF(s.latestInstant());
    out.writeBoolean(s.range().isPresent());
    if (s.range().isPresent()) {
      InstantRange range = s.range().get();
      out.writeUTF(range.start());
      out.writeBoolean(range.startInclusive());
      writeOptional(out, Optional.ofNullable(range.endInclusive()));
    }
    PlanContext plan = split.plan();
    writeLongString(out, plan.schemaJson());
    out.writeInt(plan.instants().size());
    for (Instant i : plan.instants()) {
      out.writeUTF(i.time());
      out.writeUTF(i.action().name());
      out.writeUTF(i.state().name());
    }
    writeOptional(out, plan.queryInstant());
  }

  static FileSliceSplit read(DataInputView in) throws IOException {
    String id = in.readUTF();
    long emitted = in.readLong();
    String partition = in.readUTF();
    String fileId = in.readUTF();
    String baseInstant = in.readUTF();
    Optional<String> basePath = readOptional(in);
    long baseLength = in.readLong();
    Optional<BaseFile> base = basePath.map(p -> BaseFile.of(new Path(p), baseLength)
        .orElseThrow(() -> new TableException("split " + id + ": not a base file name: " + p)));
    int logCount = in.readInt();
    List<LogFile> logs = new ArrayList<>(logCount);
    for (int i = 0; i < logCount; i++) {
      String p = in.readUTF();
      long length = in.readLong();
      logs.add(LogFile.of(new Path(p), length).orElseThrow(() -> new TableException("split " + id + ": not a log file name: " + p)));
    }
    String latest = in.readUTF();
    Optional<InstantRange> range = Optional.empty();
    if (in.readBoolean()) {
      String start = in.readUTF();
      boolean inclusive = in.readBoolean();
      range = Optional.of(new InstantRange(start, inclusive, readOptional(in).orElse(null)));
    }
    String schema = readLongString(in);
    int instantCount = in.readInt();
    List<Instant> instants = new ArrayList<>(instantCount);
    for (int i = 0; i < instantCount; i++) {
      instants.add(new Instant(in.readUTF(), Action.valueOf(in.readUTF()), State.valueOf(in.readUTF())));
    }
    PlanContext plan = new PlanContext(schema, instants, readOptional(in));
    Split split = new Split(new FileSlice(new FileGroupId(partition, fileId), baseInstant, base, logs), latest, range);
    return new FileSliceSplit(id, split, plan, emitted);
  }

  private static void writeOptional(DataOutputView out, Optional<String> value) throws IOException {
    out.writeBoolean(value.isPresent());
    if (value.isPresent()) {
      out.writeUTF(value.get());
    }
  }

  private static Optional<String> readOptional(DataInputView in) throws IOException {
    return in.readBoolean() ? Optional.of(in.readUTF()) : Optional.empty();
  }

  /** A string that may exceed {@code writeUTF}'s 64 KB (a wide schema). */
  private static void writeLongString(DataOutputView out, String value) throws IOException {
    byte[] bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String readLongString(DataInputView in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
  }
}
