package io.riverbed.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.sink.RiverbedSink;
import io.riverbed.flink.source.JsonLineToRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records whose partition value would leave the table, through the write job (under
 * {@code --on-bad-record skip} and {@code fail}) and through the DataStream API: nothing is written
 * outside the table folder nor loose in its root, the committed rows are exactly the good input,
 * and every refused record is counted and named.
 */
class HostilePartitionValuesTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir Path dir;

  /** The table folder, two levels below the temporary folder so that {@code ..} and {@code ../..} land inside it. */
  private Path table() {
    return dir.resolve("lake").resolve("orders");
  }

  /** Values the partition path rule refuses without url encoding, each aimed at a folder of the test. */
  private List<String> hostile() {
    return List.of("..", ".", ".hoodie", "../escape", "../../up", "region=x/../../../sideways",
        dir.resolve("abs").toString(), "file:" + dir.resolve("scheme"), "c:d", "#?&*:", "a//b", "trailing/");
  }

  private Path input() throws IOException {
    var lines = new ArrayList<String>();
    lines.add("{\"id\": \"g1\", \"ts\": 1, \"amount\": 1.0, \"region\": \"eu\"}");
    int i = 0;
    for (String value : hostile()) {
      lines.add("{\"id\": \"h" + i++ + "\", \"ts\": 1, \"amount\": 9.0, \"region\": " + json(value) + "}");
    }
    lines.add("{\"id\": \"g2\", \"ts\": 1, \"amount\": 2.0, \"region\": \"new york\"}");
    lines.add("{\"id\": \"g3\", \"ts\": 1, \"amount\": 3.0, \"region\": \"Z\u00fcrich/100%\"}");
    lines.add("{\"id\": \"g4\", \"ts\": 1, \"amount\": 4.0, \"region\": \"\"}");
    Path in = Files.createDirectories(dir.resolve("in")).resolve("orders.jsonl");
    return Files.writeString(in, String.join("\n", lines) + "\n");
  }

  private static String json(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private String[] args(Path input, String onBadRecord, String... more) {
    var a = new ArrayList<>(List.of("--source", "file", "--input", input.toString(),
        "--table-path", table().toString(), "--table-name", "orders", "--table-type", "MERGE_ON_READ",
        "--record-key", "id", "--precombine", "ts", "--partition-path", "region",
        "--checkpoint-interval", "300ms", "--parallelism", "1", "--on-bad-record", onBadRecord,
        "--checkpoint-dir", JobCheckpointFolders.create("hostile-partitions").toString(),
        "--schema", schema().toString()));
    a.addAll(List.of(more));
    return a.toArray(new String[0]);
  }

  private Path schema() {
    try {
      return Files.writeString(dir.resolve("in").resolve("orders.avsc"), """
          {"type": "record", "name": "o", "fields": [{"name": "id", "type": "string"}, {"name": "ts", "type": "long"},
            {"name": "amount", "type": "double"}, {"name": "region", "type": ["null", "string"]}]}""");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static JobExecutionResult run(String... args) throws Exception {
    WriteJobConfig config = WriteJobArguments.parse(args);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(WriteJob.flinkConfiguration(config));
    return WriteJob.run(config, env, TableSinkBuilder.tableWriter());
  }

  /** The temporary folder holds the input and the table only; the table root holds only folders of good partitions. */
  private void assertNothingOutsideTheTable(String... partitions) throws IOException {
    assertThat(names(dir)).containsExactlyInAnyOrder("in", "lake");
    assertThat(names(dir.resolve("in"))).containsExactlyInAnyOrder("orders.jsonl", "orders.avsc");
    assertThat(names(dir.resolve("lake"))).containsExactly("orders");
    var root = new ArrayList<>(List.of(".hoodie"));
    root.addAll(List.of(partitions));
    assertThat(names(table())).containsExactlyInAnyOrderElementsOf(root);
    try (Stream<Path> meta = Files.list(table().resolve(".hoodie"))) {
      assertThat(meta.map(p -> p.getFileName().toString())).doesNotContain(".hoodie_partition_metadata")
          .noneMatch(name -> name.endsWith(".parquet") || name.contains(".log."));
    }
  }

  private static List<String> names(Path folder) throws IOException {
    try (Stream<Path> children = Files.list(folder)) {
      return children.map(p -> p.getFileName().toString()).toList();
    }
  }

  @Test
  void skipDropsCountsAndNamesEveryRefusedRecordAndCommitsTheRest() throws Exception {
    Path input = input();
    JobExecutionResult result;
    try (var warnings = Warnings.of(JsonLineToRow.class)) {
      result = run(args(input, "skip"));
      for (int i = 0; i < hostile().size(); i++) {
        String line = "line " + (i + 2) + " of ";
        String key = "record key \"h" + i + "\"";
        String value = "partition field 'region' value " + json(hostile().get(i));
        assertThat(warnings.messages()).as(value)
            .anyMatch(m -> m.contains(line) && m.contains(key) && m.contains(value));
      }
    }
    assertThat((Long) result.getAccumulatorResult(JsonLineToRow.SKIPPED)).isEqualTo(hostile().size());
    assertThat(WriteJobEndToEndTest.snapshot(table())).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        "g1", "1.0|1|eu", "g2", "2.0|1|new york", "g3", "3.0|1|Z\u00fcrich/100%", "g4", "4.0|1|__HIVE_DEFAULT_PARTITION__")));
    assertNothingOutsideTheTable("eu", "new york", "Z\u00fcrich", "__HIVE_DEFAULT_PARTITION__");
  }

  @Test
  void failFailsNamingTheFirstRefusedRecordAndWritesNothingOutsideTheTable() throws Exception {
    Path input = input();
    assertThatThrownBy(() -> run(args(input, "fail", "--flink-conf", "restart-strategy.type=none")))
        .satisfies(e -> assertThat(WriteJob.rootMessage(e))
            .startsWith("bad record at line 2 of " + input.toUri().toString().replace("file:///", "file:/") + ": ")
            .contains("record key \"h0\"", "partition field 'region' value \"..\"")
            .endsWith("(use --on-bad-record skip to skip such records)"));
    // the table exists (created when the pipeline was built) and holds no partition of a refused value
    assertNothingOutsideTheTable(names(table()).stream().filter(n -> !n.equals(".hoodie")).toArray(String[]::new));
    assertThat(names(table())).allMatch(n -> n.equals(".hoodie") || n.equals("eu"));
  }

  @Test
  void urlEncodingAcceptsSlashesAndColonsButStillRefusesDotSegments() throws Exception {
    Path input = input();
    JobExecutionResult result = run(args(input, "skip", "--set", "hoodie.datasource.write.partitionpath.urlencode=true"));
    // '..', '.', '.hoodie', '../escape', '../../up' stay refused: escaping keeps '.'
    assertThat((Long) result.getAccumulatorResult(JsonLineToRow.SKIPPED)).isEqualTo(5L);
    Map<String, String> rows = WriteJobEndToEndTest.snapshot(table());
    assertThat(rows).containsEntry("g3", "3.0|1|Z\u00fcrich%2F100%25").containsEntry("h7", "9.0|1|file%3A"
        + dir.resolve("scheme").toString().replace("/", "%2F")).containsEntry("h8", "9.0|1|c%3Ad")
        .containsEntry("h9", "9.0|1|%23%3F&%2A%3A").hasSize(4 + hostile().size() - 5);
    assertThat(names(dir.resolve("lake"))).containsExactly("orders");
    assertThat(names(dir)).containsExactlyInAnyOrder("in", "lake");
  }

  @Test
  void emptyRecordKeyFailsNamingTheLineAndTheInputEvenUnderSkip() throws Exception {
    Path input = Files.writeString(Files.createDirectories(dir.resolve("in")).resolve("orders.jsonl"),
        "{\"id\": \"g1\", \"ts\": 1, \"amount\": 1.0, \"region\": \"eu\"}\n"
            + "{\"id\": \"\", \"ts\": 7, \"amount\": 5.5, \"region\": \"us\"}\n");
    assertThatThrownBy(() -> run(args(input, "skip", "--flink-conf", "restart-strategy.type=none")))
        .satisfies(e -> assertThat(WriteJob.rootMessage(e))
            .startsWith("record at line 2 of " + input.toUri().toString().replace("file:///", "file:/") + ": ")
            .contains("record key field 'id' is empty")
            .contains("in record {\"id\": \"\", \"region\": \"us\"}")
            .endsWith("the record: {\"id\": \"\", \"ts\": 7, \"amount\": 5.5, \"region\": \"us\"}"));
  }

  @Test
  void dataStreamWriteFailsNamingTheRecordAndWritesNothingOutsideTheTable() throws Exception {
    RowType rowType = (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.STRING().notNull()),
        DataTypes.FIELD("region", DataTypes.STRING())).notNull().getLogicalType();
    Files.createDirectories(dir.resolve("in"));
    Files.writeString(dir.resolve("in").resolve("orders.jsonl"), "");
    schema();
    List<RowData> rows = List.of(row("g1", "eu"), row("h1", "../escape"));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.enableCheckpointing(300);
    env.setRestartStrategy(org.apache.flink.api.common.restartstrategy.RestartStrategies.noRestart());
    RiverbedSink.forRowData(rowType, Map.of("path", table().toUri().toString(), "table.type", "MERGE_ON_READ",
            "hoodie.datasource.write.recordkey.field", "id", "hoodie.datasource.write.partitionpath.field", "region",
            "precombine.field", "no_precombine"))
        .sinkTo(env.fromData(rows, InternalTypeInfo.of(rowType)));
    assertThatThrownBy(() -> env.execute("hostile"))
        .satisfies(e -> assertThat(WriteJob.rootMessage(e))
            .startsWith("table ").contains("orders: ").contains("record key \"h1\"", "partition field 'region' value \"../escape\""));
    assertNothingOutsideTheTable(names(table()).stream().filter(n -> !n.equals(".hoodie")).toArray(String[]::new));
    assertThat(names(table())).allMatch(n -> n.equals(".hoodie") || n.equals("eu"));
  }

  private static RowData row(String id, String region) {
    return GenericRowData.of(StringData.fromString(id), StringData.fromString(region));
  }

  /** WARN and higher events of one logger, collected while open. */
  static final class Warnings extends AbstractAppender implements AutoCloseable {
    private final Logger logger;
    private final List<String> messages = new java.util.concurrent.CopyOnWriteArrayList<>();

    private Warnings(Logger logger) {
      super("warnings-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
      this.logger = logger;
    }

    static Warnings of(Class<?> type) {
      var logger = (Logger) LogManager.getLogger(type);
      var warnings = new Warnings(logger);
      warnings.start();
      logger.addAppender(warnings);
      return warnings;
    }

    @Override
    public void append(LogEvent event) {
      messages.add(event.getMessage().getFormattedMessage());
    }

    List<String> messages() {
      return messages;
    }

    @Override
    public void close() {
      logger.removeAppender(this);
      stop();
    }
  }
}
