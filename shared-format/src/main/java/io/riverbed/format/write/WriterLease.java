package io.riverbed.format.write;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FSDataOutputStream;
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
 */
public final class WriterLease {
  private static final Logger LOG = LoggerFactory.getLogger(WriterLease.class);
  public static final String FILE = ".aux/riverbed/writer.lease";

  private final Table table;
  private final Path path;
  private final String writerId;
  private final String holder;
  private final Duration timeout;
  private final LongSupplier clock;

  /** Who holds the lease, as the file says. */
  record Holder(String writerId, String description, long renewedAtMillis, long timeoutMillis) {}

  private WriterLease(Table table, String writerId, String holder, Duration timeout, LongSupplier clock) {
    this.table = table;
    this.path = new Path(table.metaPath(), FILE);
    this.writerId = writerId;
    this.holder = holder;
    this.timeout = timeout;
    this.clock = clock;
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
    WriterLease lease = new WriterLease(table, writerId, holder, timeout, clock);
    lease.take();
    return lease;
  }

  private void take() {
    try {
      if (table.fs().exists(path)) {
        Holder current = read().orElse(null);
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
      current = read().orElse(null);
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
      Optional<Holder> current = read();
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
    var text = new StringBuilder();
    p.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    byte[] bytes = text.toString().getBytes(StandardCharsets.ISO_8859_1);
    try (FSDataOutputStream out = table.fs().create(path, overwrite)) {
      out.write(bytes);
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
      take();
    }
  }

  private Optional<Holder> read() throws IOException {
    byte[] bytes;
    try (InputStream in = table.fs().open(path)) {
      bytes = in.readAllBytes();
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
    Properties p = new Properties();
    p.load(new ByteArrayInputStream(bytes));
    String id = p.getProperty("writer.id");
    if (id == null) {
      throw new TableException("damaged writer lease " + path + " of table " + table.basePath()
          + " (no writer.id); delete it if no writer runs");
    }
    try {
      return Optional.of(new Holder(id, p.getProperty("holder", "?"), Long.parseLong(p.getProperty("renewed.at.millis", "0")),
          Long.parseLong(p.getProperty("timeout.millis", "0"))));
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
