package io.riverbed.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Opens the reader of one input partition on an executor, its splits read in sequence: Spark's
 * vectorized Parquet reader for a base file read without logs (snapshot and read-optimized), and
 * for the base file of a snapshot slice with logs, merged by the core in Spark rows
 * ({@link VectorizedMergedSlice}); the core's Avro split reader for the rest (incremental ranges,
 * columns or ordering types the vectorized path does not take).
 */
final class SplitReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
  private final ReadContext context;

  SplitReaderFactory(ReadContext context) {
    this.context = context;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    return new SequentialReader<>(((SplitPartition) partition).splits(), this::rows);
  }

  /** The rows of one split, by the reader its kind takes. */
  PartitionReader<InternalRow> rows(SliceSplit split) {
    if (context.vectorizable(split)) {
      return new VectorizedBaseFile(context, split, context.readSchema, context.filters).rows();
    }
    if (context.mergesVectorized(split)) {
      return new VectorizedMergedSlice(context, split);
    }
    return new MergedRows(context, split);
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    return new SequentialReader<>(((SplitPartition) partition).splits(), split -> new VectorizedBaseFile(context, split, context.readSchema, context.filters));
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return context.columnar;
  }
}
