package io.riverbed.format.write;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Paces one writer task to at most a number of records per second (its share of Hudi's
 * {@code write.rate.limit}), so a backfill streams into the table over many commits instead of
 * flooding one. {@link #acquire()} blocks the caller until the next record may pass; time lost to a
 * slow caller is not made up by a burst.
 */
public final class RecordRateLimit {
  private final long nanosPerRecord;
  private final LongSupplier clock;
  private final LongConsumer parkNanos;
  private long next;

  private RecordRateLimit(double recordsPerSecond, LongSupplier clock, LongConsumer parkNanos) {
    if (!(recordsPerSecond > 0)) {
      throw new IllegalArgumentException("a rate limit must be > 0 records per second, got " + recordsPerSecond);
    }
    this.nanosPerRecord = Math.max(1, (long) (TimeUnit.SECONDS.toNanos(1) / recordsPerSecond));
    this.clock = clock;
    this.parkNanos = parkNanos;
    this.next = clock.getAsLong();
  }

  /** A limit of {@code recordsPerSecond} on the system's nano clock. */
  public static RecordRateLimit perSecond(double recordsPerSecond) {
    return new RecordRateLimit(recordsPerSecond, System::nanoTime, LockSupport::parkNanos);
  }

  /** The same on a given clock and parking, for tests. */
  static RecordRateLimit perSecond(double recordsPerSecond, LongSupplier clock, LongConsumer parkNanos) {
    return new RecordRateLimit(recordsPerSecond, clock, parkNanos);
  }

  /** Waits until one more record may pass. */
  public void acquire() {
    long now = clock.getAsLong();
    while (next - now > 0) {
      parkNanos.accept(next - now);
      now = clock.getAsLong();
    }
    next = now + nanosPerRecord;
  }
}
