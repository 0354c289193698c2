package io.riverbed.format.write;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A writer task's rows waiting to be written, per file group, within a memory bound: before a row
 * would make the buffers exceed it, the largest buffer is flushed; a row larger than the bound is
 * flushed at once, with the rows of its group buffered before it. Rows stay in the engine's form (sized by the engine) until their group is flushed.
 */
final class FileGroupBuffers<R> {
  /** Writes the rows of one file group, in arrival order; the list is the callee's (it may clear it). */
  @FunctionalInterface
  interface Flush<R> {
    void flush(String partition, String fileGroup, List<R> rows);
  }

  private static final class Buffer<R> {
    final String partition;
    final String fileGroup;
    final List<R> rows = new ArrayList<>();
    long bytes;

    Buffer(String partition, String fileGroup) {
      this.partition = partition;
      this.fileGroup = fileGroup;
    }
  }

  private final long limitBytes;
  private final Flush<R> flush;
  private final Map<String, Buffer<R>> buffers = new LinkedHashMap<>();
  private long bufferedBytes;
  private long maxBufferedBytes;

  FileGroupBuffers(long limitBytes, Flush<R> flush) {
    if (limitBytes <= 0) {
      throw new IllegalArgumentException("the buffer limit must be > 0 bytes, got " + limitBytes);
    }
    this.limitBytes = limitBytes;
    this.flush = flush;
  }

  void add(String partition, String fileGroup, R row, long bytes) {
    String key = partition + '\u0000' + fileGroup;
    if (bytes > limitBytes) {
      Buffer<R> pending = buffers.remove(key);
      if (pending == null) {
        List<R> alone = new ArrayList<>(1);
        alone.add(row);
        flush.flush(partition, fileGroup, alone);
        return;
      }
      bufferedBytes -= pending.bytes;
      pending.rows.add(row);
      flush.flush(partition, fileGroup, pending.rows);
      return;
    }
    while (bufferedBytes + bytes > limitBytes) {
      flush(largest());
    }
    Buffer<R> buffer = buffers.computeIfAbsent(key, k -> new Buffer<>(partition, fileGroup));
    buffer.rows.add(row);
    buffer.bytes += bytes;
    bufferedBytes += bytes;
    if (bufferedBytes > maxBufferedBytes) {
      maxBufferedBytes = bufferedBytes;
    }
  }

  /** Flushes every buffer, largest first. */
  void flushAll() {
    while (!buffers.isEmpty()) {
      flush(largest());
    }
  }

  long bufferedBytes() {
    return bufferedBytes;
  }

  long maxBufferedBytes() {
    return maxBufferedBytes;
  }

  private Buffer<R> largest() {
    Buffer<R> largest = null;
    for (Buffer<R> b : buffers.values()) {
      if (largest == null || b.bytes > largest.bytes) {
        largest = b;
      }
    }
    return largest;
  }

  private void flush(Buffer<R> buffer) {
    buffers.remove(buffer.partition + '\u0000' + buffer.fileGroup);
    bufferedBytes -= buffer.bytes;
    flush.flush(buffer.partition, buffer.fileGroup, buffer.rows);
  }
}
