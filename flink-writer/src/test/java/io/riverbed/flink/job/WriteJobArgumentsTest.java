package io.riverbed.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.source.BadRecordPolicy;
import io.riverbed.flink.source.JsonLineSources.StartingOffsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.junit.jupiter.api.Test;

class WriteJobArgumentsTest {
  private static final List<String> TABLE = List.of("--table-path", "file:/lake/orders", "--table-name", "orders",
      "--table-type", "MERGE_ON_READ", "--record-key", "id", "--precombine", "ts");

  private static WriteJobConfig parse(String... more) {
    List<String> args = new ArrayList<>(TABLE);
    args.addAll(List.of(more));
    return WriteJobArguments.parse(args.toArray(new String[0]));
  }

  @Test
  void fileJobWithDefaults() {
    WriteJobConfig c = parse("--source", "file", "--input", "in.jsonl");
    assertThat(c.source().kind()).isEqualTo(WriteJobConfig.SourceKind.FILE);
    assertThat(c.source().inputPath()).isEqualTo("in.jsonl");
    assertThat(c.table().operation()).isEqualTo("upsert");
    assertThat(c.table().partitionPath()).isEmpty();
    assertThat(c.input().schemaFile()).isEmpty();
    assertThat(c.input().onBadRecord()).isEqualTo(BadRecordPolicy.FAIL);
    assertThat(c.checkpoints().interval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.parallelism()).isEmpty();
  }

  @Test
  void kafkaJobWithEveryFlag() {
    WriteJobConfig c = parse("--source=kafka", "--bootstrap-servers", "127.0.0.1:9092", "--topic", "orders",
        "--group-id", "g1", "--starting-offsets", "earliest", "--bounded", "--schema", "orders.avsc",
        "--partition-path", "region, day", "--hive-style", "--operation", "insert", "--on-bad-record", "skip",
        "--new-fields", "add", "--checkpoint-interval", "500ms", "--checkpoint-dir", "/ckp", "--parallelism", "2",
        "--set", "compaction.delta_commits=3", "--set", "write.tasks=1", "--flink-conf", "pipeline.max-parallelism=8");
    assertThat(c.source()).isEqualTo(new WriteJobConfig.Source(WriteJobConfig.SourceKind.KAFKA, null, "127.0.0.1:9092",
        "orders", "g1", StartingOffsets.EARLIEST, true));
    assertThat(c.table().partitionPath()).containsExactly("region", "day");
    assertThat(c.input().addNewFields()).isTrue();
    assertThat(c.checkpoints().interval()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.tableOptions())
        .containsEntry("path", "file:/lake/orders")
        .containsEntry("hoodie.table.name", "orders")
        .containsEntry("table.type", "MERGE_ON_READ")
        .containsEntry("hoodie.datasource.write.recordkey.field", "id")
        .containsEntry("hoodie.datasource.write.partitionpath.field", "region,day")
        .containsEntry("precombine.field", "ts")
        .containsEntry("hoodie.datasource.write.hive_style_partitioning", "true")
        .containsEntry("write.operation", "insert")
        .containsEntry("compaction.delta_commits", "3")
        .containsEntry("write.tasks", "1");
    assertThat(c.flinkConf()).containsEntry("pipeline.max-parallelism", "8");
  }

  @Test
  void kafkaGroupDefaultsToTheTableNameAndStartsAtCommittedOffsets() {
    WriteJobConfig c = parse("--source", "kafka", "--bootstrap-servers", "h:1", "--topic", "t", "--schema", "s.avsc");
    assertThat(c.source().groupId()).isEqualTo("riverbed-orders");
    assertThat(c.source().startingOffsets()).isEqualTo(StartingOffsets.COMMITTED);
    assertThat(c.source().bounded()).isFalse();
  }

  @Test
  void deleteJobDeletesEveryKey() {
    WriteJobConfig c = parse("--source", "file", "--input", "keys.jsonl", "--operation", "delete");
    assertThat(c.table().isDelete()).isTrue();
    assertThat(c.tableOptions()).containsEntry("write.operation", "delete");
  }

  @Test
  void flinkConfigurationCheckpointsAndRetainsOnCancel() {
    WriteJobConfig c = parse("--source", "file", "--input", "in", "--checkpoint-interval", "2s",
        "--checkpoint-dir", "file:/ckp", "--parallelism", "2", "--restore", "file:/ckp/job/chk-3",
        "--flink-conf", "execution.checkpointing.timeout=1min");
    Configuration conf = WriteJob.flinkConfiguration(c);
    assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isEqualTo(Duration.ofSeconds(2));
    assertThat(conf.get(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION)).isEqualTo(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    assertThat(conf.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).isEqualTo("file:/ckp");
    assertThat(conf.get(CheckpointingOptions.ENABLE_CHECKPOINTS_AFTER_TASKS_FINISH)).isTrue();
    assertThat(conf.get(StateRecoveryOptions.SAVEPOINT_PATH)).isEqualTo("file:/ckp/job/chk-3");
    assertThat(conf.get(CoreOptions.DEFAULT_PARALLELISM)).isEqualTo(2);
    assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_TIMEOUT)).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void errorsSayWhichFlagIsWrong() {
    assertThatThrownBy(() -> parse()).isInstanceOf(UsageException.class).hasMessage("missing --source");
    assertThatThrownBy(() -> parse("--source", "s3")).hasMessage("--source must be file or kafka, got 's3'");
    assertThatThrownBy(() -> parse("--source", "file")).hasMessage("missing --input");
    assertThatThrownBy(() -> parse("--source", "file", "--input", "x", "--topic", "t"))
        .hasMessage("--topic does not apply to --source file");
    assertThatThrownBy(() -> parse("--source", "kafka", "--bootstrap-servers", "h:1", "--topic", "t"))
        .hasMessageContaining("--source kafka needs --schema");
    assertThatThrownBy(() -> parse("--source", "file", "--input", "x", "--colour", "red"))
        .hasMessage("unknown flag --colour");
    assertThatThrownBy(() -> parse("--source", "file", "--input")).hasMessage("--input needs a value");
    assertThatThrownBy(() -> parse("--source", "file", "--input", "x", "--input", "y")).hasMessage("--input given twice");
    assertThatThrownBy(() -> parse("--source", "file", "--input", "x", "--parallelism", "0"))
        .hasMessage("--parallelism must be a positive integer, got '0'");
    assertThatThrownBy(() -> parse("--source", "file", "--input", "x", "--checkpoint-interval", "soon"))
        .hasMessageStartingWith("--checkpoint-interval:");
    assertThatThrownBy(() -> parse("--source", "file", "--input", "x", "--on-bad-record", "ignore"))
        .hasMessage("--on-bad-record: bad-record policy must be 'skip' or 'fail', got 'ignore'");
    assertThatThrownBy(() -> parse("--source", "file", "--input", "x", "--new-fields", "merge"))
        .hasMessage("--new-fields: must be 'ignore' or 'add', got 'merge'");
    assertThat(parse("--source", "file", "--input", "x").input().addNewFields()).isFalse();
    assertThatThrownBy(() -> parse("--source", "file", "--input", "x", "--set", "novalue"))
        .hasMessage("--set takes key=value, got 'novalue'");
    assertThatThrownBy(() -> parse("--source", "file", "--input", "x", "--set", "hadoop.fs.s3a.secret.key:hunter2"))
        .hasMessage("--set takes key=value, got '******'");
    assertThatThrownBy(() -> parse("--source", "file", "--input", "x", "--operation", "merge"))
        .hasMessage("--operation must be upsert, insert or delete, got 'merge'");
    assertThatThrownBy(() -> WriteJobArguments.parse("--source", "file", "--input", "x", "--table-path", "p",
        "--table-name", "n", "--table-type", "MOR", "--record-key", "id", "--precombine", "ts"))
        .hasMessage("--table-type must be MERGE_ON_READ or COPY_ON_WRITE, got 'MOR'");
  }

  @Test
  void helpIsAskedWithNoArgumentsOrHelp() {
    assertThat(WriteJobArguments.wantsHelp(new String[0])).isTrue();
    assertThat(WriteJobArguments.wantsHelp(new String[] {"--source", "file", "--help"})).isTrue();
    assertThat(WriteJobArguments.USAGE).contains("--on-bad-record", "--restore latest|PATH", "--set key=value");
  }

  @Test
  void keyPartitionAndOrderingFieldsMustBeInTheSchema() {
    WriteJobConfig c = parse("--source", "file", "--input", "x", "--partition-path", "region,c.city");
    var rowType = (org.apache.flink.table.types.logical.RowType) org.apache.flink.table.api.DataTypes.ROW(
        org.apache.flink.table.api.DataTypes.FIELD("id", org.apache.flink.table.api.DataTypes.STRING()),
        org.apache.flink.table.api.DataTypes.FIELD("c", org.apache.flink.table.api.DataTypes.ROW(
            org.apache.flink.table.api.DataTypes.FIELD("city", org.apache.flink.table.api.DataTypes.STRING())))).getLogicalType();
    assertThatThrownBy(() -> WriteJob.checkFields(rowType, c.table()))
        .isInstanceOf(UsageException.class)
        .hasMessage("--partition-path field 'region' is not in the schema; --precombine field 'ts' is not in the schema;"
            + " the schema has fields [id, c]");
    assertThat(Optional.of(c.table().partitionPath())).contains(List.of("region", "c.city"));
  }

  @Test
  void checkpointsDefaultToTheTablesAuxiliaryFolderSoRestoreLatestNeedsNoFlag() {
    WriteJobConfig c = parse("--source", "file", "--input", "x", "--restore", "latest");
    assertThat(c.checkpoints().dir()).hasValueSatisfying(d -> assertThat(d).endsWith("/.hoodie/.aux/riverbed-checkpoints"));
  }
}
