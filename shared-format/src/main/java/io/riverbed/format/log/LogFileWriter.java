package io.riverbed.format.log;

import io.riverbed.format.TableException;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a new log file block by block. The caller picks the path (log file naming lives
 * elsewhere); the file must not exist yet.
 *
 * <p>Each block is encoded completely in memory before any byte reaches the file, so a block that
 * cannot be encoded (bad record) leaves the file untouched and the writer usable. If writing to
 * the file fails, the writer is aborted: no further appends are accepted, and the file is deleted
 * if it held no complete block. A file with earlier complete blocks is kept: its tail is read back
 * as a corrupt block, which readers ignore.
 *
 * <p>Use {@code try { ... writer.close(); } finally { writer.abort(); }}: {@link #abort()} after a
 * successful {@link #close()} does nothing.
 */
public final class LogFileWriter {

  private static final Logger LOG = LoggerFactory.getLogger(LogFileWriter.class);

  private final FileSystem fs;
  private final Path path;
  private final FSDataOutputStream out;
  private final BlockEncoder encoder = new BlockEncoder();
  private long size;
  private int blocks;
  private boolean closed;

  private LogFileWriter(FileSystem fs, Path path, FSDataOutputStream out) {
    this.fs = fs;
    this.path = path;
    this.out = out;
  }

  /** Creates the log file at {@code path}; fails if it exists. */
  public static LogFileWriter create(FileSystem fs, Path path) {
    return createIfAbsent(fs, path).orElseThrow(() -> new TableException("Cannot create log file " + path
        + ": it exists"));
  }

  /**
   * Creates the log file at {@code path}, or returns empty if a file of that name exists (another
   * writer took the name first: the caller picks the next log version, as Hudi's log writer rolls over).
   */
  public static Optional<LogFileWriter> createIfAbsent(FileSystem fs, Path path) {
    try {
      LOG.debug("Creating log file {}", path);
      return Optional.of(new LogFileWriter(fs, path, fs.create(path, false)));
    } catch (FileAlreadyExistsException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new TableException("Cannot create log file " + path, e);
    }
  }

  public Path path() {
    return path;
  }

  /** Bytes written so far (complete blocks only). */
  public long size() {
    return size;
  }

  /**
   * Appends {@code block} (an {@link AvroDataBlock}, {@link DeleteBlock} or {@link CommandBlock})
   * and flushes it to the file system.
   *
   * @return where the block starts and how long it is
   * @throws io.riverbed.format.InvalidRecordException if a record cannot be encoded (nothing written)
   * @throws TableException if the file cannot be written (the writer is then aborted)
   */
  public AppendResult append(LogBlock block) {
    if (closed) {
      throw new IllegalStateException("Log file writer is closed or aborted: " + path);
    }
    BlockEncoder.Buffer bytes = encoder.encode(block);
    long offset = size;
    try {
      out.write(bytes.array(), 0, bytes.size());
      out.hflush();
    } catch (IOException | RuntimeException e) {
      var failure = new TableException("Cannot append " + block.type() + " of instant " + block.instantTime()
          + " to log file " + path + " at offset " + offset + "; writer aborted", e);
      abortAfter(failure);
      throw failure;
    }
    size += bytes.size();
    blocks++;
    return new AppendResult(offset, bytes.size());
  }

  /**
   * Closes the file.
   *
   * @return the file size in bytes
   */
  public long close() {
    if (closed) {
      throw new IllegalStateException("Log file writer already closed or aborted: " + path);
    }
    try {
      out.close();
    } catch (IOException e) {
      var failure = new TableException("Cannot close log file " + path + "; writer aborted", e);
      abortAfter(failure);
      throw failure;
    }
    closed = true;
    LOG.debug("Closed log file {} with {} blocks, {} bytes", path, blocks, size);
    return size;
  }

  /**
   * Gives up on the file: closes the stream and deletes the file if no complete block was written.
   * Does nothing if the writer was closed successfully or aborted before.
   */
  public void abort() {
    if (closed) {
      return;
    }
    closed = true;
    TableException failure = null;
    try {
      out.close();
    } catch (IOException | RuntimeException e) {
      failure = new TableException("Cannot close aborted log file " + path, e);
    }
    if (blocks == 0) {
      try {
        fs.delete(path, false);
      } catch (IOException e) {
        var deleteFailure = new TableException("Cannot delete aborted log file " + path, e);
        if (failure != null) {
          deleteFailure.addSuppressed(failure);
        }
        failure = deleteFailure;
      }
    }
    LOG.debug("Aborted log file {} after {} complete blocks", path, blocks);
    if (failure != null) {
      throw failure;
    }
  }

  private void abortAfter(Exception primary) {
    try {
      abort();
    } catch (RuntimeException e) {
      primary.addSuppressed(e);
    }
  }
}
