package io.riverbed.hive.input;

import io.riverbed.format.file.LogFile;
import io.riverbed.format.query.PlanContext;
import io.riverbed.format.query.Split;
import io.riverbed.format.query.SplitCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.FileSplit;

/**
 * One file slice of a planned query as a Hive input split: a {@link FileSplit} whose path is the
 * slice's base file (or its first log file, for a slice of logs only), inside the partition
 * folder, so Hive finds the partition the rows belong to; and the core's split and plan context,
 * so the task reads the slice without planning again.
 */
public class FileSliceSplit extends FileSplit {
  private Path basePath;
  private Split split;
  private PlanContext plan;

  /** For Hive, which makes a split by reflection and then reads its fields. */
  public FileSliceSplit() {
    super();
  }

  FileSliceSplit(Path basePath, Split split, PlanContext plan) {
    super(pathOf(split), 0, bytesOf(split), new String[0]);
    this.basePath = basePath;
    this.split = split;
    this.plan = plan;
  }

  private static Path pathOf(Split split) {
    return split.slice().baseFile().map(b -> b.path())
        .orElseGet(() -> split.slice().logFiles().get(0).path());
  }

  private static long bytesOf(Split split) {
    long bytes = split.slice().baseFile().map(b -> b.length()).orElse(0L);
    for (LogFile log : split.slice().logFiles()) {
      bytes += log.length();
    }
    return bytes;
  }

  public Path basePath() {
    return basePath;
  }

  public Split split() {
    return split;
  }

  public PlanContext plan() {
    return plan;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    super.write(out);
    out.writeUTF(basePath.toString());
    SplitCodec.writeSplit(split, out);
    SplitCodec.writePlan(plan, out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    super.readFields(in);
    basePath = new Path(in.readUTF());
    split = SplitCodec.readSplit(in, getPath().toString());
    plan = SplitCodec.readPlan(in);
  }

  @Override
  public String toString() {
    return "file slice " + split.slice().partitionPath() + "/" + split.slice().fileId() + " of " + basePath
        + " (" + (split.baseOnly() ? "base file only" : split.slice().logFiles().size() + " log files") + ")";
  }
}
