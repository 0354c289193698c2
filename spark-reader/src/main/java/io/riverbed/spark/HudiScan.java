package io.riverbed.spark;

import io.riverbed.format.query.Split;
import io.riverbed.format.query.SplitReader;
import io.riverbed.format.timeline.CommittedLogWrites;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import java.util.OptionalLong;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * One query's scan: the planned splits minus those the glob or the partition filters rule out,
 * packed into input partitions as Spark packs files ({@link SplitPacking}). When every split is a
 * base file without logs read by Spark's vectorized reader, Spark gets columnar batches; otherwise
 * rows (base files still decoded vectorized).
 */
public final class HudiScan implements Scan, Batch, SupportsReportStatistics {
  private final LoadedTable table;
  private final StructType readSchema;
  private final Filter[] pushed;
  private final List<Filter> partitionFilters;
  private final List<Split> keptSplits;
  private final List<SliceSplit> splits;
  private final List<SplitPartition> partitions;
  private final int planned;
  private final VectorizedSettings vectorized;
  private final boolean columnar;

  HudiScan(LoadedTable table, StructType readSchema, Filter[] pushed, List<Filter> partitionFilters) {
    this.table = table;
    this.readSchema = readSchema;
    this.pushed = pushed;
    this.partitionFilters = partitionFilters;
    PartitionPruner pruner = PartitionPruner.of(table.table().config());
    List<Split> kept = new ArrayList<>();
    List<Split> planned = table.plan().splits();
    for (Split s : planned) {
      if (table.location().includesPartition(s.slice().partitionPath()) && pruner.mayMatch(s.slice().partitionPath(), partitionFilters)) {
        kept.add(s);
      }
    }
    this.keptSplits = List.copyOf(kept);
    this.splits = kept.stream().map(SliceSplit::of).toList();
    this.planned = planned.size();
    SparkSession spark = SparkSession.active();
    this.vectorized = VectorizedSettings.fromSession(spark.sessionState().conf());
    this.partitions = List.copyOf(SplitPacking.fromSession(spark).pack(splits, s -> vectorized.reads(s, readSchema)));
    this.columnar = vectorized.columnarOutput(readSchema)
        && splits.stream().allMatch(s -> s.baseOnly() && !s.incremental());
  }

  @Override
  public StructType readSchema() {
    return readSchema;
  }

  @Override
  public String description() {
    long baseOnly = splits.stream().filter(SliceSplit::baseOnly).count();
    return "HudiScan[" + table.table().basePath() + ", " + table.query().type().optionValue()
        + table.plan().queryInstant().map(i -> " as of " + i).orElse("")
        + table.plan().range().map(r -> " range " + r).orElse("")
        + ", file slices " + splits.size() + " of " + planned + " (" + baseOnly + " base-only)"
        + " in " + partitions.size() + " input partitions"
        + ", columns " + Arrays.toString(readSchema.fieldNames())
        + ", PushedFilters: " + Arrays.toString(pushed)
        + ", PartitionFilters: " + partitionFilters
        + ", " + (columnar ? "columnar" : "rows") + "]";
  }

  /**
   * Bytes of the files read, scaled by the share of the columns read (so Spark can plan
   * broadcast joins of small tables); row counts are unknown before merging.
   */
  @Override
  public Statistics estimateStatistics() {
    long bytes = 0;
    for (SliceSplit p : splits) {
      bytes += p.baseLength();
      for (long l : p.logLengths()) {
        bytes += l;
      }
    }
    double share = table.sparkSchema().defaultSize() == 0 ? 1.0
        : Math.min(1.0, Math.max(readSchema.defaultSize(), 1) / (double) table.sparkSchema().defaultSize());
    long size = Math.max(1L, (long) (bytes * share));
    return new Statistics() {
      @Override
      public OptionalLong sizeInBytes() {
        return OptionalLong.of(size);
      }

      @Override
      public OptionalLong numRows() {
        return OptionalLong.empty();
      }
    };
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    return partitions.toArray(InputPartition[]::new);
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    SparkSession spark = SparkSession.active();
    var conf = JavaSparkContext.fromSparkContext(spark.sparkContext())
        .broadcast(new SerializableConfiguration(table.options().hadoopConf(spark.sessionState().newHadoopConf())));
    // read once here, not by every task: what the plan's instants committed into the logs read
    CommittedLogWrites logWrites = SplitReader.committedWritesFor(table.plan(), keptSplits);
    return new SplitReaderFactory(new ReadContext(table, conf, readSchema, pushed, vectorized, columnar, logWrites));
  }

  /** The file slices read, for tests. */
  List<SliceSplit> splits() {
    return splits;
  }

  /** The input partitions, for tests. */
  List<SplitPartition> partitions() {
    return partitions;
  }

  boolean columnar() {
    return columnar;
  }

  List<String> pushedFilterNames() {
    return Arrays.stream(pushed).map(Filter::toString).collect(Collectors.toList());
  }
}
