package io.riverbed.format.log;

import io.riverbed.format.CorruptFileException;
import io.riverbed.format.TableException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Iterates the blocks of one log file in file order. Block content is not read here: data and
 * delete blocks decode lazily when asked (see {@link AvroDataBlock}, {@link DeleteBlock}).
 *
 * <p>Corruption handling follows Hudi's {@code HoodieLogFileReader}: a block is accepted only if
 * its trailing long equals {@code blockSize + 6} and the 6 bytes after it are the magic or the end
 * of the file. Anything else — bad magic, a size running past the end, a truncated tail, internal
 * lengths that do not add up — comes back as a {@link CorruptBlock} spanning up to the next magic
 * (or the end of the file), and reading continues there. Truncation never throws.
 *
 * <p>A well-framed block that this reader cannot interpret fails loudly with a
 * {@link CorruptFileException} naming file and offset, instead of being silently skipped: an
 * unknown block type ordinal (≥ 7, or 2 which is never written) or a log format version other
 * than 1. Known but undecoded types (HFile, Parquet, CDC) come back as {@link UndecodedBlock}.
 */
public final class LogFileReader implements Iterator<LogBlock>, Closeable {

  private static final int SCAN_BUFFER = 1 << 16;
  /** Header maps with more entries than this are treated as corruption. */
  private static final int MAX_MAP_ENTRIES = 1024;

  private final FileSystem fs;
  private final Path path;
  private final FSDataInputStream in;
  private final long fileLength;
  private final byte[] scratch = new byte[16];
  private long position;
  private LogBlock next;

  private LogFileReader(FileSystem fs, Path path, FSDataInputStream in, long fileLength) {
    this.fs = fs;
    this.path = path;
    this.in = in;
    this.fileLength = fileLength;
  }

  /** Opens {@code path}, reading up to its current length. */
  public static LogFileReader open(FileSystem fs, Path path) {
    try {
      return open(fs, path, fs.getFileStatus(path).getLen());
    } catch (IOException e) {
      throw new TableException("Cannot stat log file " + path, e);
    }
  }

  /** Opens {@code path}, treating {@code fileLength} as its end (e.g. the length a listing reported). */
  public static LogFileReader open(FileSystem fs, Path path, long fileLength) {
    try {
      return new LogFileReader(fs, path, fs.open(path), fileLength);
    } catch (IOException e) {
      throw new TableException("Cannot open log file " + path, e);
    }
  }

  public Path path() {
    return path;
  }

  /** The length the file is read up to. */
  public long length() {
    return fileLength;
  }

  @Override
  public boolean hasNext() {
    if (next == null && position < fileLength) {
      try {
        next = readBlockAt(position);
      } catch (IOException e) {
        throw new TableException("Cannot read log file " + path + " at offset " + position, e);
      }
      position += next.location().orElseThrow().length();
    }
    return next != null;
  }

  @Override
  public LogBlock next() {
    if (!hasNext()) {
      throw new NoSuchElementException("No more blocks in " + path);
    }
    LogBlock block = next;
    next = null;
    return block;
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      throw new TableException("Cannot close log file " + path, e);
    }
  }

  private LogBlock readBlockAt(long start) throws IOException {
    long remaining = fileLength - start;
    if (remaining < LogFormat.FRAME_PREFIX) {
      return remaining >= LogFormat.MAGIC_LENGTH && magicAt(start)
          ? corrupt(start, fileLength)
          : corrupt(start, nextMagic(start + 1));
    }
    in.readFully(start, scratch, 0, LogFormat.FRAME_PREFIX);
    if (!LogFormat.isMagic(scratch, 0)) {
      return corrupt(start, nextMagic(start + 1));
    }
    long blockSize = longAt(scratch, LogFormat.MAGIC_LENGTH);
    long end = start + LogFormat.FRAME_PREFIX + blockSize;
    if (blockSize < LogFormat.MIN_BLOCK_SIZE || blockSize > remaining - LogFormat.FRAME_PREFIX
        || !trailingMatches(end - 8, blockSize) || !magicOrEndAt(end)) {
      return corrupt(start, nextMagic(start + LogFormat.MAGIC_LENGTH));
    }
    LogBlock block = parse(start, end);
    return block != null ? block : corrupt(start, end);
  }

  /** Parses a well-framed block; {@code null} if its internal lengths are inconsistent. */
  private LogBlock parse(long start, long end) throws IOException {
    var cursor = new Cursor(start + LogFormat.FRAME_PREFIX, end - 8);
    int version = cursor.readInt();
    int typeOrdinal = cursor.readInt();
    if (version != LogFormat.LOG_FORMAT_VERSION) {
      throw new CorruptFileException("Unsupported log format version " + version + " in " + path + " at offset " + start);
    }
    BlockType type = BlockType.fromOrdinal(typeOrdinal);
    if (type == null || type == BlockType.CORRUPT_BLOCK) {
      throw new CorruptFileException("Unknown log block type " + typeOrdinal + " in " + path + " at offset " + start);
    }
    Map<HeaderKey, String> header = cursor.readMap();
    if (header == null || !cursor.has(8)) {
      return null;
    }
    long contentLength = cursor.readLong();
    if (contentLength < 0 || !cursor.has(contentLength + 4)) {
      return null;
    }
    long contentOffset = cursor.position;
    cursor.skip(contentLength);
    Map<HeaderKey, String> footer = cursor.readMap();
    if (footer == null || cursor.position != end - 8) {
      return null;
    }
    var location = new BlockLocation(path, start, end - start);
    if (type == BlockType.AVRO_DATA_BLOCK && Boolean.parseBoolean(header.get(HeaderKey.IS_PARTIAL))) {
      throw new TableException("log block at offset " + start + " of " + path + " (instant "
          + header.get(HeaderKey.INSTANT_TIME) + ") holds partial updates (Hudi 1.x IS_PARTIAL header); "
          + "Riverbed does not merge partial updates");
    }
    var content = new BlockContent.InFile(fs, path, contentOffset, contentLength);
    return switch (type) {
      case AVRO_DATA_BLOCK -> AvroDataBlock.read(header, content, location);
      case DELETE_BLOCK -> DeleteBlock.read(header, content, location);
      case COMMAND_BLOCK -> new CommandBlock(header, java.util.Optional.of(location));
      default -> new UndecodedBlock(type, header, location);
    };
  }

  private boolean trailingMatches(long at, long blockSize) throws IOException {
    in.readFully(at, scratch, 0, 8);
    return longAt(scratch, 0) == blockSize + LogFormat.MAGIC_LENGTH;
  }

  /** Hudi accepts a block followed by the magic or by end of file (fewer than 6 bytes left). */
  private boolean magicOrEndAt(long at) throws IOException {
    return fileLength - at < LogFormat.MAGIC_LENGTH || magicAt(at);
  }

  private boolean magicAt(long at) throws IOException {
    in.readFully(at, scratch, 0, LogFormat.MAGIC_LENGTH);
    return LogFormat.isMagic(scratch, 0);
  }

  /** Offset of the first magic at or after {@code from}, or the file length. */
  private long nextMagic(long from) throws IOException {
    byte[] buffer = new byte[SCAN_BUFFER];
    long at = from;
    while (fileLength - at >= LogFormat.MAGIC_LENGTH) {
      int n = (int) Math.min(buffer.length, fileLength - at);
      in.readFully(at, buffer, 0, n);
      for (int i = 0; i + LogFormat.MAGIC_LENGTH <= n; i++) {
        if (buffer[i] == '#' && LogFormat.isMagic(buffer, i)) {
          return at + i;
        }
      }
      if (at + n >= fileLength) {
        break;
      }
      at += n - (LogFormat.MAGIC_LENGTH - 1);
    }
    return fileLength;
  }

  private CorruptBlock corrupt(long start, long end) {
    return new CorruptBlock(new BlockLocation(path, start, end - start));
  }

  private static long longAt(byte[] bytes, int at) {
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | (bytes[at + i] & 0xFF);
    }
    return value;
  }

  /** Sequential reads inside one block, never past its limit. */
  private final class Cursor {
    long position;
    final long limit;

    Cursor(long position, long limit) throws IOException {
      this.position = position;
      this.limit = limit;
      in.seek(position);
    }

    boolean has(long bytes) {
      return limit - position >= bytes;
    }

    int readInt() throws IOException {
      position += 4;
      return in.readInt();
    }

    long readLong() throws IOException {
      position += 8;
      return in.readLong();
    }

    void skip(long bytes) throws IOException {
      position += bytes;
      in.seek(position);
    }

    /** A metadata map with unknown keys dropped; {@code null} if it does not fit the block. */
    Map<HeaderKey, String> readMap() throws IOException {
      if (!has(4)) {
        return null;
      }
      int count = readInt();
      if (count < 0 || count > MAX_MAP_ENTRIES || !has(8L * count)) {
        return null;
      }
      var map = new EnumMap<HeaderKey, String>(HeaderKey.class);
      for (int i = 0; i < count; i++) {
        if (!has(8)) {
          return null;
        }
        int key = readInt();
        int length = readInt();
        if (length < 0 || !has(length)) {
          return null;
        }
        byte[] value = new byte[length];
        in.readFully(value);
        position += length;
        HeaderKey headerKey = HeaderKey.fromOrdinal(key);
        if (headerKey != null) {
          map.put(headerKey, new String(value, StandardCharsets.UTF_8));
        }
      }
      return map;
    }
  }
}
