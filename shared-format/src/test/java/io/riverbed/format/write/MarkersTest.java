package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkersTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void markersListBackWithPartitionFileAndType() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    Path meta = new Path(dir.toUri().toString(), ".hoodie");
    Markers m = Markers.of(fs, meta, "20250101000000000");
    m.mark("a/b/c", ".f1_20250101000000000.log.1_0-1-0", Markers.Type.APPEND);
    m.mark("a/b/c", ".f1_20250101000000000.log.1_0-1-0", Markers.Type.APPEND);
    m.mark("", "f2_0-1-0_20250101000000000.parquet", Markers.Type.CREATE);
    assertThat(m.list()).containsExactlyInAnyOrder(
        new Markers.Marker("a/b/c", ".f1_20250101000000000.log.1_0-1-0", Markers.Type.APPEND),
        new Markers.Marker("", "f2_0-1-0_20250101000000000.parquet", Markers.Type.CREATE));
    m.delete();
    assertThat(m.list()).isEmpty();
    assertThat(Markers.of(fs, meta, "20250101000000001").list()).isEmpty();
  }
}
