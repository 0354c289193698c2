package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * A MERGE_ON_READ table where one file group has log files and the other has none: Spark gets
 * rows, the base-only slice still decoded by the vectorized reader, the other merged.
 */
class MixedSlicesReadTest {
  @Test
  void baseOnlyAndMergedSlicesInOneScan() throws Exception {
    String path = GoldenTables.freshCopy("mor_small", "mor_mixed_slices");
    Path asia = Path.of(URI.create(path + "/asia/india/chennai"));
    try (Stream<Path> files = Files.list(asia)) {
      for (Path p : files.filter(p -> p.getFileName().toString().contains(".log.")).toList()) {
        Files.delete(p);
      }
    }
    Dataset<Row> df = SparkTestSession.get().read().format("hudi").load(path);
    HudiScan scan = PushDownTest.scanOf(df);
    assertThat(scan.columnar()).isFalse();
    assertThat(scan.splits()).extracting(SliceSplit::baseOnly).containsExactlyInAnyOrder(true, false);

    List<String> expected = new ArrayList<>();
    GoldenTables.expected("mor_small", "snapshot.jsonl").stream().filter(l -> l.contains("\"region\":\"americas\"")).forEach(expected::add);
    GoldenTables.expected("mor_small", "read_optimized.jsonl").stream().filter(l -> l.contains("\"region\":\"asia\"")).forEach(expected::add);
    assertThat(GoldenTables.lines(df)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(df.filter("fare > 30").count()).isEqualTo(df.collectAsList().stream().filter(r -> (double) r.getAs("fare") > 30).count());
  }
}
