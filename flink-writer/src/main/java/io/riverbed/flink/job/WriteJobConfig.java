package io.riverbed.flink.job;

import io.riverbed.flink.source.BadRecordPolicy;
import io.riverbed.flink.source.JsonLineSources.StartingOffsets;
import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.format.options.SecretOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What one run of the write job does, as parsed from its command line by {@link WriteJobArguments}. */
public record WriteJobConfig(
    Source source,
    Table table,
    Input input,
    Checkpoints checkpoints,
    Optional<Integer> parallelism,
    Map<String, String> tableOverrides,
    Map<String, String> flinkConf) {

  public enum SourceKind { FILE, KAFKA }

  /** Where records come from. File fields are null for Kafka and the reverse. */
  public record Source(
      SourceKind kind,
      String inputPath,
      String bootstrapServers,
      String topic,
      String groupId,
      StartingOffsets startingOffsets,
      boolean bounded) {}

  /** The table written. {@code operation} is upsert, insert or delete. */
  public record Table(
      String path,
      String name,
      String type,
      List<String> recordKey,
      String precombine,
      List<String> partitionPath,
      boolean hiveStyle,
      String operation) {

    public boolean isDelete() {
      return operation.equals("delete");
    }
  }

  /**
   * How JSON text becomes rows: the schema file (absent: inferred), the bad-record policy, and
   * whether top-level fields beyond the schema become new columns of the table ({@code --new-fields
   * add}) or are ignored.
   */
  public record Input(Optional<String> schemaFile, int inferSample, BadRecordPolicy onBadRecord, boolean addNewFields) {
    /** Fields beyond the schema are ignored. */
    public Input(Optional<String> schemaFile, int inferSample, BadRecordPolicy onBadRecord) {
      this(schemaFile, inferSample, onBadRecord, false);
    }
  }

  /**
   * @param dir checkpoint directory (absent: checkpoints kept in memory, nothing to restore)
   * @param restore {@code latest}, a checkpoint/savepoint path, or absent
   */
  public record Checkpoints(Duration interval, Optional<String> dir, Optional<String> restore) {}

  /** The run's settings with secret option values redacted ({@link SecretOptions}). */
  @Override
  public String toString() {
    return "WriteJobConfig[source=" + source + ", table=" + table + ", input=" + input + ", checkpoints=" + checkpoints
        + ", parallelism=" + parallelism + ", tableOverrides=" + SecretOptions.redact(tableOverrides)
        + ", flinkConf=" + SecretOptions.redact(flinkConf) + "]";
  }

  /**
   * The table options handed to the writer, under Hudi's Flink option names: the flags, then
   * every {@code --set key=value} over them.
   */
  public Map<String, String> tableOptions() {
    Map<String, String> o = new LinkedHashMap<>();
    o.put(HudiConnectorOptions.PATH.key(), table.path());
    o.put(HudiConnectorOptions.TABLE_NAME.key(), table.name());
    o.put(HudiConnectorOptions.TABLE_TYPE.key(), table.type());
    o.put(HudiConnectorOptions.RECORD_KEY_FIELD.key(), String.join(",", table.recordKey()));
    o.put(HudiConnectorOptions.PARTITION_PATH_FIELD.key(), String.join(",", table.partitionPath()));
    o.put(HudiConnectorOptions.PRECOMBINE_FIELD.key(), table.precombine());
    o.put(HudiConnectorOptions.HIVE_STYLE_PARTITIONING.key(), Boolean.toString(table.hiveStyle()));
    o.put(HudiConnectorOptions.OPERATION.key(), table.operation());
    parallelism.ifPresent(p -> o.put(HudiConnectorOptions.WRITE_TASKS.key(), Integer.toString(p)));
    o.putAll(tableOverrides);
    return o;
  }
}
