package io.riverbed.format.log;

import static io.riverbed.format.log.LogTestSupport.SCHEMA;
import static io.riverbed.format.log.LogTestSupport.concat;
import static io.riverbed.format.log.LogTestSupport.localFs;
import static io.riverbed.format.log.LogTestSupport.readAll;
import static io.riverbed.format.log.LogTestSupport.readBytes;
import static io.riverbed.format.log.LogTestSupport.record;
import static io.riverbed.format.log.LogTestSupport.writeBytes;
import static io.riverbed.format.log.LogTestSupport.writeLog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CorruptFileException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CorruptBlockTest {

  private static final String T1 = "20250101000000001";
  private static final String T2 = "20250101000000002";

  @TempDir Path dir;
  private final FileSystem fs = localFs();

  private org.apache.hadoop.fs.Path file(String name) {
    return new org.apache.hadoop.fs.Path(dir.toUri().toString(), name);
  }

  private byte[] twoDataBlocks() throws Exception {
    var path = writeLog(fs, file("src-" + System.nanoTime() + ".log"),
        AvroDataBlock.of(T1, SCHEMA, List.of(record("k1", 1, "a"))),
        AvroDataBlock.of(T2, SCHEMA, List.of(record("k2", 2, "b"))));
    return readBytes(fs, path);
  }

  @ParameterizedTest(name = "cut {0} bytes into the last block")
  @ValueSource(ints = {1, 5, 6, 13, 14, 40, -1, -8})
  void truncatedLastBlockComesBackAsCorruptBlockAfterEarlierBlocks(int cut) throws Exception {
    byte[] full = twoDataBlocks();
    long firstLength = ByteBuffer.wrap(full).getLong(6) + 14;
    int keep = cut > 0 ? (int) firstLength + cut : full.length + cut;
    var path = file("truncated.log");
    writeBytes(fs, path, Arrays.copyOf(full, keep));

    List<LogBlock> blocks = readAll(fs, path);

    assertThat(blocks).hasSize(2);
    assertThat(((AvroDataBlock) blocks.get(0)).records(SCHEMA)).containsExactly(record("k1", 1, "a"));
    assertThat(blocks.get(1)).isInstanceOf(CorruptBlock.class);
    assertThat(blocks.get(1).location().orElseThrow())
        .isEqualTo(new BlockLocation(path, firstLength, keep - firstLength));
  }

  @Test
  void garbageAfterABlockMakesThatBlockCorruptUpToTheNextMagicAndFollowingBlocksAreRead() throws Exception {
    // Hudi's rule: a block must be followed by MAGIC or EOF, so the block before the garbage is lost too.
    byte[] full = twoDataBlocks();
    int firstLength = (int) ByteBuffer.wrap(full).getLong(6) + 14;
    byte[] garbage = "not a block at all".getBytes(StandardCharsets.US_ASCII);
    var path = file("garbage.log");
    writeBytes(fs, path, concat(Arrays.copyOf(full, firstLength), garbage,
        Arrays.copyOfRange(full, firstLength, full.length)));

    List<LogBlock> blocks = readAll(fs, path);

    assertThat(blocks).extracting(LogBlock::type).containsExactly(BlockType.CORRUPT_BLOCK, BlockType.AVRO_DATA_BLOCK);
    assertThat(blocks.get(0).location().orElseThrow().length()).isEqualTo(firstLength + garbage.length);
    assertThat(((AvroDataBlock) blocks.get(1)).records(SCHEMA)).containsExactly(record("k2", 2, "b"));
  }

  @Test
  void garbageBeforeTheFirstBlockIsACorruptBlockAndAllBlocksAreRead() throws Exception {
    byte[] full = twoDataBlocks();
    byte[] garbage = "junk".getBytes(StandardCharsets.US_ASCII);
    var path = file("leading-garbage.log");
    writeBytes(fs, path, concat(garbage, full));

    List<LogBlock> blocks = readAll(fs, path);

    assertThat(blocks).extracting(LogBlock::type)
        .containsExactly(BlockType.CORRUPT_BLOCK, BlockType.AVRO_DATA_BLOCK, BlockType.AVRO_DATA_BLOCK);
    assertThat(blocks.get(0).location().orElseThrow().length()).isEqualTo(garbage.length);
  }

  @Test
  void blockWithWrongTrailingLengthIsCorruptUpToTheNextMagic() throws Exception {
    byte[] full = twoDataBlocks();
    int firstLength = (int) ByteBuffer.wrap(full).getLong(6) + 14;
    ByteBuffer.wrap(full).putLong(firstLength - 8, 12345L);
    var path = file("trailing.log");
    writeBytes(fs, path, full);

    List<LogBlock> blocks = readAll(fs, path);

    assertThat(blocks).extracting(LogBlock::type).containsExactly(BlockType.CORRUPT_BLOCK, BlockType.AVRO_DATA_BLOCK);
    assertThat(blocks.get(0).location().orElseThrow().length()).isEqualTo(firstLength);
  }

  @Test
  void partialBlockFollowedByACompleteBlockIsSkippedUsingTheMagic() throws Exception {
    byte[] full = twoDataBlocks();
    int firstLength = (int) ByteBuffer.wrap(full).getLong(6) + 14;
    byte[] partialFirst = Arrays.copyOf(full, firstLength - 20);
    var path = file("partial.log");
    writeBytes(fs, path, concat(partialFirst, Arrays.copyOfRange(full, firstLength, full.length)));

    List<LogBlock> blocks = readAll(fs, path);

    assertThat(blocks).extracting(LogBlock::type).containsExactly(BlockType.CORRUPT_BLOCK, BlockType.AVRO_DATA_BLOCK);
    assertThat(blocks.get(0).location().orElseThrow().length()).isEqualTo(partialFirst.length);
  }

  @Test
  void fileLengthGivenByCallerLimitsTheRead() throws Exception {
    byte[] full = twoDataBlocks();
    int firstLength = (int) ByteBuffer.wrap(full).getLong(6) + 14;
    var path = file("limited.log");
    writeBytes(fs, path, full);

    try (var reader = LogFileReader.open(fs, path, firstLength)) {
      assertThat(reader.next().type()).isEqualTo(BlockType.AVRO_DATA_BLOCK);
      assertThat(reader.hasNext()).isFalse();
    }
  }

  @Test
  void unknownBlockTypeFailsNamingFileAndOffset() throws Exception {
    byte[] block = BlockRoundTripTest.rawBlock(9, new byte[] {0, 0, 0, 0}, new byte[0]);
    var path = file("unknown-type.log");
    byte[] prefix = readBytes(fs, writeLog(fs, file("prefix.log"), CommandBlock.rollback(T2, T1)));
    writeBytes(fs, path, concat(prefix, block));

    try (var reader = LogFileReader.open(fs, path)) {
      reader.next();
      assertThatThrownBy(reader::next).isInstanceOf(CorruptFileException.class)
          .hasMessageContaining("type 9").hasMessageContaining("unknown-type.log").hasMessageContaining("offset 105");
    }
  }

  @Test
  void parquetBlockIsFramedButNotDecoded() throws Exception {
    byte[] header = ByteBuffer.allocate(4 + 8 + 17).putInt(1).putInt(0).putInt(17)
        .put(T1.getBytes(StandardCharsets.UTF_8)).array();
    var path = file("parquet.log");
    writeBytes(fs, path, BlockRoundTripTest.rawBlock(5, header, "PAR1....PAR1".getBytes(StandardCharsets.US_ASCII)));

    List<LogBlock> blocks = readAll(fs, path);

    assertThat(blocks).singleElement().isInstanceOf(UndecodedBlock.class);
    assertThat(blocks.get(0).type()).isEqualTo(BlockType.PARQUET_DATA_BLOCK);
    assertThat(blocks.get(0).instantTime()).isEqualTo(T1);
  }
}
