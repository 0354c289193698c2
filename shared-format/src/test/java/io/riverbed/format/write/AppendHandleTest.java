package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.log.AvroDataBlock;
import io.riverbed.format.log.LogBlock;
import io.riverbed.format.log.LogFileReader;
import io.riverbed.format.record.AvroBinaryRecord;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.WriteStat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.io.EncoderFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppendHandleTest {
  static final String BASE = "20240101000000000";
  static final String OTHER = "20240101000000001";
  static final String MINE = "20240101000000002";
  @TempDir java.nio.file.Path dir;

  /**
   * Two writers append to one slice with the same write token (a Flink task and a Spark task, each
   * task 0 of 1, attempt 0): the other writer creates the version this one listed as next between
   * its listing and its create. This one takes the version after, and the other's file stays its own.
   */
  @Test
  void aLogVersionAnotherWriterCreatesAfterTheListingIsSkippedNotFailedOrOverwritten() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    FileGroupId group = new FileGroupId("2024-01-01", "g1");
    FileSlice slice = new FileSlice(group, BASE, Optional.empty(), List.of());
    AppendHandle.of(WriteTaskContext.single(table, BASE, WriteTestSupport.SCHEMA), group, Optional.empty())
        .append(List.of(upsert("1", "a", 1, "2024-01-01"))).orElseThrow();
    Runnable otherWriter = () -> AppendHandle.of(WriteTaskContext.single(table, OTHER, WriteTestSupport.SCHEMA), group,
        Optional.of(slice)).append(List.of(upsert("2", "other", 2, "2024-01-01"))).orElseThrow();
    Table racing = Table.open(new OtherWriterAfterListing(FileSystem.getLocal(new Configuration()), otherWriter),
        table.basePath());

    WriteStat mine = AppendHandle.of(WriteTaskContext.single(racing, MINE, WriteTestSupport.SCHEMA), group,
        Optional.of(slice)).append(List.of(upsert("3", "mine", 3, "2024-01-01"))).orElseThrow();

    String token = FileNames.writeToken(0, 1, 0);
    assertThat(mine.fileName()).isEqualTo(FileNames.logFileName("g1", BASE, 3, token));
    assertThat(mine.delta().logVersion()).isEqualTo(3);
    Path partition = table.partitionPath("2024-01-01");
    assertThat(blockInstants(table, new Path(partition, FileNames.logFileName("g1", BASE, 2, token))))
        .containsExactly(OTHER);
    assertThat(blockInstants(table, new Path(partition, mine.fileName()))).containsExactly(MINE);
  }

  /**
   * Upserts whose data an engine encoded itself ({@link AvroBinaryRecord}) are written as the bytes
   * of the same upserts given as Avro records: the same log file, byte for byte.
   */
  @Test
  void encodedRecordsMakeTheSameLogFileAsAvroRecords() throws Exception {
    List<WriteRecord> records = List.of(upsert("1", "a", 1, "2024-01-01"), upsert("2", null, 2, "2024-01-01"),
        upsert("3", "ü\u00e9 ✓", 3, "2024-01-01"), WriteRecord.delete("4", "2024-01-01", 4L));
    var codec = new AvroBinaryRecord.Codec(WriteTestSupport.SCHEMA);
    var writer = new GenericDatumWriter<GenericRecord>(WriteTestSupport.SCHEMA);
    List<WriteRecord> encoded = new ArrayList<>();
    for (WriteRecord r : records) {
      if (r.isDelete()) {
        encoded.add(r);
        continue;
      }
      var bytes = new ByteArrayOutputStream();
      var out = EncoderFactory.get().binaryEncoder(bytes, null);
      writer.write(r.data(), out);
      out.flush();
      encoded.add(WriteRecord.upsert(r.recordKey(), r.partitionPath(), codec.wrap(bytes.toByteArray()), r.orderingValue()));
    }
    FileGroupId group = new FileGroupId("2024-01-01", "g1");

    WriteStat fromRecords = AppendHandle.of(WriteTaskContext.single(WriteTestSupport.createTable(dir.resolve("records"),
        TableType.MERGE_ON_READ), BASE, WriteTestSupport.SCHEMA), group, Optional.empty()).append(records).orElseThrow();
    WriteStat fromBytes = AppendHandle.of(WriteTaskContext.single(WriteTestSupport.createTable(dir.resolve("bytes"),
        TableType.MERGE_ON_READ), BASE, WriteTestSupport.SCHEMA), group, Optional.empty()).append(encoded).orElseThrow();

    assertThat(fromBytes.path()).isEqualTo(fromRecords.path());
    byte[] expected = Files.readAllBytes(dir.resolve("records/orders").resolve(fromRecords.path()));
    assertThat(Files.readAllBytes(dir.resolve("bytes/orders").resolve(fromBytes.path()))).isEqualTo(expected);
    assertThat(fromBytes.numWrites()).isEqualTo(3);
    assertThat(fromBytes.numDeletes()).isEqualTo(1);
  }

  /** An encoded record of another schema than the table's is decoded and written as an Avro record. */
  @Test
  void encodedRecordsOfAnotherSchemaAreDecodedIntoTheTableSchema() throws Exception {
    Schema narrower = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
        .requiredString("id").requiredLong("ts").requiredString("dt").endRecord();
    GenericRecord data = new GenericRecordBuilder(narrower).set("id", "1").set("ts", 5L).set("dt", "2024-01-01").build();
    var bytes = new ByteArrayOutputStream();
    var out = EncoderFactory.get().binaryEncoder(bytes, null);
    new GenericDatumWriter<GenericRecord>(narrower).write(data, out);
    out.flush();
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    FileGroupId group = new FileGroupId("2024-01-01", "g1");

    WriteStat stat = AppendHandle.of(WriteTaskContext.single(table, BASE, WriteTestSupport.SCHEMA), group, Optional.empty())
        .append(List.of(WriteRecord.upsert("1", "2024-01-01", new AvroBinaryRecord.Codec(narrower).wrap(bytes.toByteArray()),
            5L))).orElseThrow();

    List<GenericRecord> read = new ArrayList<>();
    try (LogFileReader reader = LogFileReader.open(table.fs(), new Path(table.basePath(), stat.path()))) {
      read.addAll(((AvroDataBlock) reader.next()).records(TableSchemas.addMetaFields(WriteTestSupport.SCHEMA)));
    }
    assertThat(read).hasSize(1);
    assertThat(read.get(0).get("ts")).isEqualTo(5L);
    assertThat(read.get(0).get("name")).isNull();
    assertThat(read.get(0).get("_hoodie_record_key").toString()).isEqualTo("1");
  }

  private static List<String> blockInstants(Table table, Path log) {
    List<String> out = new ArrayList<>();
    try (LogFileReader reader = LogFileReader.open(table.fs(), log)) {
      while (reader.hasNext()) {
        LogBlock block = reader.next();
        out.add(block.instantTime());
      }
    }
    return out;
  }

  /** The local file system, where another writer runs right after the first listing of a folder. */
  private static final class OtherWriterAfterListing extends FilterFileSystem {
    private Runnable otherWriter;

    OtherWriterAfterListing(FileSystem local, Runnable otherWriter) {
      super(local);
      this.otherWriter = otherWriter;
    }

    @Override
    public FileStatus[] listStatus(Path folder) throws IOException {
      FileStatus[] listed = super.listStatus(folder);
      if (otherWriter != null && folder.getName().equals("2024-01-01")) {
        Runnable run = otherWriter;
        otherWriter = null;
        run.run();
      }
      return listed;
    }
  }
}
