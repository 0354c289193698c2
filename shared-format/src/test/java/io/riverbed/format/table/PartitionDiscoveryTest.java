package io.riverbed.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partition markers where no partition can be (left by writes of partition values that the
 * partition path rule now refuses) fail the listing naming the folder, instead of leaving their
 * records out of every query.
 */
class PartitionDiscoveryTest {
  private static final String INSTANT = "20240101000000000";

  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private Table table;

  @BeforeEach
  void setUp() throws IOException {
    fs = FileSystem.getLocal(new Configuration());
    table = Table.create(fs, new Path(dir.toUri().toString(), "orders"), TableConfig.builder("orders")
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).build());
  }

  private void marker(String partition) {
    PartitionMetadata.writeIfAbsent(fs, table.basePath(), partition, INSTANT);
  }

  @Test
  void markerInTheBasePathOfAPartitionedTableFailsNamingTheBasePath() {
    marker("dt=2024-01-01");
    marker("");
    assertThatThrownBy(table::listPartitions).isInstanceOf(TableException.class)
        .hasMessageContaining("folder 'dt=2024-01-01'")
        .hasMessageContaining("inside the partition '' (the base path)");
  }

  @Test
  void markerInTheMetadataFolderFailsNamingIt() {
    marker("dt=2024-01-01");
    marker(".hoodie");
    assertThatThrownBy(table::listPartitions).isInstanceOf(TableException.class)
        .hasMessageContaining("folder '.hoodie'")
        .hasMessageContaining("metadata folder");
  }

  @Test
  void markerInAHiddenFolderFailsNamingIt() {
    marker("dt=2024-01-01");
    marker("dt=2024-01-02/.x/y");
    assertThatThrownBy(table::listPartitions).isInstanceOf(TableException.class)
        .hasMessageContaining("folder 'dt=2024-01-02/.x/y'")
        .hasMessageContaining("hidden folder 'dt=2024-01-02/.x'");
  }

  @Test
  void partitionInsideAPartitionFailsNamingBoth() {
    marker("2024");
    marker("2024/06");
    assertThatThrownBy(table::listPartitions).isInstanceOf(TableException.class)
        .hasMessageContaining("folder '2024/06'")
        .hasMessageContaining("inside the partition '2024'");
  }

  @Test
  void metadataTablePartitionsAndHiddenFoldersWithoutMarkersAreNotPartitions() throws IOException {
    marker("dt=2024-01-01");
    PartitionMetadata.writeIfAbsent(fs, table.metaPath(), "metadata/files", INSTANT);
    fs.mkdirs(new Path(table.basePath(), ".spark-staging/x"));
    fs.mkdirs(new Path(table.basePath(), "dt=2024-01-01/empty"));
    assertThat(table.listPartitions()).containsExactly("dt=2024-01-01");
  }

  @Test
  void theFilesOfEveryPartitionComeFromTheSameListing() throws IOException {
    marker("dt=2024-01-01");
    marker("dt=2024-01-02");
    fs.create(new Path(table.basePath(), "dt=2024-01-01/a.parquet")).close();
    fs.create(new Path(table.basePath(), "dt=2024-01-01/sub/not-in-the-partition.parquet")).close();

    var files = table.listPartitionFiles();

    assertThat(files.keySet()).containsExactly("dt=2024-01-01", "dt=2024-01-02");
    assertThat(files.get("dt=2024-01-01")).extracting(f -> f.getPath().getName())
        .contains("a.parquet", PartitionMetadata.FILE_NAME).doesNotContain("not-in-the-partition.parquet", "sub");
    assertThat(files.get("dt=2024-01-02")).extracting(f -> f.getPath().getName())
        .contains(PartitionMetadata.FILE_NAME).doesNotContain("a.parquet");
  }
}
