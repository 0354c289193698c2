package io.riverbed.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.source.JsonLineToRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The job's pipeline up to the table writer, on a MiniCluster, with a collecting sink. */
class WriteJobPipelineTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir Path dir;

  private WriteJobConfig config(Path input, String... more) {
    List<String> args = new ArrayList<>(List.of("--source", "file", "--input", input.toString(),
        "--table-path", dir.resolve("table").toString(), "--table-name", "orders", "--table-type", "MERGE_ON_READ",
        "--record-key", "id", "--precombine", "ts", "--checkpoint-interval", "200ms", "--parallelism", "1"));
    if (!List.of(more).contains("--checkpoint-dir")) {
      args.addAll(List.of("--checkpoint-dir", JobCheckpointFolders.create("pipeline").toString()));
    }
    args.addAll(List.of(more));
    return WriteJobArguments.parse(args.toArray(new String[0]));
  }

  private static JobExecutionResult run(WriteJobConfig config, CollectingTableSink sink) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(WriteJob.flinkConfiguration(config));
    return WriteJob.run(config, env, sink);
  }

  @Test
  void boundedFileJobInfersTheSchemaAndEndsAfterTheLastRecord() throws Exception {
    Path input = Files.writeString(dir.resolve("in.jsonl"), """
        {"id": "a", "ts": 1, "amount": 2.5, "region": "eu"}

        {"id": "b", "ts": 2, "amount": 3, "region": "us", "note": "x"}
        """);
    CollectingTableSink sink = new CollectingTableSink("inferred");
    run(config(input, "--partition-path", "region"), sink);
    assertThat(sink.rowType().asSummaryString())
        .isEqualTo("ROW<`id` STRING, `ts` BIGINT, `amount` DOUBLE, `region` STRING, `note` STRING>");
    assertThat(sink.rows()).containsExactly("+I(a,1,2.5,eu,null)", "+I(b,2,3.0,us,x)");
    assertThat(sink.options()).containsEntry("hoodie.datasource.write.partitionpath.field", "region")
        .containsEntry("table.type", "MERGE_ON_READ");
  }

  @Test
  void givenSchemaDecidesTheTypes() throws Exception {
    Path schema = Files.writeString(dir.resolve("orders.avsc"), """
        {"type": "record", "name": "o", "fields": [
          {"name": "id", "type": "string"}, {"name": "ts", "type": "long"},
          {"name": "at", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}]}]}""");
    Path input = Files.writeString(dir.resolve("in.jsonl"), "{\"id\": \"a\", \"ts\": \"7\", \"at\": \"2024-05-01T10:00:00Z\"}\n");
    CollectingTableSink sink = new CollectingTableSink("schema");
    run(config(input, "--schema", schema.toString()), sink);
    assertThat(sink.rows()).containsExactly("+I(a,7,2024-05-01T10:00)");
  }

  @Test
  void aBadLineFailsTheJobNamingItsLineAndField() {
    Path input = write("""
        {"id": "a", "ts": 1}
        {"id": "b", "ts": "late"}
        """);
    Path schema = writeSchema();
    assertThatThrownBy(() -> run(config(input, "--schema", schema.toString(), "--flink-conf", "restart-strategy.type=none"),
        new CollectingTableSink("fail")))
        .satisfies(e -> assertThat(WriteJob.rootMessage(e))
            .isEqualTo("bad record at line 2 of " + input.toUri().toString().replace("file:///", "file:/")
                + ": field 'ts': expected an integer, got \"late\" (use --on-bad-record skip to skip such records)"));
  }

  @Test
  void skippedBadLinesAreCounted() throws Exception {
    Path input = write("""
        {"id": "a", "ts": 1}
        not json
        {"id": "b", "ts": "late"}
        {"id": "c", "ts": 3}
        """);
    CollectingTableSink sink = new CollectingTableSink("skip");
    JobExecutionResult result = run(config(input, "--schema", writeSchema().toString(), "--on-bad-record", "skip"), sink);
    assertThat(sink.rows()).containsExactly("+I(a,1)", "+I(c,3)");
    assertThat((Long) result.getAccumulatorResult(JsonLineToRow.SKIPPED)).isEqualTo(2L);
  }

  @Test
  void deleteJobSendsDeleteRows() throws Exception {
    Path input = write("{\"id\": \"a\", \"ts\": 9}\n");
    CollectingTableSink sink = new CollectingTableSink("delete");
    run(config(input, "--schema", writeSchema().toString(), "--operation", "delete"), sink);
    assertThat(sink.rows()).containsExactly("-D(a,9)");
  }

  @Test
  void aDirectoryInputReadsEveryVisibleFile() throws Exception {
    Path in = Files.createDirectories(dir.resolve("in"));
    Files.writeString(in.resolve("1.jsonl"), "{\"id\": \"a\", \"ts\": 1}\n");
    Files.writeString(in.resolve("2.jsonl"), "{\"id\": \"b\", \"ts\": 2}\n");
    Files.writeString(in.resolve(".hidden"), "garbage\n");
    CollectingTableSink sink = new CollectingTableSink("dir");
    run(config(in, "--schema", writeSchema().toString()), sink);
    assertThat(sink.rows()).containsExactlyInAnyOrder("+I(a,1)", "+I(b,2)");
  }

  @Test
  void unknownKeyFieldFailsBeforeTheJobStarts() {
    Path input = write("{\"id\": \"a\", \"ts\": 1}\n");
    assertThatThrownBy(() -> WriteJob.build(config(input, "--partition-path", "day"),
        StreamExecutionEnvironment.getExecutionEnvironment(), new CollectingTableSink("keys")))
        .isInstanceOf(UsageException.class)
        .hasMessage("--partition-path field 'day' is not in the schema; the schema has fields [id, ts]");
  }

  @Test
  void restoreLatestResolvesTheNewestRetainedCheckpoint() throws Exception {
    Path chk = Files.createDirectories(dir.resolve("ckp").resolve("0123").resolve("chk-4"));
    Files.writeString(chk.resolve("_metadata"), "x");
    WriteJobConfig c = config(write("{}"), "--checkpoint-dir", dir.resolve("ckp").toString(), "--restore", "latest");
    assertThat(WriteJob.flinkConfiguration(c).get(org.apache.flink.configuration.StateRecoveryOptions.SAVEPOINT_PATH)).endsWith("0123/chk-4");
    WriteJobConfig none = config(write("{}"), "--checkpoint-dir", dir.resolve("empty").toString(), "--restore", "latest");
    assertThatThrownBy(() -> WriteJob.flinkConfiguration(none)).hasMessageContaining("no completed checkpoint under");
  }

  private Path write(String text) {
    try {
      return Files.writeString(dir.resolve("in-" + System.nanoTime() + ".jsonl"), text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private Path writeSchema() {
    try {
      return Files.writeString(dir.resolve("s.avsc"), """
          {"type": "record", "name": "o", "fields": [{"name": "id", "type": "string"}, {"name": "ts", "type": "long"}]}""");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
