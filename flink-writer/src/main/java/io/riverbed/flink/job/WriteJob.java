package io.riverbed.flink.job;

import io.riverbed.flink.index.RecordKeys;
import io.riverbed.flink.sink.FlinkTables;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sink.RiverbedSink;
import io.riverbed.flink.source.AvroRowTypes;
import io.riverbed.flink.source.BadRecordException;
import io.riverbed.flink.source.JsonLineFiles;
import io.riverbed.flink.source.JsonLineSources;
import io.riverbed.flink.source.JsonLineToRow;
import io.riverbed.flink.source.JsonRowConverter;
import io.riverbed.flink.source.JsonSchemaInference;
import io.riverbed.flink.source.KafkaOffsetsTracker;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.timeline.KafkaOffsets;
import io.riverbed.flink.source.SourceLine;
import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.options.SecretOptions;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.ExceptionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write job: JSON records from files or Kafka, converted to rows of the given (or inferred)
 * schema, written into a table that commits on every checkpoint. {@code main} runs on the
 * environment it is given: the cluster's under {@code flink run}, an embedded MiniCluster when
 * started as a plain Java program ({@code deploy/bin/riverbed-write}).
 */
public final class WriteJob {
  private static final Logger LOG = LoggerFactory.getLogger(WriteJob.class);

  private WriteJob() {}

  public static void main(String[] args) throws Exception {
    if (WriteJobArguments.wantsHelp(args)) {
      System.out.print(WriteJobArguments.USAGE);
      return;
    }
    WriteJobConfig config;
    try {
      config = WriteJobArguments.parse(args);
    } catch (UsageException e) {
      System.err.println("riverbed-write: " + e.getMessage());
      System.err.println("Run with --help for all flags.");
      System.exit(2);
      return;
    }
    try {
      JobExecutionResult result = run(config, TableSinkBuilder.tableWriter());
      if (!result.isJobExecutionResult()) {
        System.out.printf("riverbed-write: submitted job %s (detached: it commits on every checkpoint while it runs)%n",
            result.getJobID());
        return;
      }
      Long skipped = result.getAccumulatorResult(JsonLineToRow.SKIPPED);
      System.out.printf("riverbed-write: job %s finished in %.1f s%s%n", result.getJobID(),
          result.getNetRuntime() / 1000.0, skipped == null || skipped == 0 ? "" : "; skipped " + skipped + " bad record(s)");
    } catch (IllegalArgumentException e) {
      System.err.println("riverbed-write: " + e.getMessage());
      System.exit(2);
    } catch (Exception e) {
      System.err.println("riverbed-write: job failed: " + rootMessage(e));
      LOG.error("Job failed", e);
      System.exit(1);
    }
  }

  /** Runs the job on {@link StreamExecutionEnvironment#getExecutionEnvironment(Configuration)}. */
  public static JobExecutionResult run(WriteJobConfig config, TableSinkBuilder sink) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flinkConfiguration(config));
    return run(config, env, sink);
  }

  public static JobExecutionResult run(WriteJobConfig config, StreamExecutionEnvironment env, TableSinkBuilder sink) throws Exception {
    build(config, env, sink);
    // A finished job has its last commit on the timeline: the writer tasks finish only after it.
    return env.execute(jobName(config));
  }

  /** Adds the job's pipeline to {@code env}; returns the row type it writes. */
  public static RowType build(WriteJobConfig config, StreamExecutionEnvironment env, TableSinkBuilder sink) {
    RowType rowType = rowType(config);
    checkFields(rowType, config.table());
    var options = new java.util.LinkedHashMap<>(config.tableOptions());
    options.put(HudiConnectorOptions.PATH.key(), toUri(config.table().path()));
    LOG.info("Write job {}: table options {}", jobName(config), SecretOptions.redact(options));
    if (!config.input().addNewFields()) {
      requireTableColumns(rowType, FlinkWriteOptions.fromMap(options));
    }
    RecordKeys keys = RecordKeys.of(rowType, FlinkWriteOptions.fromMap(options)).resolve();
    Input input = input(config, env, rowType, keyCheck(keys), FlinkWriteOptions.fromMap(options));
    if (config.input().addNewFields()) {
      sink.buildAddingNewFields(input.rows(), input.kafkaOffsets(), rowType, options);
    } else {
      sink.build(input.rows(), input.kafkaOffsets(), rowType, options);
    }
    return rowType;
  }

  static String jobName(WriteJobConfig config) {
    String from = config.source().kind() == WriteJobConfig.SourceKind.FILE
        ? config.source().inputPath() : "kafka topic " + config.source().topic();
    return "riverbed-write: " + from + " -> " + config.table().name();
  }

  /**
   * The Flink configuration of the job: streaming mode, checkpoints every interval retained on
   * cancellation in the checkpoint directory, the restore path, parallelism, a bounded restart
   * strategy (3 attempts, so a bad record does not loop forever), object reuse between chained
   * operators ({@code pipeline.object-reuse}), then every {@code --flink-conf};
   * with {@code state.backend.type=rocksdb} the index's RocksDB settings the flags left unset
   * ({@link io.riverbed.flink.index.RocksDbIndexSettings}).
   */
  public static Configuration flinkConfiguration(WriteJobConfig config) {
    Configuration conf = new Configuration();
    conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, config.checkpoints().interval());
    conf.set(CheckpointingOptions.ENABLE_CHECKPOINTS_AFTER_TASKS_FINISH, true);
    conf.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION, ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    config.checkpoints().dir().ifPresent(dir -> {
      conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
      conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, toUri(dir));
    });
    config.checkpoints().restore().ifPresent(r -> conf.set(StateRecoveryOptions.SAVEPOINT_PATH, restorePath(config)));
    config.parallelism().ifPresent(p -> conf.set(CoreOptions.DEFAULT_PARALLELISM, p));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, java.time.Duration.ofSeconds(1));
    conf.set(PipelineOptions.NAME, jobName(config));
    // every operator of the job emits new rows and holds none it received (the assigner and the writer copy
    // or encode what they keep), so chained operators need not copy each row: a copy per field per operator
    conf.set(PipelineOptions.OBJECT_REUSE, true);
    config.flinkConf().forEach(conf::setString);
    var rocksDb = io.riverbed.flink.index.RocksDbIndexSettings.apply(conf);
    if (!rocksDb.isEmpty()) {
      LOG.info("State backend RocksDB: set for the state index (the job's own settings win): {}", rocksDb);
    }
    return conf;
  }

  /** The checkpoint or savepoint {@code --restore} names; {@code latest} is looked up. */
  static String restorePath(WriteJobConfig config) {
    String restore = config.checkpoints().restore().orElseThrow();
    if (!restore.equals("latest")) {
      return toUri(restore);
    }
    String dir = toUri(config.checkpoints().dir().orElseThrow());
    String found = RetainedCheckpoints.latest(dir).orElseThrow(() -> new IllegalArgumentException(
        "--restore latest: no completed checkpoint under " + dir + " (a first run starts without --restore)"));
    LOG.info("Restoring from the latest retained checkpoint {}", found);
    return found;
  }

  /** Local paths without a scheme become absolute {@code file:} URIs; others are kept. */
  static String toUri(String path) {
    return path.contains(":/") ? path : new File(path).getAbsoluteFile().toURI().toString();
  }

  /** The row type: from {@code --schema}, else inferred from the first records of the input. */
  public static RowType rowType(WriteJobConfig config) {
    if (config.input().schemaFile().isPresent()) {
      return AvroRowTypes.toRowType(AvroRowTypes.readSchema(new File(config.input().schemaFile().get())));
    }
    RowType inferred = JsonLineFiles.withLines(config.source().inputPath(),
        lines -> JsonSchemaInference.infer(lines, config.input().inferSample(), config.input().onBadRecord()));
    LOG.info("Inferred the schema from the first {} record(s) of {} (save it and pass --schema to fix it): {}",
        config.input().inferSample(), config.source().inputPath(),
        io.riverbed.flink.write.RowTypeAvroConverter.toAvroSchema(inferred, config.table().name()));
    return inferred;
  }

  /** Fails naming the flag when a key, ordering or partition field is not in the row type. */
  static void checkFields(RowType rowType, WriteJobConfig.Table table) {
    List<String> problems = new ArrayList<>();
    table.recordKey().forEach(f -> check(rowType, f, "--record-key", problems));
    table.partitionPath().forEach(f -> check(rowType, f, "--partition-path", problems));
    if (!table.precombine().equals(HudiConnectorOptions.NO_PRECOMBINE)) {
      check(rowType, table.precombine(), "--precombine", problems);
    }
    if (!problems.isEmpty()) {
      throw new UsageException(String.join("; ", problems) + "; the schema has fields " + rowType.getFieldNames());
    }
  }

  private static void check(RowType rowType, String path, String flag, List<String> problems) {
    LogicalType type = rowType;
    for (String part : path.split("\\.")) {
      if (!(type instanceof RowType row) || !row.getFieldNames().contains(part)) {
        problems.add(flag + " field '" + path + "' is not in the schema");
        return;
      }
      type = row.getTypeAt(row.getFieldIndex(part));
    }
  }

  /**
   * Fails naming them when the table has columns the job's schema lacks (as after a run with
   * {@code --new-fields add}): the job would commit a schema without them, and readers would lose
   * them from the table.
   */
  static void requireTableColumns(RowType rowType, FlinkWriteOptions tableOptions) {
    var fs = FlinkTables.fileSystem(tableOptions);
    var base = new org.apache.hadoop.fs.Path(tableOptions.path());
    if (!Table.exists(fs, base)) {
      return;
    }
    Table table = Table.open(fs, base);
    List<String> missing = TableSchemaResolver.resolve(table, table.refreshTimeline())
        .map(s -> TableSchemas.removeMetaFields(s).getFields().stream().map(Schema.Field::name)
            .filter(name -> !rowType.getFieldNames().contains(name)).toList())
        .orElse(List.of());
    if (!missing.isEmpty()) {
      throw new UsageException("table " + tableOptions.path() + " has columns " + missing + " the job's schema lacks "
          + "(added by an earlier run with --new-fields add?); run with --new-fields add to keep them, or add them "
          + "to --schema");
    }
  }

  /**
   * The check of every converted row, where its source line is known: a row whose partition value
   * the core's partition path rule refuses is a bad record ({@code --on-bad-record} decides); a
   * row without a record key fails the job naming its line, under either policy.
   */
  static JsonLineToRow.RowCheck keyCheck(RecordKeys keys) {
    return row -> {
      GenericRecord fields = keys.keyFields(row);
      keys.recordKey(fields);
      try {
        keys.partitionPath(fields);
      } catch (InvalidRecordException e) {
        throw new BadRecordException(e.getMessage());
      }
    };
  }

  /** The job's rows, and for a Kafka source the offsets consumed up to each checkpoint barrier. */
  record Input(DataStream<RowData> rows, Optional<DataStream<String>> kafkaOffsets) {}

  /**
   * Source, then JSON to rows (DELETE rows for a delete job). A Kafka source with starting offsets
   * {@code committed} starts after the last record the table's commits recorded (the group's
   * offsets only when the table recorded none), and its offsets go into every commit. Each row is
   * checked by {@code check}.
   */
  static Input input(WriteJobConfig config, StreamExecutionEnvironment env, RowType rowType,
      JsonLineToRow.RowCheck check, FlinkWriteOptions tableOptions) {
    WriteJobConfig.Source s = config.source();
    DataStream<SourceLine> lines;
    Optional<DataStream<String>> kafkaOffsets = Optional.empty();
    switch (s.kind()) {
      case FILE -> lines = env.fromSource(JsonLineSources.files(toUri(s.inputPath())), WatermarkStrategy.noWatermarks(),
              "json-lines " + s.inputPath())
          .uid("riverbed-json-lines-source");
      case KAFKA -> {
        Optional<KafkaOffsets> committed = s.startingOffsets() == JsonLineSources.StartingOffsets.COMMITTED
            ? committedKafkaOffsets(tableOptions, s.topic()) : Optional.empty();
        committed.ifPresent(o -> LOG.info("Kafka topic {}: starting after the last records committed to table {}: {}",
            s.topic(), config.table().path(), o.format()));
        var tracked = env.fromSource(JsonLineSources.kafka(s.bootstrapServers(), s.topic(), s.groupId(),
                s.startingOffsets(), committed, s.bounded()), WatermarkStrategy.noWatermarks(), "kafka " + s.topic())
            .uid("riverbed-kafka-source")
            .transform("kafka-offsets", TypeInformation.of(SourceLine.class), new KafkaOffsetsTracker())
            .uid("riverbed-kafka-offsets");
        kafkaOffsets = Optional.of(tracked.getSideOutput(KafkaOffsetsTracker.OFFSETS));
        lines = tracked;
      }
      default -> throw new IllegalArgumentException("unknown source kind " + s.kind());
    }
    RowKind kind = config.table().isDelete() ? RowKind.DELETE : RowKind.INSERT;
    boolean newFields = config.input().addNewFields();
    JsonRowConverter converter = newFields ? JsonRowConverter.keepingNewFields(rowType) : JsonRowConverter.of(rowType);
    RowType rowsType = newFields ? RiverbedSink.withNewFieldsColumn(rowType) : rowType;
    DataStream<RowData> rows = lines
        .flatMap(new JsonLineToRow(converter, config.input().onBadRecord(), kind, check), InternalTypeInfo.of(rowsType))
        .name("json-to-row").uid("riverbed-json-to-row");
    return new Input(rows, kafkaOffsets);
  }

  /**
   * The Kafka offsets of {@code topic} the table's newest commits recorded, if the table exists;
   * the table is opened as the writer opens it ({@code hadoop.*} options apply).
   */
  static Optional<KafkaOffsets> committedKafkaOffsets(FlinkWriteOptions tableOptions, String topic) {
    var fs = FlinkTables.fileSystem(tableOptions);
    var base = new org.apache.hadoop.fs.Path(tableOptions.path());
    if (!Table.exists(fs, base)) {
      return Optional.empty();
    }
    Table table = Table.open(fs, base);
    return KafkaOffsets.latestCommitted(table.timelineStore(), table.refreshTimeline()).filter(o -> o.topic().equals(topic));
  }

  static String rootMessage(Throwable e) {
    Throwable root = ExceptionUtils.findThrowable(e, io.riverbed.format.TableException.class)
        .map(t -> (Throwable) t).orElse(ExceptionUtils.stripExecutionException(e));
    while (root.getCause() != null && root.getMessage() == null) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.toString() : root.getMessage();
  }
}
