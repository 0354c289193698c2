package io.riverbed.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.internal.SQLConf;

/**
 * Packs a scan's file slices into input partitions as Spark's file sources pack files
 * ({@code FilePartition.maxSplitBytes} and {@code getFilePartitions}), from the same session
 * settings, so that a table of many small file groups is not read by as many short tasks: each
 * file costs its length plus {@code spark.sql.files.openCostInBytes}; a partition holds up to
 * {@code min(maxPartitionBytes, max(openCost, total / minPartitionNum))}; the largest splits are
 * placed first. Large base files read by the vectorized reader are cut into byte ranges of that
 * size, as Spark splits Parquet files (each range reads the row groups whose midpoint it holds).
 * When that gives more partitions than {@code spark.sql.files.maxPartitionNum}, the pieces are
 * packed again into partitions of {@code total / maxPartitionNum} bytes, as Spark does.
 *
 * @param maxPartitionBytes {@code spark.sql.files.maxPartitionBytes}
 * @param openCostInBytes {@code spark.sql.files.openCostInBytes}
 * @param minPartitionNum {@code spark.sql.files.minPartitionNum}, else
 *     {@code spark.sql.leafNodeDefaultParallelism}, else the default parallelism
 * @param maxPartitionNum {@code spark.sql.files.maxPartitionNum}; {@link Integer#MAX_VALUE} when unset
 */
record SplitPacking(long maxPartitionBytes, long openCostInBytes, int minPartitionNum, int maxPartitionNum) {
  SplitPacking {
    if (maxPartitionBytes <= 0 || openCostInBytes < 0 || minPartitionNum <= 0 || maxPartitionNum <= 0) {
      throw new IllegalArgumentException("split packing needs positive sizes and partition counts: max partition bytes "
          + maxPartitionBytes + ", open cost " + openCostInBytes + ", min partitions " + minPartitionNum
          + ", max partitions " + maxPartitionNum);
    }
  }

  static SplitPacking fromSession(SparkSession spark) {
    SQLConf conf = spark.sessionState().conf();
    int minPartitions = conf.filesMinPartitionNum().isDefined()
        ? (Integer) conf.filesMinPartitionNum().get()
        : conf.contains(SessionSetting.LEAF_NODE_DEFAULT_PARALLELISM.key())
            ? Integer.parseInt(conf.getConfString(SessionSetting.LEAF_NODE_DEFAULT_PARALLELISM.key()).trim())
            : spark.sparkContext().defaultParallelism();
    int maxPartitions = conf.filesMaxPartitionNum().isDefined() ? (Integer) conf.filesMaxPartitionNum().get() : Integer.MAX_VALUE;
    return new SplitPacking(conf.filesMaxPartitionBytes(), conf.filesOpenCostInBytes(), Math.max(1, minPartitions),
        Math.max(1, maxPartitions));
  }

  /** The most bytes (open costs included) one input partition is filled with. */
  long maxSplitBytes(List<SliceSplit> splits) {
    long total = 0;
    for (SliceSplit s : splits) {
      total += s.bytes() + s.files() * openCostInBytes;
    }
    return Math.min(maxPartitionBytes, Math.max(openCostInBytes, total / minPartitionNum));
  }

  /**
   * The input partitions for {@code splits}; those {@code splittable} accepts (base files read
   * alone by the vectorized reader) are cut into byte ranges when larger than a partition.
   */
  List<SplitPartition> pack(List<SliceSplit> splits, Predicate<SliceSplit> splittable) {
    long max = maxSplitBytes(splits);
    List<SliceSplit> pieces = new ArrayList<>();
    for (SliceSplit s : splits) {
      if (splittable.test(s) && s.baseLength() > max) {
        for (long offset = 0; offset < s.baseLength(); offset += max) {
          pieces.add(s.withByteRange(offset, Math.min(max, s.baseLength() - offset)));
        }
      } else {
        pieces.add(s);
      }
    }
    pieces.sort(Comparator.comparingLong(SliceSplit::bytes).reversed());
    List<SplitPartition> partitions = fill(pieces, max);
    if (partitions.size() > maxPartitionNum) {
      double total = 0;
      for (SliceSplit piece : pieces) {
        total += piece.bytes() + piece.files() * openCostInBytes;
      }
      partitions = fill(pieces, (long) Math.ceil(total / maxPartitionNum));
    }
    return partitions;
  }

  /** Spark's {@code getFilePartitions}: pieces in order, a partition closed before it would pass {@code max}. */
  private List<SplitPartition> fill(List<SliceSplit> pieces, long max) {
    List<SplitPartition> partitions = new ArrayList<>();
    List<SliceSplit> current = new ArrayList<>();
    long size = 0;
    for (SliceSplit piece : pieces) {
      if (size + piece.bytes() > max && !current.isEmpty()) {
        partitions.add(new SplitPartition(current));
        current = new ArrayList<>();
        size = 0;
      }
      size += piece.bytes() + piece.files() * openCostInBytes;
      current.add(piece);
    }
    if (!current.isEmpty()) {
      partitions.add(new SplitPartition(current));
    }
    return partitions;
  }
}
