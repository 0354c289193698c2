package io.riverbed.format.log;

import io.riverbed.format.TableException;
import io.riverbed.format.record.OrderingValues;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Record key → {@link LogEntry}, kept in memory up to an estimated byte budget; keys added beyond
 * it go to an append-only spill file with an in-memory key → offset index (keys already in memory
 * stay there). Rewriting a spilled key appends a new version and moves its offset; old versions
 * are garbage until close. The spill file is created on first use and deleted on {@link #close()}.
 *
 * <p>Spill entry: {@code int length, byte kind, int keyLength, key UTF-8, Avro body} where the body
 * is the record in the reader schema (kind 0; its ordering value is recomputed when loaded) or a
 * {@code HoodieDeleteRecord} (kind 1).
 *
 * <p>Memory is estimated, not measured: every 64th new entry is serialized and its size, times
 * an object-overhead factor, updates a running average entry size.
 */
final class SpillableEntryMap implements Closeable {

  private static final byte UPSERT = 0;
  private static final byte DELETE = 1;
  private static final int SAMPLE_EVERY = 64;
  private static final int OBJECT_OVERHEAD_FACTOR = 3;
  private static final int WRITE_BUFFER = 1 << 16;

  private final long budgetBytes;
  private final Path spillDirectory;
  private final String orderingField;

  private final Map<String, LogEntry> inMemory = new HashMap<>();
  private final Map<String, Long> spilledOffsets = new HashMap<>();
  private final GenericDatumWriter<GenericRecord> recordWriter;
  private final GenericDatumReader<GenericRecord> recordReader;
  private final GenericDatumWriter<GenericRecord> deleteWriter = new GenericDatumWriter<>(DeleteRecordCodec.ENTRY);
  private final GenericDatumReader<GenericRecord> deleteReader = new GenericDatumReader<>(DeleteRecordCodec.ENTRY);
  private final BlockEncoder.Buffer serialized = new BlockEncoder.Buffer();
  private final DataOutputStream serializedOut = new DataOutputStream(serialized);
  private BinaryEncoder encoder;
  private BinaryDecoder decoder;

  private long averageEntryBytes;
  private long newEntries;
  private Path spillFile;
  private FileChannel channel;
  private ByteBuffer writeBuffer;
  private long flushedEnd;
  private long spilledEntries;

  SpillableEntryMap(long budgetBytes, Path spillDirectory, Schema recordSchema, String orderingField) {
    this.budgetBytes = budgetBytes;
    this.spillDirectory = spillDirectory;
    this.orderingField = orderingField;
    this.recordWriter = new GenericDatumWriter<>(recordSchema);
    this.recordReader = new GenericDatumReader<>(recordSchema);
  }

  LogEntry get(String key) {
    LogEntry entry = inMemory.get(key);
    if (entry != null) {
      return entry;
    }
    Long offset = spilledOffsets.get(key);
    return offset == null ? null : readAt(offset);
  }

  void put(LogEntry entry) {
    String key = entry.recordKey();
    if (inMemory.containsKey(key)) {
      inMemory.put(key, entry);
      return;
    }
    if (!spilledOffsets.containsKey(key)) {
      if (newEntries++ % SAMPLE_EVERY == 0) {
        sampleSize(entry);
      }
      if ((inMemory.size() + 1L) * averageEntryBytes <= budgetBytes) {
        inMemory.put(key, entry);
        return;
      }
    }
    spilledOffsets.put(key, append(entry));
  }

  int size() {
    return inMemory.size() + spilledOffsets.size();
  }

  long spilledEntries() {
    return spilledEntries;
  }

  /** All entries: in-memory ones first, then spilled ones, loaded one at a time. */
  Iterator<LogEntry> iterator() {
    Iterator<LogEntry> memory = inMemory.values().iterator();
    Iterator<Long> disk = spilledOffsets.values().iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return memory.hasNext() || disk.hasNext();
      }

      @Override
      public LogEntry next() {
        if (memory.hasNext()) {
          return memory.next();
        }
        if (disk.hasNext()) {
          return readAt(disk.next());
        }
        throw new NoSuchElementException();
      }
    };
  }

  @Override
  public void close() {
    inMemory.clear();
    spilledOffsets.clear();
    if (spillFile == null) {
      return;
    }
    try {
      channel.close();
      Files.deleteIfExists(spillFile);
    } catch (IOException e) {
      throw new TableException("Cannot delete log scan spill file " + spillFile, e);
    } finally {
      spillFile = null;
    }
  }

  private void sampleSize(LogEntry entry) {
    long bytes = 64L + 2L * entry.recordKey().length() + OBJECT_OVERHEAD_FACTOR * (long) serialize(entry);
    averageEntryBytes = averageEntryBytes == 0 ? bytes : (averageEntryBytes * 7 + bytes) / 8;
  }

  /** Serializes {@code entry} into {@link #serialized} (length prefix included); returns its size. */
  private int serialize(LogEntry entry) {
    serialized.reset();
    try {
      serializedOut.writeInt(0);
      byte[] key = entry.recordKey().getBytes(StandardCharsets.UTF_8);
      encoder = EncoderFactory.get().directBinaryEncoder(serialized, encoder);
      if (entry instanceof LogEntry.Upsert upsert) {
        serializedOut.writeByte(UPSERT);
        serializedOut.writeInt(key.length);
        serializedOut.write(key);
        recordWriter.write(upsert.record(), encoder);
      } else {
        var delete = (LogEntry.Delete) entry;
        serializedOut.writeByte(DELETE);
        serializedOut.writeInt(key.length);
        serializedOut.write(key);
        deleteWriter.write(DeleteRecordCodec.toAvro(
            new DeleteRecord(delete.recordKey(), delete.partitionPath(), delete.orderingValue())), encoder);
      }
      encoder.flush();
    } catch (IOException e) {
      throw new TableException("Cannot serialize log entry of key '" + entry.recordKey() + "'", e);
    }
    serialized.putInt(0, serialized.size() - 4);
    return serialized.size();
  }

  private long append(LogEntry entry) {
    int length = serialize(entry);
    try {
      if (channel == null) {
        Files.createDirectories(spillDirectory);
        spillFile = Files.createTempFile(spillDirectory, "riverbed-log-spill-", ".bin");
        channel = FileChannel.open(spillFile, StandardOpenOption.READ, StandardOpenOption.WRITE);
        writeBuffer = ByteBuffer.allocate(WRITE_BUFFER);
      }
      long offset = flushedEnd + writeBuffer.position();
      if (length > writeBuffer.remaining()) {
        flush();
      }
      if (length > writeBuffer.capacity()) {
        writeFully(ByteBuffer.wrap(serialized.array(), 0, length));
      } else {
        writeBuffer.put(serialized.array(), 0, length);
      }
      spilledEntries++;
      return offset;
    } catch (IOException e) {
      throw new TableException("Cannot write log scan spill file in " + spillDirectory, e);
    }
  }

  private void flush() throws IOException {
    writeBuffer.flip();
    writeFully(writeBuffer);
    writeBuffer.clear();
  }

  private void writeFully(ByteBuffer bytes) throws IOException {
    while (bytes.hasRemaining()) {
      flushedEnd += channel.write(bytes, flushedEnd);
    }
  }

  private LogEntry readAt(long offset) {
    try {
      if (offset >= flushedEnd) { // entries never straddle the flushed end
        flush();
      }
      ByteBuffer lengthBytes = ByteBuffer.allocate(4);
      readFully(lengthBytes, offset);
      byte[] body = new byte[lengthBytes.getInt(0)];
      readFully(ByteBuffer.wrap(body), offset + 4);
      var in = new DataInputStream(new ByteArrayInputStream(body));
      byte kind = in.readByte();
      byte[] keyBytes = new byte[in.readInt()];
      in.readFully(keyBytes);
      String key = new String(keyBytes, StandardCharsets.UTF_8);
      int avroStart = 1 + 4 + keyBytes.length;
      decoder = DecoderFactory.get().binaryDecoder(body, avroStart, body.length - avroStart, decoder);
      if (kind == UPSERT) {
        GenericRecord record = recordReader.read(null, decoder);
        return new LogEntry.Upsert(key, record, OrderingValues.ofLogRecord(record, orderingField, key));
      }
      DeleteRecord delete = DeleteRecordCodec.fromAvro(deleteReader.read(null, decoder));
      return new LogEntry.Delete(key, delete.partitionPath(), delete.orderingValue());
    } catch (IOException e) {
      throw new TableException("Cannot read log scan spill file " + spillFile + " at offset " + offset, e);
    }
  }

  private void readFully(ByteBuffer target, long position) throws IOException {
    long at = position;
    while (target.hasRemaining()) {
      int n = channel.read(target, at);
      if (n < 0) {
        throw new IOException("Unexpected end of spill file at offset " + at);
      }
      at += n;
    }
  }
}
