package io.riverbed.format.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.TableException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Assertions;

/**
 * Damaged log files (bytes flipped, inserted, cut; block sizes, header counts, value lengths,
 * content lengths, record counts and record lengths forged) never hang the reader, never make it
 * allocate what a forged length claims, and fail only with the project's exceptions: a block is
 * either read, returned as a {@link CorruptBlock}, or refused with a {@link TableException}.
 */
class LogFileReaderFuzzTest {

  /** A record schema with a string array, so forged item counts are exercised too. */
  static final Schema SCHEMA = SchemaBuilder.record("trip").namespace("hoodie.trips").fields()
      .optionalString("_hoodie_commit_time")
      .optionalString("_hoodie_record_key")
      .requiredLong("ts")
      .requiredString("rider")
      .name("tags").type().array().items().stringType().noDefault()
      .endRecord();

  /** What reading a damaged file of a few KB may allocate: buffers, never what a forged length claims. */
  static final long MAX_ALLOCATION = 32L << 20;

  static java.nio.file.Path dir;
  static FileSystem fs;
  static byte[] valid;
  /** Offsets of the blocks of {@link #valid}. */
  static List<Integer> blockStarts;

  @BeforeContainer
  static void writeValidLog() throws IOException {
    dir = Files.createTempDirectory("log-fuzz");
    fs = FileSystem.getLocal(new org.apache.hadoop.conf.Configuration()).getRawFileSystem();
    Path path = new Path(dir.resolve("valid.log").toUri());
    LogFileWriter writer = LogFileWriter.create(fs, path);
    try {
      int start0 = (int) writer.append(AvroDataBlock.of("20250101000000000", SCHEMA,
          List.of(record("k1", 1, "ann", List.of("a", "b")), record("k2", 2, "bob", List.of())))).offset();
      int start1 = (int) writer.append(DeleteBlock.of("20250101000000001", SCHEMA,
          List.of(new DeleteRecord("k1", "p1", 5L), new DeleteRecord("k3", "p1", 0)))).offset();
      int start2 = (int) writer.append(CommandBlock.rollback("20250101000000002", "20250101000000001")).offset();
      int start3 = (int) writer.append(AvroDataBlock.of("20250101000000003", SCHEMA,
          List.of(record("k4", 4, "cy", List.of("x"))))).offset();
      writer.close();
      blockStarts = List.of(start0, start1, start2, start3);
    } finally {
      writer.abort();
    }
    valid = Files.readAllBytes(dir.resolve("valid.log"));
  }

  @AfterContainer
  static void deleteDir() throws IOException {
    try (var files = Files.walk(dir)) {
      for (java.nio.file.Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  static GenericRecord record(String key, long ts, String rider, List<String> tags) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("_hoodie_commit_time", "20250101000000000");
    r.put("_hoodie_record_key", key);
    r.put("ts", ts);
    r.put("rider", rider);
    r.put("tags", tags);
    return r;
  }

  /** Reads every block and decodes every data and delete block; returns the number of blocks. */
  static int readFully(byte[] bytes) throws IOException {
    java.nio.file.Path file = Files.createTempFile(dir, "fuzz", ".log");
    try {
      Files.write(file, bytes);
      int blocks = 0;
      try (LogFileReader reader = LogFileReader.open(fs, new Path(file.toUri()))) {
        while (reader.hasNext()) {
          LogBlock block = reader.next();
          blocks++;
          if (block instanceof AvroDataBlock data) {
            data.records(SCHEMA);
          } else if (block instanceof DeleteBlock delete) {
            delete.deleteRecords();
          } else if (block instanceof CommandBlock command) {
            command.targetInstantTime();
          }
        }
      }
      return blocks;
    } finally {
      Files.delete(file);
    }
  }

  /** The damaged file is read, or refused with the project's exception; in bounded time. */
  static void assertReadsOrFailsCleanly(byte[] damaged) {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
      long before = threads.getCurrentThreadAllocatedBytes();
      try {
        readFully(damaged);
      } catch (TableException expected) {
        assertThat(expected.getMessage()).isNotBlank();
      }
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertThat(allocated).as("bytes allocated reading a %d-byte file", damaged.length).isLessThan(MAX_ALLOCATION);
    });
  }

  @Property(tries = 150)
  void flippedBytes(@ForAll("positionList") List<Integer> positions, @ForAll("bytes") List<Byte> values) {
    byte[] damaged = valid.clone();
    for (int i = 0; i < positions.size(); i++) {
      damaged[positions.get(i) % damaged.length] ^= (byte) (values.get(i % values.size()) | 1);
    }
    assertReadsOrFailsCleanly(damaged);
  }

  @Property(tries = 100)
  void insertedBytes(@ForAll("positions") int position, @ForAll byte[] inserted) {
    int at = position % (valid.length + 1);
    byte[] damaged = new byte[valid.length + inserted.length];
    System.arraycopy(valid, 0, damaged, 0, at);
    System.arraycopy(inserted, 0, damaged, at, inserted.length);
    System.arraycopy(valid, at, damaged, at + inserted.length, valid.length - at);
    assertReadsOrFailsCleanly(damaged);
  }

  @Property(tries = 100)
  void truncatedFiles(@ForAll("positions") int length) {
    assertReadsOrFailsCleanly(Arrays.copyOf(valid, length % valid.length));
  }

  @Property(tries = 60)
  void randomBytes(@ForAll byte[] bytes) {
    assertReadsOrFailsCleanly(bytes);
  }

  /**
   * A forged integer or long at a length-bearing position of a block: block size (offset 6),
   * header count (22), the first header value length (30); and within the content of the first
   * data block, which starts after its header.
   */
  @Property(tries = 200)
  void forgedLengthsAndCounts(@ForAll("fieldOffsets") int relative, @ForAll("blocks") int block,
      @ForAll("forgedValues") long value, @ForAll boolean asLong) {
    byte[] damaged = valid.clone();
    int at = blockStarts.get(block) + relative;
    if (asLong && at + 8 <= damaged.length) {
      ByteBuffer.wrap(damaged).putLong(at, value);
    } else if (at + 4 <= damaged.length) {
      ByteBuffer.wrap(damaged).putInt(at, (int) value);
    }
    assertReadsOrFailsCleanly(damaged);
  }

  /** Forged content lengths, record counts and record lengths of the first data block. */
  @Property(tries = 150)
  void forgedDataBlockContentFields(@ForAll("contentFields") int field, @ForAll("forgedValues") long value) {
    byte[] damaged = valid.clone();
    int contentLengthAt = contentLengthOffset(0);
    int at = switch (field) {
      case 0 -> contentLengthAt;             // long contentLength
      case 1 -> contentLengthAt + 8 + 4;     // int record count
      case 2 -> contentLengthAt + 8 + 8;     // int first record length
      default -> contentLengthAt + 8 + 12 + (int) Math.floorMod(value, 30); // a varint inside the first record
    };
    if (field == 0) {
      ByteBuffer.wrap(damaged).putLong(at, value);
    } else if (field <= 2) {
      ByteBuffer.wrap(damaged).putInt(at, (int) value);
    } else {
      writeVarint(damaged, at, value);
    }
    assertReadsOrFailsCleanly(damaged);
  }

  @Property(tries = 10)
  void theValidFileReadsCompletely(@ForAll("positions") int ignored) throws IOException {
    assertThat(readFully(valid)).isEqualTo(4);
  }

  /** Avro's zig-zag varint of {@code value} at {@code at}, cut off at the end of {@code bytes}. */
  static void writeVarint(byte[] bytes, int at, long value) {
    long n = (value << 1) ^ (value >> 63);
    while (at < bytes.length) {
      if ((n & ~0x7FL) == 0) {
        bytes[at] = (byte) n;
        return;
      }
      bytes[at++] = (byte) ((n & 0x7F) | 0x80);
      n >>>= 7;
    }
  }

  /** Offset of the content length long of the block starting at {@code blockStarts[block]}. */
  static int contentLengthOffset(int block) {
    ByteBuffer b = ByteBuffer.wrap(valid);
    int at = blockStarts.get(block) + 22;
    int count = b.getInt(at);
    at += 4;
    for (int i = 0; i < count; i++) {
      int length = b.getInt(at + 4);
      at += 8 + length;
    }
    return at;
  }

  @Provide
  Arbitrary<Integer> positions() {
    return Arbitraries.integers().between(0, Integer.MAX_VALUE);
  }

  @Provide
  Arbitrary<List<Integer>> positionList() {
    return positions().list().ofMinSize(1).ofMaxSize(8);
  }

  @Provide
  Arbitrary<List<Byte>> bytes() {
    return Arbitraries.bytes().list().ofMinSize(1).ofMaxSize(8);
  }

  @Provide
  Arbitrary<Integer> fieldOffsets() {
    return Arbitraries.of(6, 10, 14, 18, 22, 26, 30, 34);
  }

  @Provide
  Arbitrary<Integer> blocks() {
    return Arbitraries.integers().between(0, 3);
  }

  @Provide
  Arbitrary<Integer> contentFields() {
    return Arbitraries.integers().between(0, 3);
  }

  @Provide
  Arbitrary<Long> forgedValues() {
    return Arbitraries.oneOf(
        Arbitraries.of(0L, -1L, 1L, 7L, (long) Integer.MAX_VALUE, (long) Integer.MIN_VALUE, Long.MAX_VALUE,
            Long.MIN_VALUE, Integer.MAX_VALUE - 8L, 1L << 31, 1L << 40),
        Arbitraries.longs(),
        Combinators.combine(Arbitraries.integers().between(-64, 64), Arbitraries.just(valid.length))
            .as((d, n) -> (long) n + d));
  }
}
