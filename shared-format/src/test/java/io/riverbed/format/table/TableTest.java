package io.riverbed.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableTest {

  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private Path base;

  @BeforeEach
  void setUp() throws IOException {
    fs = FileSystem.getLocal(new Configuration());
    base = new Path(dir.toUri().toString(), "orders");
  }

  private static TableConfig config() {
    return TableConfig.builder("orders").database("default").type(TableType.MERGE_ON_READ)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts").build();
  }

  @Test
  void createMakesHudiFolderLayoutAndProperties() throws IOException {
    Table table = Table.create(fs, base, config());
    for (String folder : List.of(".hoodie", ".hoodie/.schema", ".hoodie/archived", ".hoodie/.temp",
        ".hoodie/.aux", ".hoodie/.aux/.bootstrap/.partitions", ".hoodie/.aux/.bootstrap/.fileids")) {
      assertThat(Files.isDirectory(dir.resolve("orders").resolve(folder))).as(folder).isTrue();
    }
    assertThat(Files.exists(dir.resolve("orders/.hoodie/hoodie.properties"))).isTrue();
    assertThat(table.metaPath()).isEqualTo(new Path(table.basePath(), ".hoodie"));
    assertThat(table.config()).isEqualTo(config());
    assertThat(table.type()).isEqualTo(TableType.MERGE_ON_READ);
  }

  @Test
  void openReadsTheConfigCreateWrote() {
    Table.create(fs, base, config());
    Table opened = Table.open(fs, base);
    assertThat(opened.config()).isEqualTo(config());
    assertThat(opened.basePath()).isEqualTo(fs.makeQualified(base));
    assertThat(opened.name()).isEqualTo("orders");
  }

  @Test
  void createFailsWhereATableExists() {
    Table.create(fs, base, config());
    assertThatThrownBy(() -> Table.create(fs, base, config()))
        .isInstanceOf(TableExistsException.class)
        .hasMessageContaining("already exists");
  }

  @Test
  void openingAFolderWithoutHoodiePropertiesSaysItIsNotATable() throws IOException {
    fs.mkdirs(new Path(base, ".hoodie"));
    assertThatThrownBy(() -> Table.open(fs, base))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageStartingWith(fs.makeQualified(base) + " is not a Hudi table: ");
  }

  @Test
  void openingAVersionFiveTableNamesPathAndVersion() throws IOException {
    writeProperties("hoodie.table.name=old\nhoodie.table.version=5\nhoodie.timeline.layout.version=1\n");
    assertThatThrownBy(() -> Table.open(fs, base))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining(fs.makeQualified(base).toString())
        .hasMessageContaining("table version 5");
  }

  @Test
  void versionEightTableOpensWithItsTimelineUnderTimelineFolder() throws IOException {
    writeProperties("hoodie.table.name=new\nhoodie.table.version=8\nhoodie.timeline.layout.version=2\n"
        + "hoodie.timeline.path=timeline\nhoodie.timeline.history.path=history\n");
    Table table = Table.open(fs, base);
    assertThat(table.timelinePath()).isEqualTo(new Path(fs.makeQualified(base), ".hoodie/timeline"));
    assertThat(table.archivePath()).isEqualTo(new Path(fs.makeQualified(base), ".hoodie/timeline/history"));
    assertThat(table.timelineStore().hasCompletionTimes()).isTrue();
    assertThat(table.prepareForWrite().config().version()).isEqualTo(8);
  }

  @Test
  void versionEightTableIsCreatedWithTimelineAndHistoryFolders() throws IOException {
    Table table = Table.create(fs, base, TableConfig.builder("t8").tableVersion(8).build());
    assertThat(fs.isDirectory(new Path(table.metaPath(), "timeline/history"))).isTrue();
    assertThat(fs.exists(new Path(table.metaPath(), "archived"))).isFalse();
    assertThat(fs.exists(new Path(table.metaPath(), "history"))).isFalse();
    assertThat(Table.open(fs, base).timelinePath()).isEqualTo(new Path(table.metaPath(), "timeline"));
  }

  @Test
  void versionEightTableWithLayoutOneIsRefused() throws IOException {
    writeProperties("hoodie.table.name=new\nhoodie.table.version=8\nhoodie.timeline.layout.version=1\n");
    assertThatThrownBy(() -> Table.open(fs, base))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("timeline layout version 1")
        .hasMessageContaining("table version 8 uses layout 2");
  }

  @Test
  void openingATableWithoutTimelineLayoutVersionFails() throws IOException {
    writeProperties("hoodie.table.name=t\nhoodie.table.version=6\n");
    assertThatThrownBy(() -> Table.open(fs, base))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("hoodie.timeline.layout.version");
  }

  @Test
  void disableMetadataTableClearsBothKeysAndDeletesTheFolder() throws IOException {
    Table table = Table.create(fs, base, config());
    table = table.updateConfig(java.util.Map.of(
        "hoodie.table.metadata.partitions", "column_stats,files",
        "hoodie.table.metadata.partitions.inflight", "record_index"));
    Path mdt = new Path(table.metaPath(), "metadata/.hoodie");
    fs.mkdirs(mdt);

    Table disabled = table.disableMetadataTable();

    assertThat(disabled.config().properties())
        .containsEntry("hoodie.table.metadata.partitions", "")
        .containsEntry("hoodie.table.metadata.partitions.inflight", "");
    assertThat(Table.open(fs, base).config().isMetadataTableAvailable()).isFalse();
    assertThat(fs.exists(table.metadataTablePath())).isFalse();
    assertThat(fs.exists(new Path(table.metaPath(), "hoodie.properties.backup"))).isFalse();
  }

  @Test
  void disableMetadataTableOnATableWithoutOneChangesNothing() {
    Table table = Table.create(fs, base, config());
    assertThat(table.disableMetadataTable()).isSameAs(table);
  }

  @Test
  void listPartitionsFindsFoldersWithMarkersAndSkipsHiddenFolders() throws IOException {
    Table table = Table.create(fs, base, config());
    PartitionMetadata.writeIfAbsent(fs, table.basePath(), "dt=2024-01-02", "20240102000000000");
    PartitionMetadata.writeIfAbsent(fs, table.basePath(), "dt=2024-01-01", "20240101000000000");
    PartitionMetadata.writeIfAbsent(fs, table.basePath(), "a=1/b=x", "20240101000000000");
    fs.mkdirs(new Path(table.basePath(), "no_marker/inner"));
    fs.mkdirs(new Path(table.basePath(), ".hidden/p"));
    PartitionMetadata.writeIfAbsent(fs, table.metaPath(), "metadata/files", "20240101000000000");

    assertThat(table.listPartitions()).containsExactly("a=1/b=x", "dt=2024-01-01", "dt=2024-01-02");
  }

  @Test
  void listPartitionsOfANonPartitionedTableIsTheEmptyPath() {
    Table table = Table.create(fs, base, TableConfig.builder("flat").build());
    PartitionMetadata.writeIfAbsent(fs, table.basePath(), "", "20240101000000000");
    assertThat(table.listPartitions()).containsExactly("");
  }

  private void writeProperties(String text) throws IOException {
    Files.createDirectories(dir.resolve("orders/.hoodie"));
    Files.writeString(dir.resolve("orders/.hoodie/hoodie.properties"), text, StandardCharsets.ISO_8859_1);
  }

  @Test
  void aTableDerivedForWritingSharesTheTimelineItsOriginRemembers() {
    Table table = Table.create(fs, base, config());
    assertThat(table.timeline().instants()).isEmpty();
    Table writable = table.prepareForWrite();
    assertThat(writable.timelineStore()).isSameAs(table.timelineStore());
    writable.timelineStore().createRequested("20250101000000000", io.riverbed.format.timeline.Action.COMMIT,
        new byte[0]);
    assertThat(table.timeline().times()).containsExactly("20250101000000000");
    assertThat(table.reload().timelineStore()).isSameAs(table.timelineStore());
  }
}
