package io.riverbed.format.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * A version 8 MERGE_ON_READ table Apache Hudi 1.0.2 wrote (bucket index, compaction, logs named by
 * their delta commits; {@code hudi-1.0.2/README.md}), read by the core, against the rows Hudi 1.0.2's
 * reader returned for every query kind.
 */
class HudiVersion8TableTest {

  private static final String TABLE = "mor_bucket";

  private static java.nio.file.Path resource(String relative) throws URISyntaxException {
    return java.nio.file.Path.of(HudiVersion8TableTest.class.getResource("/hudi-1.0.2/" + relative).toURI());
  }

  private static Table table() throws IOException, URISyntaxException {
    return Table.open(FileSystem.getLocal(new Configuration()), new Path(resource(TABLE).toUri()));
  }

  /** The expected files of one kind, by name prefix, each with the query its name describes. */
  private static List<String> expectedNames(String prefix) throws Exception {
    try (Stream<java.nio.file.Path> files = Files.list(resource("expected/" + TABLE))) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).sorted().toList();
    }
  }

  private static List<String> expected(String file) throws Exception {
    return Files.readAllLines(resource("expected/" + TABLE + "/" + file), StandardCharsets.UTF_8).stream()
        .filter(l -> !l.isBlank()).sorted().toList();
  }

  private static void assertReads(QuerySpec spec, String file) throws Exception {
    assertThat(TableReads.lines(table(), spec)).as(file).containsExactlyElementsOf(expected(file));
  }

  @Test
  void snapshotMergesLogsNamedByTheirDeltaCommitsOntoTheCompactedSlices() throws Exception {
    assertReads(QuerySpec.snapshot(), "snapshot.jsonl");
  }

  @Test
  void readOptimizedReadsTheCompactedBaseFiles() throws Exception {
    assertReads(QuerySpec.readOptimized(), "read_optimized.jsonl");
  }

  @Test
  void timeTravelToEachWrite() throws Exception {
    List<String> files = expectedNames("as_of_");
    assertThat(files).hasSize(6);
    for (String f : files) {
      assertReads(QuerySpec.asOf(f.substring("as_of_".length(), f.length() - ".jsonl".length())), f);
    }
  }

  @Test
  void incrementalByCompletionTimeWithBothBoundsInclusive() throws Exception {
    List<String> files = expectedNames("incremental_");
    assertThat(files).hasSize(12);
    for (String f : files) {
      String bounds = f.substring("incremental_".length(), f.length() - ".jsonl".length());
      QuerySpec spec = bounds.startsWith("from_")
          ? QuerySpec.incremental(bounds.substring("from_".length()), null)
          : QuerySpec.incremental(bounds.substring(0, bounds.indexOf('_')), bounds.substring(bounds.indexOf('_') + 1));
      assertReads(spec, f);
    }
  }
}
