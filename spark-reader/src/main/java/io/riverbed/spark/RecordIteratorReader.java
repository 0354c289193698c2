package io.riverbed.spark;

import io.riverbed.format.base.CloseableIterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;

/** Spark's partition reader over one of the core's record iterators, each record turned into a row as it is handed over. */
abstract class RecordIteratorReader<T> implements PartitionReader<InternalRow> {
  private final CloseableIterator<T> records;
  private InternalRow current;

  RecordIteratorReader(CloseableIterator<T> records) {
    this.records = records;
  }

  abstract InternalRow toRow(T record);

  @Override
  public final boolean next() {
    if (!records.hasNext()) {
      return false;
    }
    current = toRow(records.next());
    return true;
  }

  @Override
  public final InternalRow get() {
    return current;
  }

  @Override
  public final void close() {
    records.close();
  }
}
