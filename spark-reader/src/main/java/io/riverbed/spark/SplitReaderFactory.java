package io.riverbed.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Opens the reader of one split on an executor: Spark's vectorized Parquet reader for a base file
 * read in full (snapshot and read-optimized), the core's split reader (merge of base and logs,
 * incremental ranges) for the rest.
 */
final class SplitReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
  private final ReadContext context;

  SplitReaderFactory(ReadContext context) {
    this.context = context;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    SplitPartition split = (SplitPartition) partition;
    if (vectorizable(split)) {
      return new VectorizedBaseFile(context, split).rows();
    }
    return new MergedRows(context, split);
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    return new VectorizedBaseFile(context, (SplitPartition) partition);
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return context.columnar;
  }

  private boolean vectorizable(SplitPartition split) {
    return split.baseOnly() && !split.incremental() && context.vectorized.canRead(context.readSchema);
  }
}
