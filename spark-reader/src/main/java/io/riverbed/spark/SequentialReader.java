package io.riverbed.spark;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.connector.read.PartitionReader;

/**
 * Reads the splits of one input partition one after the other, opening each split's reader when
 * the previous one is exhausted and closing it before the next is opened.
 */
final class SequentialReader<T> implements PartitionReader<T> {
  private final Iterator<SliceSplit> splits;
  private final Function<SliceSplit, PartitionReader<T>> open;
  private PartitionReader<T> current;

  SequentialReader(List<SliceSplit> splits, Function<SliceSplit, PartitionReader<T>> open) {
    this.splits = splits.iterator();
    this.open = open;
  }

  @Override
  public boolean next() throws IOException {
    while (true) {
      if (current == null) {
        if (!splits.hasNext()) {
          return false;
        }
        current = open.apply(splits.next());
      }
      if (current.next()) {
        return true;
      }
      PartitionReader<T> done = current;
      current = null;
      done.close();
    }
  }

  @Override
  public T get() {
    return current.get();
  }

  @Override
  public void close() throws IOException {
    if (current != null) {
      PartitionReader<T> open = current;
      current = null;
      open.close();
    }
  }
}
