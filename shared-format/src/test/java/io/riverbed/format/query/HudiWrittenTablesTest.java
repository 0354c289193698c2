package io.riverbed.format.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** Tables Apache Hudi 0.15 wrote, read by the core, against the rows Hudi's own reader returned. */
class HudiWrittenTablesTest {

  static Table table(String name) throws IOException, URISyntaxException {
    java.nio.file.Path dir = java.nio.file.Path.of(HudiWrittenTablesTest.class.getResource("/hudi-0.15/" + name).toURI());
    return Table.open(FileSystem.getLocal(new Configuration()), new Path(dir.toUri()));
  }

  static List<String> expected(String table, String file) throws Exception {
    java.nio.file.Path p = java.nio.file.Path.of(HudiWrittenTablesTest.class.getResource("/hudi-0.15/expected/" + table + "/" + file).toURI());
    return Files.readAllLines(p, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).sorted().toList();
  }

  @Test
  void morSnapshotMergesBaseLogsDeletesAndIgnoresTheRolledBackWrite() throws Exception {
    assertThat(TableReads.lines(table("mor_small"), QuerySpec.snapshot())).containsExactlyElementsOf(expected("mor_small", "snapshot.jsonl"));
  }

  @Test
  void morReadOptimizedReadsBaseFilesOnly() throws Exception {
    assertThat(TableReads.lines(table("mor_small"), QuerySpec.readOptimized())).containsExactlyElementsOf(expected("mor_small", "read_optimized.jsonl"));
  }

  @Test
  void morTimeTravelToEachCommit() throws Exception {
    for (String t : List.of("20261129140349527", "20261129140351987", "20261129140355136")) {
      assertThat(TableReads.lines(table("mor_small"), QuerySpec.asOf(t))).as("as of " + t)
          .containsExactlyElementsOf(expected("mor_small", "as_of_" + t + ".jsonl"));
    }
  }

  @Test
  void morIncrementalAfterTheFirstCommit() throws Exception {
    assertThat(TableReads.lines(table("mor_small"), QuerySpec.incremental("20261129140349527", null)))
        .containsExactlyElementsOf(expected("mor_small", "incremental_after_20261129140349527.jsonl"));
  }

  @Test
  void cowSnapshotWithCompositeKeysAndHiveStylePartitions() throws Exception {
    assertThat(TableReads.lines(table("cow_small"), QuerySpec.snapshot())).containsExactlyElementsOf(expected("cow_small", "snapshot.jsonl"));
  }
}
