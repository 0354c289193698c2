package io.riverbed.format.write.concurrency;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeats of one writer's pending instants, as Hudi's {@code HoodieHeartbeatClient} keeps
 * them: the file {@code .hoodie/.heartbeat/<instant>}, created before the instant's requested file,
 * rewritten at every {@link #beat} and deleted when the instant is committed. Its modification time
 * is the heartbeat; an instant whose heartbeat is older than interval × tolerable misses (or that has
 * none) belongs to a failed writer, and any writer may roll it back ({@link #isExpired}). Hudi writes
 * the file empty and reads only its time; Riverbed writes the writer id into it, so a restarted
 * writer knows its own earlier run's instants ({@link #ownerOf}).
 *
 * <p>Thread-safe: the engine's renewal thread beats while its committer starts and stops instants; a
 * beat never brings back the heartbeat of an instant already stopped.
 */
public final class InstantHeartbeats {
  private static final Logger LOG = LoggerFactory.getLogger(InstantHeartbeats.class);
  private static final String WRITER_ID = "writer.id";
  private static final String WRITER_KIND = "writer.kind";

  /** What kind of writer an instant belongs to, as its heartbeat says. */
  public enum WriterKind {
    /** A job that commits continuously (Flink) and must never lose a commit its checkpoint covers. */
    STREAMING,
    /** A writer that commits once and may fail and retry (a Spark write). */
    BATCH
  }

  /** Who writes a pending instant, as its heartbeat names it. */
  public record Owner(String writerId, WriterKind kind) {}

  private final Table table;
  private final String writerId;
  private final WriterKind kind;
  private final Set<String> beating = new ConcurrentSkipListSet<>();

  private InstantHeartbeats(Table table, String writerId, WriterKind kind) {
    this.table = table;
    this.writerId = writerId;
    this.kind = kind;
  }

  /** The heartbeats of the instants of {@code writerId}, a writer of {@code kind}, on {@code table} (no I/O). */
  public static InstantHeartbeats of(Table table, String writerId, WriterKind kind) {
    return new InstantHeartbeats(table, writerId, kind);
  }

  /** Starts the heartbeat of {@code instant}: call before its requested file is written. */
  public synchronized void start(String instant) {
    write(instant);
    beating.add(instant);
  }

  /** Renews the heartbeat of every started instant. */
  public synchronized void beat() {
    for (String instant : beating) {
      write(instant);
    }
  }

  /** Stops and deletes the heartbeat of {@code instant} (committed, or rolled back). */
  public synchronized void stop(String instant) {
    beating.remove(instant);
    Path path = path(table, instant);
    try {
      table.fs().delete(path, false);
    } catch (IOException e) {
      throw new TableException("cannot delete the heartbeat " + path + " of table " + table.basePath(), e);
    }
  }

  public String writerId() {
    return writerId;
  }

  public WriterKind kind() {
    return kind;
  }

  /** The instants whose heartbeat this writer renews. */
  public Set<String> beating() {
    return Set.copyOf(beating);
  }

  /**
   * Whether {@code instant}'s heartbeat is older than {@code options}' expiry at {@code nowMillis},
   * or absent (Hudi's {@code HeartbeatUtils.isHeartbeatExpired}).
   */
  public static boolean isExpired(Table table, String instant, ConcurrencyOptions options, long nowMillis) {
    Path path = path(table, instant);
    long last;
    try {
      last = table.fs().getFileStatus(path).getModificationTime();
    } catch (FileNotFoundException e) {
      last = 0;
    } catch (IOException e) {
      throw new TableException("cannot read the heartbeat " + path + " of table " + table.basePath(), e);
    }
    return nowMillis - last > options.heartbeatExpiry().toMillis();
  }

  /** The writer the heartbeat of {@code instant} names; empty if it has none (or Hudi wrote it). */
  public static Optional<Owner> ownerOf(Table table, String instant) {
    Path path = path(table, instant);
    Properties p = new Properties();
    try (InputStream in = table.fs().open(path)) {
      p.load(new java.io.StringReader(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new TableException("cannot read the heartbeat " + path + " of table " + table.basePath(), e);
    }
    String id = p.getProperty(WRITER_ID);
    if (id == null) {
      return Optional.empty();
    }
    String k = p.getProperty(WRITER_KIND, WriterKind.BATCH.name());
    return Optional.of(new Owner(id, k.equals(WriterKind.STREAMING.name()) ? WriterKind.STREAMING : WriterKind.BATCH));
  }

  /** {@code .hoodie/.heartbeat/<instant>}. */
  public static Path path(Table table, String instant) {
    return new Path(new Path(table.metaPath(), Table.HEARTBEAT_FOLDER), instant);
  }

  private void write(String instant) {
    Path path = path(table, instant);
    try (OutputStream out = table.fs().create(path, true)) {
      out.write((WRITER_ID + "=" + writerId + "\n" + WRITER_KIND + "=" + kind + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new TableException("cannot write the heartbeat " + path + " of table " + table.basePath(), e);
    }
    LOG.debug("Heartbeat {} of table {}", instant, table.basePath());
  }
}
