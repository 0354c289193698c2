package io.riverbed.format.write.concurrency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.text.SimpleDateFormat;
import java.time.Duration;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hudi's {@code FileSystemBasedLockProvider}, taking the same lock file so Riverbed and Hudi
 * writers exclude each other: {@code <hoodie.write.lock.filesystem.path>/lock} (default the
 * table's {@code .hoodie/lock}), created only if absent; its content is Hudi's lock info JSON
 * ({@code lockCreateTime}, {@code lockThreadName}, {@code lockStacksInfo}) plus this holder's
 * token; it is held until deleted. A lock file older than {@code hoodie.write.lock.filesystem.expire}
 * minutes (0: never) is taken as abandoned and deleted, as Hudi does.
 *
 * <p>Creation must be atomic: on HDFS {@code create(path, false)} is; on the local file system,
 * whose Hadoop create checks and then creates, the file is created with {@link Files#createFile}
 * instead, so two processes on one machine never both take it. Object stores without atomic
 * creation (S3) need another lock.
 */
public final class FileSystemTableLock implements TableLock {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Logger LOG = LoggerFactory.getLogger(FileSystemTableLock.class);
  public static final String FILE = "lock";

  private final Table table;
  private final FileSystem fs;
  private final Path path;
  private final Duration expire;
  private final Duration wait;
  private final Duration retryWait;
  /** The time expiry is judged by (the wait for the lock always runs on the JVM's own clock). */
  private final LongSupplier clock;

  private FileSystemTableLock(Table table, FileSystem fs, Path path, Duration expire, Duration wait,
      Duration retryWait, LongSupplier clock) {
    this.table = table;
    this.fs = fs;
    this.path = path;
    this.expire = expire;
    this.wait = wait;
    this.retryWait = retryWait;
    this.clock = clock;
  }

  /** The lock of {@code table} in the folder {@code options} name (no I/O). */
  public static FileSystemTableLock of(Table table, ConcurrencyOptions options) {
    return of(table, options, System::currentTimeMillis);
  }

  static FileSystemTableLock of(Table table, ConcurrencyOptions options, LongSupplier clock) {
    Path folder = options.lockPath() == null ? table.metaPath() : new Path(options.lockPath());
    FileSystem fs;
    try {
      fs = options.lockPath() == null ? table.fs() : folder.getFileSystem(table.fs().getConf());
    } catch (IOException e) {
      throw new TableException("cannot reach the file system of " + ConcurrencyOptions.LOCK_PATH + "="
          + options.lockPath() + " for table " + table.basePath(), e);
    }
    return new FileSystemTableLock(table, fs, new Path(folder, FILE), Duration.ofMinutes(options.lockExpireMinutes()),
        options.lockWait(), options.lockRetryWait(), clock);
  }

  /** The lock file. */
  public Path path() {
    return path;
  }

  @Override
  public Held acquire() {
    String token = UUID.randomUUID().toString();
    long deadline = System.nanoTime() + wait.toNanos();
    String holder = "";
    while (true) {
      try {
        deleteIfExpired();
        if (create(lockInfo(token))) {
          LOG.debug("Took the lock {} of table {}", path, table.basePath());
          return () -> release(token);
        }
        holder = read();
      } catch (IOException e) {
        throw new TableException("cannot take the lock " + path + " of table " + table.basePath(), e);
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new LockTimeoutException("cannot take the lock " + path + " of table " + table.basePath() + " within "
            + ConcurrencyOptions.LOCK_WAIT + "=" + wait.toMillis() + " ms: another writer holds it (" + holder
            + "). If no writer runs, delete the file, or set " + ConcurrencyOptions.LOCK_EXPIRE);
      }
      pause();
    }
  }

  private void deleteIfExpired() throws IOException {
    if (expire.isZero()) {
      return;
    }
    long modified;
    try {
      modified = fs.getFileStatus(path).getModificationTime();
    } catch (FileNotFoundException e) {
      return;
    }
    if (clock.getAsLong() - modified > expire.toMillis()) {
      LOG.warn("Deleting the expired lock {} of table {} (older than {} min)", path, table.basePath(), expire.toMinutes());
      fs.delete(path, false);
    }
  }

  /** Creates the lock file if it is absent, atomically; false if it exists. */
  private boolean create(byte[] content) throws IOException {
    FileSystem raw = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
    if (raw instanceof RawLocalFileSystem local) {
      java.io.File file = local.pathToFile(path);
      Files.createDirectories(file.toPath().getParent());
      try {
        Files.createFile(file.toPath());
      } catch (FileAlreadyExistsException e) {
        return false;
      }
      Files.write(file.toPath(), content);
      return true;
    }
    try (OutputStream out = fs.create(path, false)) {
      out.write(content);
      return true;
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      // HDFS answers a create racing another client's with AlreadyBeingCreatedException: the other one won
      if (fs.exists(path)) {
        LOG.debug("Lost the race to create the lock {} of table {}", path, table.basePath(), e);
        return false;
      }
      throw e;
    }
  }

  private void release(String token) {
    try {
      String content = read();
      if (content.contains(token)) {
        fs.delete(path, false);
        LOG.debug("Released the lock {} of table {}", path, table.basePath());
      } else {
        LOG.warn("The lock {} of table {} is no longer this writer's (expired and taken over?): {}", path,
            table.basePath(), content);
      }
    } catch (IOException e) {
      throw new TableException("cannot release the lock " + path + " of table " + table.basePath(), e);
    }
  }

  private String read() throws IOException {
    try (InputStream in = fs.open(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (FileNotFoundException e) {
      return "";
    }
  }

  /** The lock file's content: Hudi's {@code LockInfo} fields, and the token that proves this holder. */
  private byte[] lockInfo(String token) {
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("lockCreateTime", new SimpleDateFormat("yyyy-MM-dd HH:mm:ss.SSS").format(new Date(clock.getAsLong())));
    info.put("lockThreadName", Thread.currentThread().getName());
    info.put("lockStacksInfo", List.of());
    info.put("riverbedLockToken", token);
    try {
      return JSON.writeValueAsBytes(info);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode the lock file content of table " + table.basePath(), e);
    }
  }

  private void pause() {
    try {
      Thread.sleep(Math.max(1, retryWait.toMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TableException("interrupted while waiting for the lock " + path + " of table " + table.basePath(), e);
    }
  }
}
