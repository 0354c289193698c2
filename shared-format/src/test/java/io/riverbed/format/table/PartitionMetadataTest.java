package io.riverbed.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CorruptFileException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionMetadataTest {

  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private Path base;

  @BeforeEach
  void setUp() throws IOException {
    fs = FileSystem.getLocal(new Configuration());
    base = new Path(dir.toUri().toString());
  }

  @Test
  void depthCountsPathLevels() {
    assertThat(PartitionMetadata.depthOf("")).isZero();
    assertThat(PartitionMetadata.depthOf("2024-01-01")).isEqualTo(1);
    assertThat(PartitionMetadata.depthOf("a=1/b=2")).isEqualTo(2);
    assertThat(PartitionMetadata.depthOf("2024/01/01")).isEqualTo(3);
  }

  @Test
  void markerIsPropertiesTextWithCommitTimeAndDepth() throws IOException {
    assertThat(PartitionMetadata.writeIfAbsent(fs, base, "a=1/b=2", "20240707001301554")).isTrue();

    String text = Files.readString(dir.resolve("a=1/b=2/.hoodie_partition_metadata"), StandardCharsets.ISO_8859_1);
    var lines = text.lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).isEqualTo("#partition metadata");
    assertThat(lines.get(1)).startsWith("#");
    assertThat(lines.subList(2, 4)).containsExactly("commitTime=20240707001301554", "partitionDepth=2");
    assertThat(PartitionMetadata.read(fs, new Path(base, "a=1/b=2")))
        .contains(new PartitionMetadata("20240707001301554", 2));
  }

  @Test
  void nonPartitionedTableHasDepthZeroMarkerInBasePath() {
    PartitionMetadata.writeIfAbsent(fs, base, "", "20240101000000000");
    assertThat(PartitionMetadata.read(fs, base)).contains(new PartitionMetadata("20240101000000000", 0));
  }

  @Test
  void existingMarkerIsNeverOverwritten() {
    PartitionMetadata.writeIfAbsent(fs, base, "p", "20240101000000000");
    assertThat(PartitionMetadata.writeIfAbsent(fs, base, "p", "20240202000000000")).isFalse();
    assertThat(PartitionMetadata.read(fs, new Path(base, "p")).orElseThrow().commitTime())
        .isEqualTo("20240101000000000");
  }

  @Test
  void concurrentCreatorsLeaveOneReadableMarkerAndNoTemporaryFiles() throws Exception {
    var pool = Executors.newFixedThreadPool(8);
    try {
      var tasks = new ArrayList<Callable<Boolean>>();
      for (int i = 0; i < 8; i++) {
        String time = "2024010100000000" + i;
        tasks.add(() -> PartitionMetadata.writeIfAbsent(fs, base, "dt=1", time));
      }
      int created = 0;
      for (Future<Boolean> f : pool.invokeAll(tasks)) {
        created += f.get() ? 1 : 0;
      }
      assertThat(created).isGreaterThanOrEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
    assertThat(PartitionMetadata.read(fs, new Path(base, "dt=1")).orElseThrow().partitionDepth()).isEqualTo(1);
    try (Stream<java.nio.file.Path> files = Files.list(dir.resolve("dt=1"))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .allMatch(n -> n.equals(".hoodie_partition_metadata") || n.equals("..hoodie_partition_metadata.crc"));
    }
  }

  @Test
  void folderWithoutMarkerReadsEmpty() throws IOException {
    fs.mkdirs(new Path(base, "x"));
    assertThat(PartitionMetadata.read(fs, new Path(base, "x"))).isEmpty();
    assertThat(PartitionMetadata.exists(fs, new Path(base, "x"))).isFalse();
  }

  @Test
  void markerWithoutDepthIsCorrupt() throws IOException {
    Files.createDirectories(dir.resolve("p"));
    Files.writeString(dir.resolve("p/.hoodie_partition_metadata"), "commitTime=1\n");
    assertThatThrownBy(() -> PartitionMetadata.read(FileSystem.getLocal(new Configuration()).getRaw(),
        new Path(base, "p")))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(".hoodie_partition_metadata")
        .hasMessageContaining("partitionDepth");
  }
}
