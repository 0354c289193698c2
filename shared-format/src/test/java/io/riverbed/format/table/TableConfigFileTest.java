package io.riverbed.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CorruptFileException;
import io.riverbed.format.InvalidTableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableConfigFileTest {

  private static final String SCHEMA =
      "{\"type\":\"record\",\"name\":\"orders_record\",\"namespace\":\"hoodie.orders\","
          + "\"fields\":[{\"name\":\"id\",\"type\":\"string\",\"doc\":\"caf\u00e9 #1 = ok!\"}]}";

  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private Path meta;

  @BeforeEach
  void setUp() throws IOException {
    fs = FileSystem.getLocal(new Configuration()).getRawFileSystem();
    meta = new Path(dir.toUri().toString(), ".hoodie");
    fs.mkdirs(meta);
  }

  private TableConfig sample() {
    return TableConfig.builder("orders").database("default").type(TableType.MERGE_ON_READ)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
        .createSchema(SCHEMA).property("hoodie.keygen.timebased.timezone", "UTC").build();
  }

  private String mainText() throws IOException {
    return Files.readString(dir.resolve(".hoodie/hoodie.properties"), StandardCharsets.ISO_8859_1);
  }

  @Test
  void writtenConfigReadsBackWithAllEntries() {
    TableConfigFile.create(fs, meta, sample());
    assertThat(TableConfigFile.read(fs, meta)).isEqualTo(sample());
  }

  @Test
  void fileIsPropertiesTextWithTwoCommentLinesAndEscapedJson() throws IOException {
    TableConfigFile.create(fs, meta, sample());
    String text = mainText();
    List<String> lines = text.lines().toList();
    assertThat(lines.get(0)).startsWith("#Properties saved on ");
    assertThat(lines.get(1)).startsWith("#");
    assertThat(lines.subList(2, lines.size())).noneMatch(l -> l.startsWith("#"));
    assertThat(text).contains("hoodie.table.create.schema={\"type\"\\:\"record\",\"name\"\\:\"orders_record\"");
    assertThat(text).contains("caf\\u00E9 \\#1 \\= ok\\!");
    assertThat(text).contains("hoodie.table.checksum=" + TableConfig.checksumOf("default", "orders"));
    assertThat(text.chars().boxed().toList()).allMatch(c -> c < 0x80);
    assertThat(TableConfigFile.read(fs, meta).createSchema()).contains(SCHEMA);
  }

  @Test
  void readUsesBackupWhileMainFileIsMissing() throws IOException {
    TableConfigFile.create(fs, meta, sample());
    fs.rename(TableConfigFile.path(meta), TableConfigFile.backupPath(meta));
    assertThat(TableConfigFile.read(fs, meta)).isEqualTo(sample());
  }

  @Test
  void readUsesBackupWhenMainChecksumDoesNotMatch() throws IOException {
    TableConfigFile.create(fs, meta, sample());
    copy(".hoodie/hoodie.properties", ".hoodie/hoodie.properties.backup");
    corruptChecksum();
    assertThat(TableConfigFile.read(fs, meta)).isEqualTo(sample());
  }

  @Test
  void checksumMismatchWithoutBackupFailsNamingTheFile() throws IOException {
    TableConfigFile.create(fs, meta, sample());
    corruptChecksum();
    assertThatThrownBy(() -> TableConfigFile.read(fs, meta))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(".hoodie/hoodie.properties")
        .hasMessageContaining("hoodie.table.checksum is 12345");
  }

  @Test
  void configWithoutChecksumIsAccepted() throws IOException {
    Files.writeString(dir.resolve(".hoodie/hoodie.properties"),
        "hoodie.table.name=t\nhoodie.table.version=6\nhoodie.timeline.layout.version=1\n");
    TableConfig config = TableConfigFile.read(fs, meta);
    assertThat(config.name()).isEqualTo("t");
    assertThat(config.checksum()).isEmpty();
  }

  @Test
  void missingFileAndBackupIsNotATable() {
    assertThatThrownBy(() -> TableConfigFile.read(fs, meta))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("is not a Hudi table");
  }

  @Test
  void updateChangesEntriesKeepsOthersAndLeavesNoBackup() throws IOException {
    TableConfigFile.create(fs, meta, sample());
    TableConfig updated = TableConfigFile.update(fs, meta, Map.of("hoodie.table.metadata.partitions", ""));
    assertThat(updated.properties()).containsEntry("hoodie.table.metadata.partitions", "")
        .containsEntry("hoodie.keygen.timebased.timezone", "UTC");
    assertThat(TableConfigFile.read(fs, meta)).isEqualTo(updated);
    assertThat(mainText()).startsWith("#Updated at ");
    assertThat(fs.exists(TableConfigFile.backupPath(meta))).isFalse();
  }

  @Test
  void updateRecoversAnInterruptedUpdateFromTheBackup() throws IOException {
    TableConfigFile.create(fs, meta, sample());
    // An earlier update died after deleting the main file: only the backup is left.
    fs.rename(TableConfigFile.path(meta), TableConfigFile.backupPath(meta));
    TableConfig updated = TableConfigFile.update(fs, meta, Map.of("hoodie.table.precombine.field", "ts2"));
    assertThat(updated.precombineField()).contains("ts2");
    assertThat(updated.recordKeyFields()).containsExactly("id");
    assertThat(fs.exists(TableConfigFile.backupPath(meta))).isFalse();
  }

  @Test
  void updateRecomputesChecksumWhenNameChanges() {
    TableConfigFile.create(fs, meta, sample());
    TableConfig updated = TableConfigFile.update(fs, meta, Map.of("hoodie.table.name", "renamed"));
    assertThat(updated.checksum()).contains(TableConfig.checksumOf("default", "renamed"));
    assertThat(TableConfigFile.read(fs, meta).hasValidChecksum()).isTrue();
  }

  @Test
  void createRefusesToOverwriteAnExistingFile() {
    TableConfigFile.create(fs, meta, sample());
    assertThatThrownBy(() -> TableConfigFile.create(fs, meta, sample())).hasMessageContaining("hoodie.properties");
  }

  private void corruptChecksum() throws IOException {
    var file = dir.resolve(".hoodie/hoodie.properties");
    String text = Files.readString(file, StandardCharsets.ISO_8859_1)
        .replaceAll("hoodie.table.checksum=\\d+", "hoodie.table.checksum=12345");
    Files.writeString(file, text, StandardCharsets.ISO_8859_1);
  }

  private void copy(String from, String to) throws IOException {
    Files.copy(dir.resolve(from), dir.resolve(to));
  }
}
