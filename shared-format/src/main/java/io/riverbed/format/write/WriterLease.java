package io.riverbed.format.write;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.write.concurrency.ConcurrencyOptions;
import io.riverbed.format.write.concurrency.InstantHeartbeats;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One streaming writer per table at a time. Two writers that both index keys themselves (two
 * Flink jobs on one table) would each put the same new key into a file group of its own and both
 * commit, so the table would hold the key twice. The writer that holds the lease — the file
 * {@code .hoodie/.aux/riverbed/writer.lease}, naming its writer id and renewed by its heartbeat —
 * may commit; another writer fails to start with a {@link CommitConflictException} naming the
 * holder, until the holder releases the lease or stops renewing it for {@code timeout}. A writer
 * that continues the holder's lineage (a job restored from the holder's checkpoint, with the same
 * writer id) takes the lease over at once. The holder checks the lease before each commit, so a
 * writer that lost it (taken over after it stalled past the timeout) fails instead of committing.
 *
 * <p>With several writers ({@code hoodie.write.concurrency.mode=optimistic_concurrency_control},
 * {@link #acquireShared}) each writer holds a lease of its own, {@code .aux/riverbed/writers/<writer id>},
 * renewed and checked the same way; the exclusive lease and the shared ones keep each other out (a
 * writer without the mode fails while writers with it run, and the other way round, each naming the
 * other), and at most one of the shared holders is a streaming writer: a second streaming job would
 * put the same new key into a file group of its own, and a streaming commit must never lose a
 * conflict ({@link io.riverbed.format.write.commit.TableCommitter}).
 */
public final class WriterLease {
  /** Reads of a lease file that finds no writer id before it counts as damaged, and the pause between them. */
  private static final int TORN_READ_ATTEMPTS = 5;
  private static final long TORN_READ_PAUSE_MILLIS = 200;

  private static final Logger LOG = LoggerFactory.getLogger(WriterLease.class);
  public static final String FILE = ".aux/riverbed/writer.lease";
  /** The folder of the shared leases of concurrent writers. */
  public static final String SHARED_FOLDER = ".aux/riverbed/writers";

  private final Table table;
  private final Path path;
  private final String writerId;
  private final String holder;
  private final Duration timeout;
  private final LongSupplier clock;
  /** The kind of a shared lease's writer; null for the exclusive lease. */
  private final InstantHeartbeats.WriterKind sharedKind;

  /** Who holds a lease, as its file says. */
  record Holder(String writerId, String description, long renewedAtMillis, long timeoutMillis, String kind) {
    boolean liveAt(long now) {
      return now - renewedAtMillis <= timeoutMillis;
    }
  }

  private WriterLease(Table table, String writerId, String holder, Duration timeout, LongSupplier clock,
      InstantHeartbeats.WriterKind sharedKind) {
    this.table = table;
    this.path = sharedKind == null ? new Path(table.metaPath(), FILE)
        : new Path(new Path(table.metaPath(), SHARED_FOLDER), writerId);
    this.writerId = writerId;
    this.holder = holder;
    this.timeout = timeout;
    this.clock = clock;
    this.sharedKind = sharedKind;
  }

  /**
   * Takes the lease of {@code table} for {@code writerId}: when nobody holds it, when this writer
   * id holds it already, or when its holder has not renewed it for its timeout.
   *
   * @param holder what the writer is, for the other writer's error (e.g. the Flink job id)
   * @throws CommitConflictException naming the holder when another writer holds the lease
   */
  public static WriterLease acquire(Table table, String writerId, String holder, Duration timeout) {
    return acquire(table, writerId, holder, timeout, System::currentTimeMillis);
  }

  static WriterLease acquire(Table table, String writerId, String holder, Duration timeout, LongSupplier clock) {
    // a table of a version Riverbed does not write is refused before anything is written into it
    table.config().requireSupported(table.basePath());
    WriterLease lease = new WriterLease(table, writerId, holder, timeout, clock, null);
    lease.take();
    return lease;
  }

  /**
   * Takes a shared lease of {@code table} for {@code writerId}, a writer of {@code kind}, beside the
   * other writers of a table written with optimistic concurrency control.
   *
   * @throws CommitConflictException naming the other writer when a live writer holds the exclusive
   *     lease, or when {@code kind} is streaming and another live streaming writer holds a shared one
   */
  public static WriterLease acquireShared(Table table, String writerId, String holder, Duration timeout,
      InstantHeartbeats.WriterKind kind) {
    return acquireShared(table, writerId, holder, timeout, kind, System::currentTimeMillis);
  }

  static WriterLease acquireShared(Table table, String writerId, String holder, Duration timeout,
      InstantHeartbeats.WriterKind kind, LongSupplier clock) {
    table.config().requireSupported(table.basePath());
    WriterLease lease = new WriterLease(table, writerId, holder, timeout, clock, Objects.requireNonNull(kind));
    lease.takeShared();
    return lease;
  }

  private void takeShared() {
    try {
      requireNoExclusiveHolder();
      if (sharedKind == InstantHeartbeats.WriterKind.STREAMING) {
        for (Holder other : liveSharedHolders()) {
          if (InstantHeartbeats.WriterKind.STREAMING.name().equals(other.kind())) {
            throw new CommitConflictException("table " + table.basePath() + " has a streaming writer already ("
                + other.description() + ", writer id " + other.writerId() + "); with "
                + ConcurrencyOptions.MODE + "=optimistic_concurrency_control a table takes one streaming writer "
                + "beside any number of batch writers. Stop that writer first; if it is dead, wait "
                + other.timeoutMillis() / 1000 + " s for its lease to expire or delete "
                + new Path(new Path(table.metaPath(), SHARED_FOLDER), other.writerId()));
          }
        }
      }
      write(true);
      requireNoExclusiveHolder();
      LOG.info("Writer {} ({}, {}) holds a shared writer lease of table {}", writerId, holder, sharedKind,
          table.basePath());
    } catch (CommitConflictException e) {
      deleteOwn();
      throw e;
    } catch (IOException e) {
      throw new TableException("cannot take the shared writer lease " + path + " of table " + table.basePath(), e);
    }
  }

  private void requireNoExclusiveHolder() throws IOException {
    Path exclusive = new Path(table.metaPath(), FILE);
    Optional<Holder> current = read(exclusive);
    if (current.isPresent() && !current.get().writerId().equals(writerId) && current.get().liveAt(clock.getAsLong())) {
      throw new CommitConflictException("table " + table.basePath() + " is being written by "
          + current.get().description() + " (writer id " + current.get().writerId() + ") without "
          + ConcurrencyOptions.MODE + "=optimistic_concurrency_control; every writer of a table written "
          + "concurrently must set it. Stop that writer first; if it is dead, wait for its lease to expire or "
          + "delete " + exclusive);
    }
  }

  /** The live shared leases of other writers. */
  private List<Holder> liveSharedHolders() throws IOException {
    Path folder = new Path(table.metaPath(), SHARED_FOLDER);
    List<Holder> live = new ArrayList<>();
    FileStatus[] files;
    try {
      files = table.fs().listStatus(folder);
    } catch (FileNotFoundException e) {
      return live;
    }
    long now = clock.getAsLong();
    for (FileStatus f : files) {
      if (f.getPath().getName().startsWith(".") || f.getPath().getName().endsWith(".crc")) {
        continue;
      }
      read(f.getPath()).filter(h -> !h.writerId().equals(writerId) && h.liveAt(now)).ifPresent(live::add);
    }
    return live;
  }

  private void deleteOwn() {
    try {
      Optional<Holder> current = read(path);
      if (current.isPresent() && current.get().writerId().equals(writerId)) {
        table.fs().delete(path, false);
      }
    } catch (IOException e) {
      LOG.warn("Cannot delete the writer lease {} of table {} after failing to take it", path, table.basePath(), e);
    }
  }

  private void take() {
    try {
      if (table.fs().exists(path)) {
        Holder current = read(path).orElse(null);
        if (current != null && !current.writerId().equals(writerId)) {
          long idle = clock.getAsLong() - current.renewedAtMillis();
          if (idle <= current.timeoutMillis()) {
            throw new CommitConflictException("table " + table.basePath() + " is being written by another writer ("
                + current.description() + ", writer id " + current.writerId() + "; its lease was renewed "
                + idle / 1000 + " s ago and expires after " + current.timeoutMillis() / 1000 + " s without renewal). "
                + "Stop that writer first; if it is dead, wait for the lease to expire or delete " + path);
          }
          LOG.warn("Taking over the writer lease of table {} from {} (writer id {}), idle for {} s", table.basePath(),
              current.description(), current.writerId(), idle / 1000);
        }
        write(true);
      } else {
        write(false);
      }
      checkHeld();
      List<Holder> shared = liveSharedHolders();
      if (!shared.isEmpty()) {
        deleteOwn();
        Holder other = shared.get(0);
        throw new CommitConflictException("table " + table.basePath() + " is being written by " + other.description()
            + " (writer id " + other.writerId() + ") with " + ConcurrencyOptions.MODE
            + "=optimistic_concurrency_control; set it on this writer too to write beside it, or stop that writer");
      }
      LOG.info("Writer {} ({}) holds the writer lease of table {}", writerId, holder, table.basePath());
    } catch (IOException e) {
      throw new TableException("cannot take the writer lease " + path + " of table " + table.basePath(), e);
    }
  }

  /** Renews the lease (the holder's heartbeat). @throws CommitConflictException if another writer took it */
  public void renew() {
    checkHeld();
    try {
      write(true);
    } catch (IOException e) {
      throw new TableException("cannot renew the writer lease " + path + " of table " + table.basePath(), e);
    }
  }

  /** @throws CommitConflictException naming the other writer if this one no longer holds the lease */
  public void checkHeld() {
    Holder current;
    try {
      current = read(path).orElse(null);
    } catch (IOException e) {
      throw new TableException("cannot read the writer lease " + path + " of table " + table.basePath(), e);
    }
    if (current == null || !current.writerId().equals(writerId)) {
      throw new CommitConflictException("writer " + writerId + " (" + holder + ") lost the writer lease of table "
          + table.basePath() + (current == null ? " (the lease file is gone)"
              : " to " + current.description() + " (writer id " + current.writerId() + ")")
          + "; it must not commit: another writer writes the table");
    }
  }

  /** Gives the lease up, if this writer still holds it. */
  public void release() {
    try {
      Optional<Holder> current = read(path);
      if (current.isPresent() && current.get().writerId().equals(writerId)) {
        table.fs().delete(path, false);
        LOG.info("Writer {} released the writer lease of table {}", writerId, table.basePath());
      }
    } catch (IOException e) {
      throw new TableException("cannot release the writer lease " + path + " of table " + table.basePath(), e);
    }
  }

  private void write(boolean overwrite) throws IOException {
    Properties p = new Properties();
    p.setProperty("writer.id", writerId);
    p.setProperty("holder", holder);
    p.setProperty("renewed.at.millis", Long.toString(clock.getAsLong()));
    p.setProperty("timeout.millis", Long.toString(timeout.toMillis()));
    if (sharedKind != null) {
      p.setProperty("kind", sharedKind.name());
    }
    var text = new StringBuilder();
    p.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    byte[] bytes = text.toString().getBytes(StandardCharsets.ISO_8859_1);
    try (FSDataOutputStream out = table.fs().create(path, overwrite)) {
      out.write(bytes);
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
      if (sharedKind != null) {
        throw e;
      }
      take();
    }
  }

  /**
   * The holder in the lease file, empty when there is none. A renewal rewrites the file in place (its
   * create truncates it first), so a read that finds no writer id is retried a few times before the
   * lease counts as damaged.
   */
  private Optional<Holder> read(Path path) throws IOException {
    Properties p = new Properties();
    for (int attempt = 1; ; attempt++) {
      byte[] bytes;
      try (InputStream in = table.fs().open(path)) {
        bytes = in.readAllBytes();
      } catch (FileNotFoundException e) {
        return Optional.empty();
      }
      p.clear();
      p.load(new ByteArrayInputStream(bytes));
      if (p.getProperty("writer.id") != null || attempt == TORN_READ_ATTEMPTS) {
        break;
      }
      try {
        Thread.sleep(TORN_READ_PAUSE_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while reading the writer lease " + path);
      }
    }
    String id = p.getProperty("writer.id");
    if (id == null) {
      throw new TableException("damaged writer lease " + path + " of table " + table.basePath()
          + " (no writer.id); delete it if no writer runs");
    }
    try {
      return Optional.of(new Holder(id, p.getProperty("holder", "?"), Long.parseLong(p.getProperty("renewed.at.millis", "0")),
          Long.parseLong(p.getProperty("timeout.millis", "0")), p.getProperty("kind", "")));
    } catch (NumberFormatException e) {
      throw new TableException("damaged writer lease " + path + " of table " + table.basePath() + ": " + e.getMessage());
    }
  }

  /** The writer id that holds this lease. */
  public String writerId() {
    return writerId;
  }

  /** The interval at which a holder should renew: a third of the timeout. */
  public Duration renewalInterval() {
    return timeout.dividedBy(3);
  }
}
