package io.riverbed.hive.input;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.io.CombineHiveInputFormat;
import org.apache.hadoop.io.ArrayWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.InputFormat;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;

/**
 * Hive's (mapred) input format for a Hudi table: splits are the file slices the core's planner
 * picks for the folders Hive reads ({@link SlicePlanner}), read by {@link FileSliceRecordReader}.
 * Subclasses say which query: read-optimized or snapshot. Hive must not combine its splits (a
 * combined split loses the slice), so it says so ({@link CombineHiveInputFormat.AvoidSplitCombination}).
 */
public abstract class RiverbedInputFormat implements InputFormat<NullWritable, ArrayWritable>,
    CombineHiveInputFormat.AvoidSplitCombination {

  /** The query this format answers. */
  protected abstract QuerySpec query();

  @Override
  public InputSplit[] getSplits(JobConf job, int numSplits) throws IOException {
    Path[] dirs = FileInputFormat.getInputPaths(job);
    if (dirs.length == 0) {
      throw new HiveInputException("Hive gave " + getClass().getName() + " no input folders");
    }
    List<FileSliceSplit> splits = SlicePlanner.plan(job, dirs, query());
    return splits.toArray(new InputSplit[0]);
  }

  @Override
  public RecordReader<NullWritable, ArrayWritable> getRecordReader(InputSplit split, JobConf job, Reporter reporter)
      throws IOException {
    if (!(split instanceof FileSliceSplit slice)) {
      throw new HiveInputException(getClass().getName() + " reads only the splits it made, not " + split.getClass().getName()
          + " (" + split + "); set hive.input.format=org.apache.hadoop.hive.ql.io.HiveInputFormat if Hive combined them");
    }
    HiveColumns columns = HiveColumns.of(job, slice.basePath().toString());
    return FileSliceRecordReader.open(slice, slice.basePath().getFileSystem(job), columns, readSettings(job));
  }

  private static ReadSettings readSettings(Configuration conf) {
    Map<String, String> options = new HashMap<>();
    for (String key : List.of(ReadSettings.MAX_MEMORY, ReadSettings.SPILL_PATH)) {
      String value = conf.get(key);
      if (value != null) {
        options.put(key, value);
      }
    }
    return ReadSettings.fromOptions(options);
  }

  @Override
  public boolean shouldSkipCombine(Path path, Configuration conf) {
    return true;
  }
}
