package io.riverbed.format.query;

import io.riverbed.format.TableException;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.timeline.State;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * Writes a {@link Split} and its {@link PlanContext} to bytes and back, for the engines that ship
 * splits to their tasks (Flink's source splits and checkpoints, Hive's input splits): the slice's
 * files with their lengths, the instant logs are read up to, the incremental range, the schema
 * and the timeline of the plan. {@code owner} names the split in errors.
 */
public final class SplitCodec {
  private SplitCodec() {}

  public static void writeSplit(Split split, DataOutput out) throws IOException {
    FileSlice slice = split.slice();
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
    out.writeUTF(split.latestInstant());
    out.writeBoolean(split.range().isPresent());
    if (split.range().isPresent()) {
      InstantRange range = split.range().get();
      out.writeUTF(range.start());
      out.writeBoolean(range.startInclusive());
      writeOptional(out, Optional.ofNullable(range.endInclusive()));
    }
  }

  public static Split readSplit(DataInput in, String owner) throws IOException {
    String partition = in.readUTF();
    String fileId = in.readUTF();
    String baseInstant = in.readUTF();
    Optional<String> basePath = readOptional(in);
    long baseLength = in.readLong();
    Optional<BaseFile> base = basePath.map(p -> BaseFile.of(new Path(p), baseLength)
        .orElseThrow(() -> new TableException("split " + owner + ": not a base file name: " + p)));
    int logCount = in.readInt();
    List<LogFile> logs = new ArrayList<>(logCount);
    for (int i = 0; i < logCount; i++) {
      String p = in.readUTF();
      long length = in.readLong();
      logs.add(LogFile.of(new Path(p), length).orElseThrow(() -> new TableException("split " + owner + ": not a log file name: " + p)));
    }
    String latest = in.readUTF();
    Optional<InstantRange> range = Optional.empty();
    if (in.readBoolean()) {
      String start = in.readUTF();
      boolean inclusive = in.readBoolean();
      range = Optional.of(new InstantRange(start, inclusive, readOptional(in).orElse(null)));
    }
    return new Split(new FileSlice(new FileGroupId(partition, fileId), baseInstant, base, logs), latest, range);
  }

  public static void writePlan(PlanContext plan, DataOutput out) throws IOException {
    writeLongString(out, plan.schemaJson());
    out.writeInt(plan.instants().size());
    for (Instant i : plan.instants()) {
      out.writeUTF(i.time());
      out.writeUTF(i.action().name());
      out.writeUTF(i.state().name());
    }
    writeOptional(out, plan.queryInstant());
  }

  public static PlanContext readPlan(DataInput in) throws IOException {
    String schema = readLongString(in);
    int instantCount = in.readInt();
    List<Instant> instants = new ArrayList<>(instantCount);
    for (int i = 0; i < instantCount; i++) {
      instants.add(new Instant(in.readUTF(), Action.valueOf(in.readUTF()), State.valueOf(in.readUTF())));
    }
    return new PlanContext(schema, instants, readOptional(in));
  }

  private static void writeOptional(DataOutput out, Optional<String> value) throws IOException {
    out.writeBoolean(value.isPresent());
    if (value.isPresent()) {
      out.writeUTF(value.get());
    }
  }

  private static Optional<String> readOptional(DataInput in) throws IOException {
    return in.readBoolean() ? Optional.of(in.readUTF()) : Optional.empty();
  }

  /** A string that may exceed {@code writeUTF}'s 64 KB (a wide schema). */
  private static void writeLongString(DataOutput out, String value) throws IOException {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String readLongString(DataInput in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
