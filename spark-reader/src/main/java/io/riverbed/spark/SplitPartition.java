package io.riverbed.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One Spark input partition: file slices (or parts of large base files) that one task reads in
 * sequence, packed by {@link SplitPacking} the way Spark's file sources pack files.
 */
public record SplitPartition(ArrayList<SliceSplit> splits) implements InputPartition {

  public SplitPartition(List<SliceSplit> splits) {
    this(new ArrayList<>(splits));
  }

  /** True when every split is a base file read without logs. */
  public boolean baseOnly() {
    return splits.stream().allMatch(SliceSplit::baseOnly);
  }

  /** True when some split reads an incremental range. */
  public boolean incremental() {
    return splits.stream().anyMatch(SliceSplit::incremental);
  }
}
