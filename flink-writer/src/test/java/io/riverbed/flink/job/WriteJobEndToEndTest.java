package io.riverbed.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** JSON-lines files through the write job into real tables, read back through the format core. */
public class WriteJobEndToEndTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir Path dir;

  private void runJob(String... args) throws Exception {
    WriteJobConfig config = WriteJobArguments.parse(args);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(WriteJob.flinkConfiguration(config));
    WriteJob.run(config, env, TableSinkBuilder.tableWriter());
  }

  private String[] args(Path input, Path table, String type, String... more) {
    List<String> a = new ArrayList<>(List.of("--source", "file", "--input", input.toString(),
        "--table-path", table.toString(), "--table-name", "orders", "--table-type", type,
        "--record-key", "id", "--precombine", "ts", "--partition-path", "region", "--hive-style",
        "--checkpoint-interval", "300ms", "--parallelism", "1",
        "--checkpoint-dir", JobCheckpointFolders.create("end-to-end").toString()));
    a.addAll(List.of(more));
    return a.toArray(new String[0]);
  }

  /** id → "amount|ts|partition path" of the table's snapshot. */
  public static Map<String, String> snapshot(Path table) throws Exception {
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(table.toUri());
    Table t = Table.open(base.getFileSystem(new Configuration()), base);
    Map<String, String> out = new TreeMap<>();
    for (GenericRecord r : TableReads.read(t, QuerySpec.snapshot())) {
      String previous = out.put(r.get("id").toString(), r.get("amount") + "|" + r.get("ts") + "|" + r.get("_hoodie_partition_path"));
      assertThat(previous).as("key %s read twice", r.get("id")).isNull();
    }
    return out;
  }

  /** The completed commits and delta commits of the table, oldest first. */
  public static List<io.riverbed.format.timeline.Instant> completedCommits(Path table) throws Exception {
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(table.toUri());
    Table t = Table.open(base.getFileSystem(new Configuration()), base);
    return io.riverbed.format.timeline.TimelineStore.at(t.fs(), t.metaPath()).load().commitsTimeline().completed()
        .instants();
  }

  /** Records (inserts and updates; numWrites) the completed commits not in {@code before} wrote. */
  public static long recordsWrittenAfter(Path table, List<io.riverbed.format.timeline.Instant> before) throws Exception {
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(table.toUri());
    Table t = Table.open(base.getFileSystem(new Configuration()), base);
    var store = io.riverbed.format.timeline.TimelineStore.at(t.fs(), t.metaPath());
    long n = 0;
    for (var instant : completedCommits(table)) {
      if (!before.contains(instant)) {
        for (var stat : io.riverbed.format.timeline.CommitMetadata.fromJson(store.read(instant), instant.toString())
            .writeStats()) {
          n += stat.numWrites();
        }
      }
    }
    return n;
  }

  @Test
  void jsonLinesFileUpsertsIntoAMergeOnReadTableAndTheJobEnds() throws Exception {
    Path input = Files.writeString(dir.resolve("orders.jsonl"), """
        {"id": "o1", "ts": 1, "amount": 10.0, "region": "eu"}
        {"id": "o2", "ts": 1, "amount": 20.0, "region": "us"}
        {"id": "o1", "ts": 3, "amount": 11.0, "region": "eu"}
        {"id": "o1", "ts": 2, "amount": 99.0, "region": "eu"}
        {"id": "o3", "ts": 1, "amount": 30.5, "region": "eu"}
        """);
    Path table = dir.resolve("orders");
    // Bucket index: keys find their file group in a later run too (a fresh job's state index
    // knows no keys, so it would drop a delete of a key written by an earlier run).
    String[] bucket = {"--set", "index.type=BUCKET", "--set", "hoodie.bucket.index.num.buckets=2"};
    runJob(args(input, table, "MERGE_ON_READ", bucket));
    assertThat(snapshot(table)).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        "o1", "11.0|3|region=eu", "o2", "20.0|1|region=us", "o3", "30.5|1|region=eu")));

    // A second run deletes by key and upserts with a given schema.
    Path deletes = Files.writeString(dir.resolve("deletes.jsonl"), "{\"id\": \"o2\", \"ts\": 5, \"amount\": 0, \"region\": \"us\"}\n");
    Path schema = Files.writeString(dir.resolve("orders.avsc"), """
        {"type": "record", "name": "o", "fields": [{"name": "id", "type": "string"}, {"name": "ts", "type": ["null", "long"]},
          {"name": "amount", "type": ["null", "double"]}, {"name": "region", "type": ["null", "string"]}]}""");
    runJob(args(deletes, table, "MERGE_ON_READ", concat(bucket, "--operation", "delete", "--schema", schema.toString())));
    Path updates = Files.writeString(dir.resolve("updates.jsonl"), """
        {"id": "o3", "ts": 4, "amount": 31, "region": "eu"}
        {"id": "o4", "ts": 1, "amount": 40, "region": "us"}
        """);
    runJob(args(updates, table, "MERGE_ON_READ", concat(bucket, "--schema", schema.toString())));
    assertThat(snapshot(table)).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        "o1", "11.0|3|region=eu", "o3", "31.0|4|region=eu", "o4", "40.0|1|region=us")));
  }

  /**
   * The whole job (source, to-record, the key and file-group shuffles, index state, writer,
   * coordinator events and the compaction stage) runs with generic types disabled: Flink refuses to
   * build a job in which any type would fall back to Kryo, so every record and state crosses tasks
   * with a typed serializer.
   */
  @Test
  void theJobRunsWithGenericTypesDisabledSoNothingFallsBackToKryo() throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      lines.append("{\"id\": \"o").append(i % 120).append("\", \"ts\": ").append(i).append(", \"amount\": ")
          .append(i).append(".5, \"region\": \"r").append(i % 3).append("\"}\n");
    }
    Path input = Files.writeString(dir.resolve("orders.jsonl"), lines);
    Path table = dir.resolve("orders");
    String[] args = args(input, table, "MERGE_ON_READ", "--set", "compaction.async.enabled=true",
        "--set", "compaction.delta_commits=1", "--flink-conf", "pipeline.generic-types=false");
    args[List.of(args).indexOf("--parallelism") + 1] = "2";
    WriteJobConfig config = WriteJobArguments.parse(args);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(WriteJob.flinkConfiguration(config));
    assertThat(env.getConfig().hasGenericTypesDisabled()).isTrue();

    WriteJob.run(config, env, TableSinkBuilder.tableWriter());

    Map<String, String> rows = snapshot(table);
    assertThat(rows).hasSize(120);
    assertThat(rows.get("o7")).isEqualTo("127.5|127|region=r1");
  }

  private static String[] concat(String[] a, String... b) {
    List<String> out = new ArrayList<>(List.of(a));
    out.addAll(List.of(b));
    return out.toArray(new String[0]);
  }

  @Test
  void copyOnWriteTableFromAFileWithSkippedBadLines() throws Exception {
    Path input = Files.writeString(dir.resolve("orders.jsonl"), """
        {"id": "o1", "ts": 1, "amount": 10.0, "region": "eu"}
        {"id": "o2", "ts": "x", "amount": 1.0, "region": "eu"}
        {broken
        {"id": "o3", "ts": 2, "amount": 3.0, "region": "eu"}
        """);
    Path table = dir.resolve("cow");
    runJob(args(input, table, "COPY_ON_WRITE", "--on-bad-record", "skip", "--infer-sample", "1"));
    assertThat(snapshot(table)).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        "o1", "10.0|1|region=eu", "o3", "3.0|2|region=eu")));
  }

  @Test
  void withNewFieldsAddFieldsBeyondTheInferredSchemaBecomeColumnsAndEarlierRowsReadThemAsNull() throws Exception {
    Path input = Files.writeString(dir.resolve("orders.jsonl"), """
        {"id": "o1", "ts": 1, "amount": 10.0, "region": "eu"}
        {"id": "o2", "ts": 1, "amount": 20.0, "region": "us", "coupon": "SPRING"}
        {"id": "o3", "ts": 1, "amount": 30.0, "region": "eu", "coupon": null, "items": 3}
        """);
    Path table = dir.resolve("evolving");
    runJob(args(input, table, "MERGE_ON_READ", "--infer-sample", "1", "--new-fields", "add"));
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(table.toUri());
    Table t = Table.open(base.getFileSystem(new Configuration()), base);
    Map<String, String> rows = new TreeMap<>();
    for (GenericRecord r : TableReads.read(t, QuerySpec.snapshot())) {
      rows.put(r.get("id").toString(), r.get("amount") + "|" + r.get("coupon") + "|" + r.get("items"));
    }
    assertThat(rows).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        "o1", "10.0|null|null", "o2", "20.0|SPRING|null", "o3", "30.0|null|3")));

    // a later run whose schema lacks the added columns would drop them from the table: refused before it starts
    Path more = Files.writeString(dir.resolve("more.jsonl"), "{\"id\": \"o4\", \"ts\": 1, \"amount\": 1.0, \"region\": \"eu\"}\n");
    assertThatThrownBy(() -> runJob(args(more, table, "MERGE_ON_READ", "--infer-sample", "1")))
        .isInstanceOf(UsageException.class).hasMessageContaining("columns [coupon, items]")
        .hasMessageContaining("--new-fields add");
  }
}
