package io.riverbed.format.log;

import static io.riverbed.format.log.LogTestSupport.SCHEMA;
import static io.riverbed.format.log.LogTestSupport.localFs;
import static io.riverbed.format.log.LogTestSupport.readBytes;
import static io.riverbed.format.log.LogTestSupport.record;
import static io.riverbed.format.log.LogTestSupport.writeLog;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockLayoutTest {

  private static final String T1 = "20250331030645735";
  private static final String T2 = "20250331030645736";

  @TempDir Path dir;
  private final FileSystem fs = localFs();

  private org.apache.hadoop.fs.Path file(String name) {
    return new org.apache.hadoop.fs.Path(dir.toUri().toString(), name);
  }

  @Test
  void rollbackCommandBlockIs105BytesWithBlockSize91AndTrailing97() throws Exception {
    var path = writeLog(fs, file(".f1_" + T1 + ".log.2_1-0-1"), CommandBlock.rollback(T2, T1));
    byte[] bytes = readBytes(fs, path);

    var expected = new ByteArrayOutputStream();
    var out = new DataOutputStream(expected);
    out.write("#HUDI#".getBytes(StandardCharsets.US_ASCII));
    out.writeLong(91);
    out.writeInt(1); // log format version
    out.writeInt(0); // COMMAND_BLOCK
    out.writeInt(3); // header entries
    out.writeInt(0);
    out.writeInt(17);
    out.write(T2.getBytes(StandardCharsets.UTF_8));
    out.writeInt(1);
    out.writeInt(17);
    out.write(T1.getBytes(StandardCharsets.UTF_8));
    out.writeInt(3);
    out.writeInt(1);
    out.write('0');
    out.writeLong(0); // content length
    out.writeInt(0); // footer
    out.writeLong(97);

    assertThat(bytes).hasSize(105).isEqualTo(expected.toByteArray());
  }

  @Test
  void avroDataBlockBytesArePinned() throws Exception {
    GenericRecord rec = record("k1", 7L, "alice");
    var path = writeLog(fs, file("data.log"), AvroDataBlock.of(T1, SCHEMA, List.of(rec)));
    byte[] bytes = readBytes(fs, path);

    byte[] avro = avroBytes(SCHEMA, rec);
    byte[] schemaJson = SCHEMA.toString().getBytes(StandardCharsets.UTF_8);
    var content = new ByteArrayOutputStream();
    var c = new DataOutputStream(content);
    c.writeInt(3);
    c.writeInt(1);
    c.writeInt(avro.length);
    c.write(avro);
    var header = new ByteArrayOutputStream();
    var h = new DataOutputStream(header);
    h.writeInt(2);
    h.writeInt(0);
    h.writeInt(17);
    h.write(T1.getBytes(StandardCharsets.UTF_8));
    h.writeInt(2);
    h.writeInt(schemaJson.length);
    h.write(schemaJson);
    long blockSize = 4 + 4 + header.size() + 8 + content.size() + 4 + 8;

    var expected = new ByteArrayOutputStream();
    var out = new DataOutputStream(expected);
    out.write("#HUDI#".getBytes(StandardCharsets.US_ASCII));
    out.writeLong(blockSize);
    out.writeInt(1);
    out.writeInt(3); // AVRO_DATA_BLOCK
    out.write(header.toByteArray());
    out.writeLong(content.size());
    out.write(content.toByteArray());
    out.writeInt(0);
    out.writeLong(blockSize + 6);

    assertThat(bytes).isEqualTo(expected.toByteArray());
    assertThat((long) bytes.length).isEqualTo(blockSize + 14);
  }

  @Test
  void reproducesFramingNumbersOfTheWorkedExample() throws Exception {
    // A schema whose JSON is 829 bytes and a record encoding to 228 bytes, as in the 0.15 sample.
    Schema schema = paddedSchema(829);
    GenericRecord rec = new GenericData.Record(schema);
    rec.put("s", "x".repeat(226)); // varint length (2 bytes) + 226 bytes
    assertThat(avroBytes(schema, rec)).hasSize(228);

    var path = writeLog(fs, file("example.log"), AvroDataBlock.of(T1, schema, List.of(rec)));
    ByteBuffer bytes = ByteBuffer.wrap(readBytes(fs, path));

    assertThat(bytes.capacity()).isEqualTo(1148);
    assertThat(bytes.getLong(6)).isEqualTo(1134);
    assertThat(bytes.getInt(14)).isEqualTo(1);
    assertThat(bytes.getInt(18)).isEqualTo(3);
    assertThat(bytes.getInt(22)).isEqualTo(2);
    int contentLengthAt = 26 + 4 + 4 + 17 + 4 + 4 + 829;
    assertThat(bytes.getLong(contentLengthAt)).isEqualTo(240);
    assertThat(bytes.getInt(contentLengthAt + 8)).isEqualTo(3);
    assertThat(bytes.getInt(contentLengthAt + 12)).isEqualTo(1);
    assertThat(bytes.getInt(contentLengthAt + 16)).isEqualTo(228);
    assertThat(bytes.getInt(1148 - 12)).isZero(); // empty footer
    assertThat(bytes.getLong(1148 - 8)).isEqualTo(1140);
  }

  @Test
  void appendReportsOffsetsAndCloseReturnsFileSize() throws Exception {
    var writer = LogFileWriter.create(fs, file("offsets.log"));
    AppendResult first = writer.append(CommandBlock.rollback(T2, T1));
    AppendResult second = writer.append(AvroDataBlock.of(T1, SCHEMA, List.of(record("k", 1, "a"))));
    long size = writer.close();

    assertThat(first).isEqualTo(new AppendResult(0, 105));
    assertThat(second.offset()).isEqualTo(105);
    assertThat(size).isEqualTo(105 + second.length()).isEqualTo(fs.getFileStatus(file("offsets.log")).getLen());
  }

  private static Schema paddedSchema(int jsonLength) {
    String template = "{\"type\":\"record\",\"name\":\"r\",\"doc\":\"%s\",\"fields\":[{\"name\":\"s\",\"type\":\"string\"}]}";
    int pad = jsonLength - template.formatted("").length();
    Schema schema = new Schema.Parser().parse(template.formatted("d".repeat(pad)));
    assertThat(schema.toString()).hasSize(jsonLength);
    return schema;
  }

  static byte[] avroBytes(Schema schema, GenericRecord rec) throws Exception {
    var out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(rec, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
