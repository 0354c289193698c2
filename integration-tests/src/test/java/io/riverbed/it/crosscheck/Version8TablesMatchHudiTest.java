package io.riverbed.it.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.oracle.NextHudiOracle;
import io.riverbed.it.oracle.NextHudiOracle.Read;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.Version8Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Apache Hudi 1.0.2 writes MERGE_ON_READ and COPY_ON_WRITE tables with its defaults (table version
 * 8, timeline layout 2): inserts, upserts (some losing on the ordering field), deletes and, on the
 * MERGE_ON_READ tables, an inline compaction followed by upserts into the compacted slices; one
 * MERGE_ON_READ table with the metadata table (Hudi 1.x's default), one with the bucket index and the
 * metadata table off. Riverbed's Spark reader then returns Hudi 1.0.2's rows, every column, for snapshot, read_optimized, time
 * travel to every completed write (its requested and its completion time) and incremental ranges by
 * completion time (each write alone, from each on, between consecutive ones, from the start).
 * (Riverbed writing on a version 8 table Hudi wrote: {@link UpgradedVersion6TableMatchesHudiTest}.)
 */
class Version8TablesMatchHudiTest {

  private static final String RIVERBED = "io.riverbed.spark.HudiDataSource";
  private static final String SCHEMA = Version8Scenario.SCHEMA;

  private static Path mor;
  private static Path cow;
  private static Path bucket;

  @BeforeAll
  static void hudiWritesVersion8Tables() throws IOException {
    Path dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "v8-tables-");
    Path data = Files.createDirectories(dir.resolve("data"));
    mor = dir.resolve("v8_mor");
    cow = dir.resolve("v8_cow");
    bucket = dir.resolve("v8_mor_bucket");
    String origin = NextHudiOracle.write(mor, "v8_mor", "MERGE_ON_READ", SCHEMA, Version8Scenario.steps(data, true, Map.of()));
    assertThat(origin).contains("hudi-spark3.5-bundle_2.12-1.0.2");
    NextHudiOracle.write(cow, "v8_cow", "COPY_ON_WRITE", SCHEMA, Version8Scenario.steps(data, false, Map.of()));
    NextHudiOracle.write(bucket, "v8_mor_bucket", "MERGE_ON_READ", SCHEMA, Version8Scenario.steps(data, true, Map.of(
        "hoodie.index.type", "BUCKET", "hoodie.bucket.index.num.buckets", "2", "hoodie.metadata.enable", "false")));
  }

  static List<Query> queries(Path table) {
    var queries = new ArrayList<>(List.of(Query.snapshot(), Query.readOptimized()));
    List<Version8Scenario.CompletedWrite> writes = Version8Scenario.completedWrites(table);
    for (Version8Scenario.CompletedWrite w : writes) {
      queries.add(Query.asOf(w.requested()));
      queries.add(Query.asOf(w.completion()));
    }
    // incremental bounds are completion times on a version 8 table, both inclusive in Hudi 1.0.2
    queries.add(Query.incremental("000"));
    for (int i = 0; i < writes.size(); i++) {
      String completion = writes.get(i).completion();
      queries.add(Query.incremental(completion, completion));
      queries.add(Query.incremental(completion));
      queries.add(Query.incremental(writes.get(i).requested(), completion));
      if (i + 1 < writes.size()) {
        queries.add(Query.incremental(completion, writes.get(i + 1).completion()));
      }
    }
    return queries;
  }

  @Test
  void hudiWroteVersion8Tables() throws IOException {
    for (Path table : List.of(mor, cow, bucket)) {
      String props = Files.readString(table.resolve(".hoodie/hoodie.properties"));
      assertThat(props).as(table.toString()).contains("hoodie.table.version=8", "hoodie.timeline.layout.version=2");
    }
    for (Path table : List.of(mor, bucket)) {
      assertThat(Version8Scenario.completedWrites(table)).as(table.toString()).extracting(Version8Scenario.CompletedWrite::action)
          .containsExactly("deltacommit", "deltacommit", "deltacommit", "deltacommit", "commit", "deltacommit");
    }
    assertThat(Version8Scenario.completedWrites(cow)).extracting(Version8Scenario.CompletedWrite::action).containsOnly("commit").hasSize(5);
    assertThat(mor.resolve(".hoodie/metadata")).isDirectory();
    assertThat(bucket.resolve(".hoodie/metadata")).doesNotExist();
    // the bucket index names file groups by bucket number: two buckets in each of the three partitions
    try (Stream<Path> files = Files.walk(bucket)) {
      assertThat(files.filter(p -> !p.toString().contains(".hoodie"))
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.endsWith(".crc") && (n.endsWith(".parquet") || n.contains(".log.")))
          .map(n -> n.startsWith(".") ? n.substring(1, 9) : n.substring(0, 8)))
          .containsOnly("00000000", "00000001");
    }
  }

  @Test
  void riverbedReadsMergeOnReadTableAsHudi102() {
    assertRiverbedAnswersAsHudi(mor);
  }

  @Test
  void riverbedReadsCopyOnWriteTableAsHudi102() {
    assertRiverbedAnswersAsHudi(cow);
  }

  @Test
  void riverbedReadsBucketIndexTableWithoutMetadataTableAsHudi102() {
    assertRiverbedAnswersAsHudi(bucket);
  }

  static void assertRiverbedAnswersAsHudi(Path table) {
    List<Query> queries = queries(table);
    var answer = NextHudiOracle.read(queries.stream().map(q -> new Read(table, q)).toList());
    for (int i = 0; i < queries.size(); i++) {
      Query q = queries.get(i);
      Rows hudi = answer.rows().get(i);
      if (q.kind() != io.riverbed.it.oracle.QueryKind.INCREMENTAL) {
        assertThat(hudi.isEmpty()).as(q + " of " + table).isFalse();
      }
      SparkOracle.readWith(RIVERBED, table, q).assertSameAs(hudi, q + " of " + table + ": Riverbed vs Hudi 1.0.2");
    }
  }
}
