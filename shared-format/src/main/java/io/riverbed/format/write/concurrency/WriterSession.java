package io.riverbed.format.write.concurrency;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.RollbackMetadata;
import io.riverbed.format.write.Rollback;
import io.riverbed.format.write.WriterLease;
import io.riverbed.format.write.commit.TableCommitter;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What one writer holds while it writes a table, as its concurrency mode says: the table's
 * {@link WriterLease} (exclusive for a single writer, shared with optimistic concurrency control),
 * and with several writers the table lock and the heartbeats of its pending instants. Engines start
 * one per write (Spark) or per job lineage (Flink), renew it on a timer ({@link #renew}), let it
 * configure their committer ({@link #configure}) and roll back failed writes through it
 * ({@link #rollbackFailedWrites}), so the rules live here and not in each engine.
 */
public final class WriterSession {
  private final Table table;
  private final ConcurrencyOptions options;
  private final WriterLease lease;
  private final InstantHeartbeats heartbeats;
  private final TableLock lock;

  private WriterSession(Table table, ConcurrencyOptions options, WriterLease lease, InstantHeartbeats heartbeats,
      TableLock lock) {
    this.table = table;
    this.options = options;
    this.lease = lease;
    this.heartbeats = heartbeats;
    this.lock = lock;
  }

  /**
   * Takes the table's writer lease for {@code writerId} (exclusive, or shared with
   * {@link ConcurrencyOptions#multiWriter()}).
   *
   * @param holder what the writer is, for other writers' errors (a Flink job id, a Spark application id)
   * @throws io.riverbed.format.CommitConflictException naming the writer that keeps this one out
   */
  public static WriterSession start(Table table, String writerId, String holder, Duration leaseTimeout,
      InstantHeartbeats.WriterKind kind, ConcurrencyOptions options) {
    Objects.requireNonNull(kind, "kind");
    if (!options.multiWriter()) {
      return new WriterSession(table, options, WriterLease.acquire(table, writerId, holder, leaseTimeout),
          InstantHeartbeats.of(table, writerId, kind), null);
    }
    TableLock lock = TableLock.open(table, options);
    WriterLease lease = WriterLease.acquireShared(table, writerId, holder, leaseTimeout, kind);
    return new WriterSession(table, options, lease, InstantHeartbeats.of(table, writerId, kind), lock);
  }

  /** Renews the lease and, with several writers, the heartbeats of the pending instants. */
  public void renew() {
    lease.renew();
    if (lock != null) {
      heartbeats.beat();
    }
  }

  /** How often {@link #renew} must run: within the lease's renewal interval and the heartbeat interval. */
  public Duration renewalInterval() {
    Duration leaseInterval = lease.renewalInterval();
    return lock == null || leaseInterval.compareTo(options.heartbeatInterval()) <= 0 ? leaseInterval
        : options.heartbeatInterval();
  }

  /**
   * Makes {@code committer} check the lease before each commit and, with several writers, begin and
   * commit under the table lock with this writer's heartbeats; {@code bucketIndex} makes file groups
   * of one bucket conflict.
   */
  public TableCommitter configure(TableCommitter committer, boolean bucketIndex) {
    committer.beforeCommit(lease::checkHeld).bucketIndex(bucketIndex);
    if (lock != null) {
      committer.concurrency(lock, heartbeats, options);
    }
    return committer;
  }

  /** Rolls back what failed writers left, eagerly or lazily as the options say ({@link Rollback}). */
  public List<RollbackMetadata> rollbackFailedWrites() {
    return lock == null ? Rollback.rollbackFailedWrites(table)
        : Rollback.rollbackFailedWrites(table, options, heartbeats, lock);
  }

  /**
   * Rolls back this writer's own pending instant {@code instant} (its commit failed) and stops its
   * heartbeat, so no other writer has to wait for it to expire.
   */
  public void rollBackOwn(String instant) {
    Rollback.of(table, instant).execute();
    heartbeats.stop(instant);
  }

  /** True with several writers. */
  public boolean concurrent() {
    return lock != null;
  }

  public WriterLease lease() {
    return lease;
  }

  public String writerId() {
    return lease.writerId();
  }

  /** Gives the lease up; the heartbeats of instants still pending stop with the writer's renewals. */
  public void release() {
    lease.release();
  }
}
