package io.riverbed.format.base;

import java.util.Iterator;
import java.util.function.Function;

/** An iterator over a file's records that holds the file open until closed. */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
  @Override
  void close();

  /** This iterator's elements turned by {@code f}, one by one; closing it closes this one. */
  default <R> CloseableIterator<R> map(Function<? super T, ? extends R> f) {
    CloseableIterator<T> source = this;
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return source.hasNext();
      }

      @Override
      public R next() {
        return f.apply(source.next());
      }

      @Override
      public void close() {
        source.close();
      }
    };
  }
}
