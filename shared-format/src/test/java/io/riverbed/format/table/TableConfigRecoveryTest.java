package io.riverbed.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CorruptFileException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged {@code hoodie.properties}: readers fall back to an intact backup as Hudi 0.15 does
 * and never write; writers restore the main file from it (Hudi's {@code recoverIfNeeded}); without
 * an intact backup the error says the file is damaged and how.
 */
class TableConfigRecoveryTest {
  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private Path base;
  private java.nio.file.Path mainFile;
  private java.nio.file.Path backupFile;

  @BeforeEach
  void setUp() throws IOException {
    fs = FileSystem.getLocal(new Configuration()).getRawFileSystem();
    base = new Path(dir.resolve("orders").toUri());
    mainFile = dir.resolve("orders/.hoodie/hoodie.properties");
    backupFile = dir.resolve("orders/.hoodie/hoodie.properties.backup");
  }

  private static TableConfig config() {
    return TableConfig.builder("orders").database("default").type(TableType.MERGE_ON_READ)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
        .createSchema("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}")
        .build();
  }

  /** A table whose main file was torn right after the checksum line; the backup is intact. */
  private byte[] tableWithMainTruncatedAfterChecksum() throws IOException {
    Table.create(fs, base, config());
    byte[] intact = Files.readAllBytes(mainFile);
    Files.write(backupFile, intact);
    String text = new String(intact, StandardCharsets.ISO_8859_1);
    int cut = text.indexOf('\n', text.indexOf("hoodie.table.checksum=")) + 1;
    Files.write(mainFile, Arrays.copyOf(intact, cut));
    return intact;
  }

  @Test
  void truncatedMainFileWithIntactBackupOpensFromTheBackupWithoutWriting() throws IOException {
    byte[] intact = tableWithMainTruncatedAfterChecksum();
    byte[] torn = Files.readAllBytes(mainFile);

    Table table = Table.open(fs, base);

    assertThat(table.config()).isEqualTo(config());
    assertThat(Files.readAllBytes(mainFile)).isEqualTo(torn);
    assertThat(Files.readAllBytes(backupFile)).isEqualTo(intact);
  }

  @Test
  void mainFileTornBeforeItsChecksumLineIsNotPreferredOverAnIntactBackup() throws IOException {
    Table.create(fs, base, config());
    byte[] intact = Files.readAllBytes(mainFile);
    Files.write(backupFile, intact);
    String text = new String(intact, StandardCharsets.ISO_8859_1);
    Files.writeString(mainFile, text.replaceAll("hoodie\\.table\\.checksum=\\d+\\n", "")
        .replace("hoodie.table.recordkey.fields=id", "hoodie.table.recordkey.fields=i"), StandardCharsets.ISO_8859_1);

    assertThat(Table.open(fs, base).config().recordKeyFields()).containsExactly("id");
    assertThat(Table.open(fs, base).prepareForWrite().config()).isEqualTo(config());
    assertThat(Files.readAllBytes(mainFile)).isEqualTo(intact);
  }

  @Test
  void openingForWriteRestoresTheMainFileFromTheBackupAndDeletesTheBackup() throws IOException {
    byte[] intact = tableWithMainTruncatedAfterChecksum();

    Table table = Table.open(fs, base).prepareForWrite();

    assertThat(table.config()).isEqualTo(config());
    assertThat(Files.readAllBytes(mainFile)).isEqualTo(intact);
    assertThat(Files.exists(backupFile)).isFalse();
    assertThat(Table.open(fs, base).config()).isEqualTo(config());
  }

  @Test
  void startingAWriteRestoresTheMainFile() throws IOException {
    byte[] intact = tableWithMainTruncatedAfterChecksum();

    io.riverbed.format.write.WriteTransaction.start(Table.open(fs, base),
        io.riverbed.format.timeline.WriteOperationType.UPSERT);

    assertThat(Files.readAllBytes(mainFile)).isEqualTo(intact);
    assertThat(Files.exists(backupFile)).isFalse();
  }

  @Test
  void leftoverBackupBesideAnIntactMainFileIsDeletedByAWriter() throws IOException {
    Table.create(fs, base, config());
    Files.writeString(backupFile, "stale");

    assertThat(Table.open(fs, base).prepareForWrite().config()).isEqualTo(config());
    assertThat(Files.exists(backupFile)).isFalse();
  }

  @Test
  void garbageWithoutBackupIsReportedAsADamagedFileNotAsAnOldTable() throws IOException {
    Table.create(fs, base, config());
    Files.write(mainFile, new byte[] {(byte) 0xde, (byte) 0xad, 0x00, '\n', (byte) 0xbe, (byte) 0xef, 'x', '=', 'y'});

    assertThatThrownBy(() -> Table.open(fs, base))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("damaged table config")
        .hasMessageContaining(".hoodie/hoodie.properties")
        .hasMessageContaining("no hoodie.table.name")
        .hasMessageContaining("no hoodie.table.version")
        .hasMessageContaining("hoodie.properties.backup does not exist")
        .hasMessageNotContaining("older than");
  }

  @Test
  void wrongChecksumWithDamagedBackupNamesBothDefects() throws IOException {
    Table.create(fs, base, config());
    String text = Files.readString(mainFile, StandardCharsets.ISO_8859_1);
    Files.writeString(mainFile, text.replaceAll("hoodie.table.checksum=\\d+", "hoodie.table.checksum=7"),
        StandardCharsets.ISO_8859_1);
    Files.writeString(backupFile, "hoodie.table.name=orders\nhoodie.table.version=six\n");

    assertThatThrownBy(() -> Table.open(fs, base))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("hoodie.table.checksum is 7 but table name 'orders' and database 'default' give "
            + TableConfig.checksumOf("default", "orders"))
        .hasMessageContaining("hoodie.properties.backup is damaged too (hoodie.table.version 'six' is not a number");
  }

  @Test
  void writerNeverDeletesADamagedMainFileThatNoBackupCanReplace() throws IOException {
    Table table = Table.create(fs, base, config());
    Files.writeString(mainFile, "hoodie.table.version=6\nhoodie.table.checksum=1\n");

    assertThatThrownBy(table::prepareForWrite)
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("no hoodie.table.name");
    assertThat(Files.readString(mainFile)).isEqualTo("hoodie.table.version=6\nhoodie.table.checksum=1\n");
  }

  @Test
  void damagedBackupBesideAMissingMainFileIsReportedAsDamaged() throws IOException {
    Table.create(fs, base, config());
    Files.move(mainFile, backupFile);
    Files.writeString(backupFile, "hoodie.table.name=orders\n", StandardCharsets.ISO_8859_1);

    assertThatThrownBy(() -> Table.open(fs, base))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("hoodie.properties is missing")
        .hasMessageContaining("no hoodie.table.version");
  }
}
