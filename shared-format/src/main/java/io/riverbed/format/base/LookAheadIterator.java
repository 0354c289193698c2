package io.riverbed.format.base;

import java.util.NoSuchElementException;

/**
 * A {@link CloseableIterator} whose subclasses only say how to compute the next element (or
 * {@code null} at the end); the look-ahead bookkeeping lives here once.
 */
public abstract class LookAheadIterator<T> implements CloseableIterator<T> {
  private T next;
  private boolean done;

  /** The next element, or {@code null} when there is none. */
  protected abstract T computeNext();

  @Override
  public final boolean hasNext() {
    if (next == null && !done) {
      next = computeNext();
      done = next == null;
    }
    return next != null;
  }

  @Override
  public final T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    T out = next;
    next = null;
    return out;
  }
}
