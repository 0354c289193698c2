package io.riverbed.format.base;

import java.util.Iterator;

/** An iterator over a file's records that holds the file open until closed. */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
  @Override
  void close();
}
