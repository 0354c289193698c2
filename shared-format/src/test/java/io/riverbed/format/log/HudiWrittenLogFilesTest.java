package io.riverbed.format.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** Log files Apache Hudi 0.15 wrote (golden table {@code mor_small}), read block by block. */
class HudiWrittenLogFilesTest {
  static final String GROUP = ".9485e3af-2943-4d0a-a28a-ebff67078cef-0_20261129140349527.log.";
  static final String UPSERT = "20261129140351987";
  static final String DELETE = "20261129140355136";
  static final String ROLLED_BACK = "20261129140356";
  static final String ROLLBACK = "20261129140357280";

  static List<LogBlock> blocks(String fileName) throws Exception {
    java.nio.file.Path dir = java.nio.file.Path.of(HudiWrittenLogFilesTest.class.getResource("/hudi-0.15/mor_small/asia/india/chennai").toURI());
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    List<LogBlock> out = new ArrayList<>();
    try (LogFileReader reader = LogFileReader.open(fs, new Path(dir.resolve(fileName).toUri()))) {
      reader.forEachRemaining(out::add);
    }
    return out;
  }

  @Test
  void avroDataBlockOfAnUpsertDecodesWithItsSchemaHeader() throws Exception {
    List<LogBlock> blocks = blocks(GROUP + "1_1-21-47");
    assertThat(blocks).singleElement().isInstanceOf(AvroDataBlock.class);
    AvroDataBlock data = (AvroDataBlock) blocks.get(0);
    assertThat(data.instantTime()).isEqualTo(UPSERT);
    assertThat(data.header()).containsKeys(HeaderKey.INSTANT_TIME, HeaderKey.SCHEMA).doesNotContainKey(HeaderKey.BLOCK_IDENTIFIER);
    Schema schema = data.writerSchema();
    List<GenericRecord> records = new ArrayList<>();
    data.forEachRecord(schema, records::add);
    assertThat(records).isNotEmpty().allSatisfy(r -> {
      assertThat(r.get("_hoodie_commit_time").toString()).isEqualTo(UPSERT);
      assertThat(r.get("_hoodie_file_name").toString()).isEqualTo("9485e3af-2943-4d0a-a28a-ebff67078cef-0");
      assertThat(r.get("_hoodie_partition_path").toString()).isEqualTo("asia/india/chennai");
    });
  }

  @Test
  void deleteBlockCarriesKeysPartitionsAndOrderingValueZero() throws Exception {
    List<LogBlock> blocks = blocks(GROUP + "2_1-48-84");
    assertThat(blocks).singleElement().isInstanceOf(DeleteBlock.class);
    DeleteBlock delete = (DeleteBlock) blocks.get(0);
    assertThat(delete.instantTime()).isEqualTo(DELETE);
    assertThat(delete.deleteRecords()).isNotEmpty().allSatisfy(d -> {
      assertThat(d.recordKey()).isNotBlank();
      assertThat(d.partitionPath()).isEqualTo("asia/india/chennai");
      assertThat(d.orderingValue()).isEqualTo(0);
    });
  }

  @Test
  void rollbackCommandBlockTargetsTheRolledBackInstant() throws Exception {
    List<LogBlock> dataOfRolledBack = blocks(GROUP + "3_1-71-120");
    assertThat(dataOfRolledBack).singleElement().isInstanceOf(AvroDataBlock.class);
    String target = dataOfRolledBack.get(0).instantTime();
    assertThat(target).startsWith(ROLLED_BACK);

    List<LogBlock> blocks = blocks(GROUP + "4_1-0-1");
    assertThat(blocks).singleElement().isInstanceOf(CommandBlock.class);
    CommandBlock command = (CommandBlock) blocks.get(0);
    assertThat(command.isRollback()).isTrue();
    assertThat(command.instantTime()).isEqualTo(ROLLBACK);
    assertThat(command.targetInstantTime()).isEqualTo(target);
  }
}
