package io.riverbed.format.log;

import static io.riverbed.format.log.LogTestSupport.SCHEMA;
import static io.riverbed.format.log.LogTestSupport.localFs;
import static io.riverbed.format.log.LogTestSupport.readAll;
import static io.riverbed.format.log.LogTestSupport.readBytes;
import static io.riverbed.format.log.LogTestSupport.record;
import static io.riverbed.format.log.LogTestSupport.writeBytes;
import static io.riverbed.format.log.LogTestSupport.writeLog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidRecordException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BlockRoundTripTest {

  private static final String T1 = "20250101000000001";
  private static final String T2 = "20250101000000002";

  @TempDir Path dir;
  private final FileSystem fs = localFs();

  private org.apache.hadoop.fs.Path file(String name) {
    return new org.apache.hadoop.fs.Path(dir.toUri().toString(), name);
  }

  @Test
  void dataDeleteAndCommandBlocksReadBackInOrder() {
    var records = List.of(record("k1", 1, "a"), record("k2", 2, "b"));
    var deletes = List.of(new DeleteRecord("k1", "p1", 5L));
    var path = writeLog(fs, file("all.log"), AvroDataBlock.of(T1, SCHEMA, records),
        DeleteBlock.of(T1, SCHEMA, deletes), CommandBlock.rollback(T2, T1));

    List<LogBlock> blocks = readAll(fs, path);

    assertThat(blocks).extracting(LogBlock::type)
        .containsExactly(BlockType.AVRO_DATA_BLOCK, BlockType.DELETE_BLOCK, BlockType.COMMAND_BLOCK);
    var data = (AvroDataBlock) blocks.get(0);
    assertThat(data.instantTime()).isEqualTo(T1);
    assertThat(data.writerSchema()).isEqualTo(SCHEMA);
    assertThat(data.records(SCHEMA)).isEqualTo(records);
    var delete = (DeleteBlock) blocks.get(1);
    assertThat(delete.header()).containsEntry(HeaderKey.SCHEMA, SCHEMA.toString());
    assertThat(delete.deleteRecords()).isEqualTo(deletes);
    var command = (CommandBlock) blocks.get(2);
    assertThat(command.isRollback()).isTrue();
    assertThat(command.instantTime()).isEqualTo(T2);
    assertThat(command.targetInstantTime()).isEqualTo(T1);
    assertThat(blocks.get(1).location().orElseThrow().offset())
        .isEqualTo(blocks.get(0).location().orElseThrow().length());
  }

  @Test
  void dataBlockDecodesWithEvolvedReaderSchema() {
    var path = writeLog(fs, file("evolve.log"), AvroDataBlock.of(T1, SCHEMA, List.of(record("k1", 1, "a"))));
    Schema evolved = SchemaBuilder.record("trip").namespace("hoodie.trips").fields()
        .optionalString("_hoodie_record_key")
        .requiredLong("ts")
        .name("fare").type().doubleType().doubleDefault(9.5)
        .endRecord();

    GenericRecord read = ((AvroDataBlock) readAll(fs, path).get(0)).records(evolved).get(0);

    assertThat(read.get("_hoodie_record_key")).hasToString("k1");
    assertThat(read.get("ts")).isEqualTo(1L);
    assertThat(read.get("fare")).isEqualTo(9.5);
    assertThat(read.getSchema().getField("rider")).isNull();
  }

  static Stream<Arguments> orderingValues() {
    return Stream.of(
        Arguments.of(true, true),
        Arguments.of(42, 42),
        Arguments.of(42L, 42L),
        Arguments.of(1.5f, 1.5f),
        Arguments.of(2.5d, 2.5d),
        Arguments.of(ByteBuffer.wrap(new byte[] {1, 2, 3}), ByteBuffer.wrap(new byte[] {1, 2, 3})),
        Arguments.of("abc", "abc"),
        Arguments.of(new Utf8("abc"), "abc"),
        Arguments.of(LocalDate.of(2024, 2, 29), LocalDate.of(2024, 2, 29)),
        Arguments.of(new BigDecimal("12.5"), new BigDecimal("12.500000000000000")),
        Arguments.of(LocalTime.of(10, 15, 30, 123_456_000), 36_930_123_456L),
        Arguments.of(Instant.parse("2024-05-01T10:00:00.123456Z"), Instant.parse("2024-05-01T10:00:00.123456Z")),
        Arguments.of(null, 0));
  }

  @ParameterizedTest
  @MethodSource("orderingValues")
  void deleteOrderingValueRoundTrips(Comparable<?> written, Comparable<?> expected) {
    var path = writeLog(fs, file("delete.log"), DeleteBlock.of(T1, SCHEMA, List.of(new DeleteRecord("k", "p", written))));

    DeleteRecord read = ((DeleteBlock) readAll(fs, path).get(0)).deleteRecords().get(0);

    assertThat(read.orderingValue()).isEqualTo(expected);
    assertThat(read.orderingValue().getClass()).isEqualTo(expected.getClass());
  }

  @Test
  void deleteWithoutOrderingValueIsWrittenAsIntWrapperZero() throws Exception {
    var path = writeLog(fs, file("zero.log"), DeleteBlock.of(T1, SCHEMA, List.of(DeleteRecord.of("k", "p"))));
    byte[] bytes = readBytes(fs, path);
    // payload: array count 1 (zigzag 02), key branch 1 (02) len 1 (02) 'k', partition same, union branch 2 (04)
    // IntWrapper value 0 (00), end of array (00)
    byte[] payload = {0x02, 0x02, 0x02, 'k', 0x02, 0x02, 'p', 0x04, 0x00, 0x00};
    int contentEnd = bytes.length - 8 - 4;
    var content = ByteBuffer.wrap(bytes, contentEnd - payload.length - 8, payload.length + 8);
    assertThat(content.getInt()).isEqualTo(3);
    assertThat(content.getInt()).isEqualTo(payload.length);
    byte[] actual = new byte[payload.length];
    content.get(actual);
    assertThat(actual).isEqualTo(payload);
  }

  @Test
  void decimalThatDoesNotFitScale15IsRejected() {
    var block = DeleteBlock.of(T1, SCHEMA, List.of(new DeleteRecord("k", "p", new BigDecimal("1.0000000000000001"))));
    var writer = LogFileWriter.create(fs, file("dec.log"));
    assertThatThrownBy(() -> writer.append(block)).isInstanceOf(InvalidRecordException.class).hasMessageContaining("'k'");
    writer.abort();
  }

  @Test
  void unknownHeaderKeyOrdinalIsSkipped() throws Exception {
    byte[] header = rawHeader(Map.of(42, "true", 0, T1)); // no Hudi version has key 42
    byte[] block = rawBlock(BlockType.DELETE_BLOCK.ordinal(), header, deletePayloadFor("k"));
    var path = file("unknown-key.log");
    writeBytes(fs, path, block);

    List<LogBlock> blocks = readAll(fs, path);

    assertThat(blocks).hasSize(1);
    assertThat(blocks.get(0).header()).containsOnlyKeys(HeaderKey.INSTANT_TIME);
    assertThat(((DeleteBlock) blocks.get(0)).deleteRecords()).extracting(DeleteRecord::recordKey).containsExactly("k");
  }

  @Test
  void hudi1HeaderKeysAreReadByTheirOrdinals() throws Exception {
    // 8: BASE_FILE_INSTANT_TIME_OF_RECORD_POSITIONS in Hudi 1.x
    var path = file("hudi1-keys.log");
    writeBytes(fs, path, rawBlock(BlockType.DELETE_BLOCK.ordinal(), rawHeader(Map.of(8, T1, 0, T1)),
        deletePayloadFor("k")));

    List<LogBlock> blocks = readAll(fs, path);

    assertThat(blocks.get(0).header())
        .containsEntry(HeaderKey.BASE_FILE_INSTANT_TIME_OF_RECORD_POSITIONS, T1)
        .containsEntry(HeaderKey.INSTANT_TIME, T1);
  }

  @Test
  void dataBlockOfPartialUpdatesIsRefusedNamingTheFile() throws Exception {
    var partial = file("partial-only.log");
    // 7: IS_PARTIAL in Hudi 1.x
    writeBytes(fs, partial, rawBlock(BlockType.AVRO_DATA_BLOCK.ordinal(), rawHeader(Map.of(0, T1, 7, "true")),
        new byte[] {0}));

    assertThatThrownBy(() -> readAll(fs, partial))
        .isInstanceOf(io.riverbed.format.TableException.class)
        .hasMessageContaining(partial.getName())
        .hasMessageContaining("partial updates");
  }

  @Test
  void recordNotMatchingBlockSchemaFailsWithoutTouchingTheFile() {
    Schema other = SchemaBuilder.record("x").fields().requiredInt("a").endRecord();
    GenericRecord bad = new GenericData.Record(other);
    bad.put("a", 1);
    var path = file("bad.log");
    var writer = LogFileWriter.create(fs, path);
    writer.append(CommandBlock.rollback(T2, T1));

    assertThatThrownBy(() -> writer.append(AvroDataBlock.of(T1, SCHEMA, List.of(bad))))
        .isInstanceOf(InvalidRecordException.class);
    writer.append(CommandBlock.rollback(T2, T1));
    assertThat(writer.close()).isEqualTo(210);
    assertThat(readAll(fs, path)).hasSize(2);
  }

  @Test
  void abortDeletesFileWithoutCompleteBlocks() throws Exception {
    var path = file("aborted.log");
    var writer = LogFileWriter.create(fs, path);
    writer.abort();
    assertThat(fs.exists(path)).isFalse();
  }

  static byte[] deletePayloadFor(String key) throws Exception {
    var out = new ByteArrayOutputStream();
    new DeleteRecordCodec().encode(List.of(DeleteRecord.of(key, "p")), out);
    byte[] payload = out.toByteArray();
    return ByteBuffer.allocate(8 + payload.length).putInt(3).putInt(payload.length).put(payload).array();
  }

  /** A header map as the log format stores it: entry count, then key ordinal, length and UTF-8 value, keys ascending. */
  static byte[] rawHeader(Map<Integer, String> entries) throws IOException {
    var header = new ByteArrayOutputStream();
    var h = new DataOutputStream(header);
    h.writeInt(entries.size());
    for (var e : new java.util.TreeMap<>(entries).entrySet()) {
      byte[] value = e.getValue().getBytes(StandardCharsets.UTF_8);
      h.writeInt(e.getKey());
      h.writeInt(value.length);
      h.write(value);
    }
    return header.toByteArray();
  }

  /** A well-framed block with the given type ordinal, raw header map bytes and content. */
  static byte[] rawBlock(int type, byte[] header, byte[] content) {
    long blockSize = 4 + 4 + header.length + 8 + content.length + 4 + 8;
    return ByteBuffer.allocate((int) blockSize + 14)
        .put("#HUDI#".getBytes(StandardCharsets.US_ASCII)).putLong(blockSize).putInt(1).putInt(type)
        .put(header).putLong(content.length).put(content).putInt(0).putLong(blockSize + 6).array();
  }
}
