package io.riverbed.spark.write;

import static io.riverbed.spark.write.SparkWriteTest.oneRowTable;
import static io.riverbed.spark.write.SparkWriteTest.options;
import static io.riverbed.spark.write.SparkWriteTest.read;
import static io.riverbed.spark.write.SparkWriteTest.table;
import static io.riverbed.spark.write.SparkWriteTest.trips;
import static io.riverbed.spark.write.SparkWriteTest.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.InvalidTableException;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.BucketIndex;
import io.riverbed.format.write.WriterLease;
import io.riverbed.format.write.concurrency.ConcurrencyOptions;
import io.riverbed.format.write.concurrency.InstantHeartbeats;
import io.riverbed.format.write.concurrency.WriterSession;
import io.riverbed.format.write.commit.TableCommitter;
import io.riverbed.spark.SparkTestSession;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Spark writes beside a streaming writer ({@code hoodie.write.concurrency.mode=optimistic_concurrency_control}) and with the bucket index. */
class SparkConcurrentWriteTest {
  private static final int BUCKETS = 4;

  @BeforeAll
  static void session() {
    SparkWriteTest.spark = SparkTestSession.get();
  }

  private static Map<String, String> concurrent(Map<String, String> extra) {
    Map<String, String> o = new HashMap<>(options(TableType.MERGE_ON_READ));
    o.put(ConcurrencyOptions.MODE, "optimistic_concurrency_control");
    o.put("hoodie.index.type", "BUCKET");
    o.put("hoodie.bucket.index.num.buckets", Integer.toString(BUCKETS));
    o.putAll(extra);
    return o;
  }

  @Test
  void theBucketIndexPutsEveryKeyIntoItsBucketsOneFileGroup() throws Exception {
    String path = oneRowTable(TableType.MERGE_ON_READ);
    Map<String, String> o = new HashMap<>(options(TableType.MERGE_ON_READ));
    o.put("hoodie.index.type", "BUCKET");
    o.put("hoodie.bucket.index.num.buckets", Integer.toString(BUCKETS));
    write(trips(new Object[] {"b1", "d", "t1", 1.0}, new Object[] {"b2", "d", "t1", 2.0},
        new Object[] {"b3", "d", "t1", 3.0}, new Object[] {"b4", "d", "t1", 4.0}), path, o, "upsert", "append");
    write(trips(new Object[] {"b1", "d", "t2", 10.0}, new Object[] {"b2", "d", "t2", 20.0}), path, o, "upsert", "append");
    write(trips(new Object[] {"b3", "d", "t3", 0.0}), path, o, "delete", "append");

    assertThat(read(path)).containsOnly(Map.entry("1", "d|t|1.0"), Map.entry("b1", "d|t2|10.0"),
        Map.entry("b2", "d|t2|20.0"), Map.entry("b4", "d|t1|4.0"));
    Table table = table(path);
    var view = FileSystemViewLoader.load(table, table.refreshTimeline());
    List<Integer> buckets = view.fileGroups().stream().map(g -> BucketIndex.bucketOf(g.id().fileId()))
        .filter(b -> b >= 0).toList();
    assertThat(buckets).as("one file group per bucket").doesNotHaveDuplicates();
    assertThat(buckets).contains(BucketIndex.bucket("b1", List.of("id"), BUCKETS),
        BucketIndex.bucket("b4", List.of("id"), BUCKETS));
  }

  @Test
  void withOptimisticConcurrencyControlASparkWriteCommitsBesideALiveStreamingWriterAndWithoutItIsRefused()
      throws Exception {
    String path = oneRowTable(TableType.MERGE_ON_READ);
    WriterLease flink = WriterLease.acquireShared(table(path), "flink-lineage", "Flink job abc123",
        Duration.ofMinutes(5), InstantHeartbeats.WriterKind.STREAMING);
    try {
      write(trips(new Object[] {"2", "d", "t", 2.0}), path, concurrent(Map.of()), "upsert", "append");
      assertThat(read(path)).containsOnlyKeys("1", "2");
      assertThatThrownBy(() -> write(trips(new Object[] {"3", "d", "t", 3.0}), path, options(TableType.MERGE_ON_READ),
          "upsert", "append")).isInstanceOf(CommitConflictException.class).hasMessageContaining("Flink job abc123")
          .hasMessageContaining("optimistic_concurrency_control");
    } finally {
      flink.release();
    }
    assertThat(read(path)).containsOnlyKeys("1", "2");
  }

  @Test
  void aSparkCommitWaitingInVainForAPendingStreamingInstantFailsNamingItAndRollsItsOwnInstantBack()
      throws Exception {
    String path = oneRowTable(TableType.MERGE_ON_READ);
    Table table = table(path);
    ConcurrencyOptions occ = ConcurrencyOptions.fromMap(concurrent(Map.of()));
    WriterSession flink = WriterSession.start(table, "flink-lineage", "Flink job abc123", Duration.ofMinutes(5),
        InstantHeartbeats.WriterKind.STREAMING, occ);
    try {
      Schema schema = io.riverbed.format.table.TableSchemaResolver.resolve(table, table.refreshTimeline()).orElseThrow();
      TableCommitter streaming = flink.configure(TableCommitter.of(table, "flink-lineage")
          .operationType(WriteOperationType.UPSERT).schema(schema), true);
      String pending = streaming.begin();

      assertThatThrownBy(() -> write(trips(new Object[] {"2", "d", "t", 2.0}), path,
          concurrent(Map.of(ConcurrencyOptions.STREAMING_WAIT, "300 ms")), "upsert", "append"))
          .isInstanceOf(CommitConflictException.class).hasMessageContaining("streaming writer flink-lineage")
          .hasMessageContaining(pending);
      assertThat(table.refreshTimeline().commitsTimeline().pending().times()).as("only the streaming instant")
          .containsExactly(pending);
      assertThat(read(path)).containsOnlyKeys("1");
    } finally {
      flink.release();
    }
  }

  @Test
  void otherIndexesAndOperationsTheBucketIndexDoesNotPlaceAreRefusedNamingTheOption() throws Exception {
    String path = oneRowTable(TableType.MERGE_ON_READ);
    assertThatThrownBy(() -> write(trips(new Object[] {"2", "d", "t", 2.0}), path,
        concurrent(Map.of("hoodie.index.type", "BLOOM")), "upsert", "append"))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("hoodie.index.type='BLOOM'");
    assertThatThrownBy(() -> write(trips(new Object[] {"2", "d", "t", 2.0}), path, concurrent(Map.of()),
        "bulk_insert", "append")).isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("hoodie.index.type=BUCKET").hasMessageContaining("bulk_insert");
    assertThatThrownBy(() -> write(trips(new Object[] {"2", "d", "t", 2.0}), path,
        concurrent(Map.of(ConcurrencyOptions.FAILED_WRITES_POLICY, "EAGER")), "upsert", "append"))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("LAZY");
  }
}
