package io.riverbed.format.write;

import io.riverbed.format.file.FileNames;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.PartitionMetadata;
import io.riverbed.format.table.Table;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;

/**
 * What the handles of one write task share for one instant: the table, the instant time, the
 * task's identity (which makes the write token {@code taskIndex-parallelism-attempt} and the
 * sequence numbers {@code <instant>_<taskIndex>_<n>}), the table schema and the options.
 * Creating one does no I/O. Thread-safe.
 */
public final class WriteTaskContext {
  private final Table table;
  private final String instantTime;
  private final int taskIndex;
  private final int parallelism;
  private final int attempt;
  private final Schema tableSchema;
  private final Schema writerSchema;
  private final WriteOptions options;
  private final Markers markers;
  private final AtomicLong sequence;
  private final Set<String> partitionsMarked;

  private WriteTaskContext(Table table, String instantTime, int taskIndex, int parallelism, int attempt,
      Schema tableSchema, WriteOptions options) {
    this(table, instantTime, taskIndex, parallelism, attempt, tableSchema, options, new AtomicLong(),
        ConcurrentHashMap.newKeySet());
  }

  private WriteTaskContext(Table table, String instantTime, int taskIndex, int parallelism, int attempt,
      Schema tableSchema, WriteOptions options, AtomicLong sequence, Set<String> partitionsMarked) {
    this.sequence = sequence;
    this.partitionsMarked = partitionsMarked;
    this.table = Objects.requireNonNull(table, "table");
    this.instantTime = Objects.requireNonNull(instantTime, "instantTime");
    this.taskIndex = taskIndex;
    this.parallelism = parallelism;
    this.attempt = attempt;
    this.tableSchema = TableSchemas.removeMetaFields(tableSchema);
    this.writerSchema = TableSchemas.addMetaFields(this.tableSchema);
    this.options = Objects.requireNonNull(options, "options");
    this.markers = Markers.of(table.fs(), table.metaPath(), instantTime);
  }

  /**
   * A context for task {@code taskIndex} of {@code parallelism}, attempt {@code attempt}.
   *
   * @param tableSchema the table's Avro schema (meta fields, if present, are ignored)
   */
  public static WriteTaskContext of(Table table, String instantTime, int taskIndex, int parallelism, int attempt,
      Schema tableSchema, WriteOptions options) {
    return new WriteTaskContext(table, instantTime, taskIndex, parallelism, attempt, tableSchema, options);
  }

  /** A single-task context (task 0 of 1, attempt 0): for tests and non-parallel writers. */
  public static WriteTaskContext single(Table table, String instantTime, Schema tableSchema) {
    return of(table, instantTime, 0, 1, 0, tableSchema, WriteOptions.defaults());
  }

  /**
   * This context with another table schema, for the files the task writes next in the same instant
   * (a task that added columns met in its input); sequence numbers and markers continue.
   */
  public WriteTaskContext withSchema(Schema tableSchema) {
    return new WriteTaskContext(table, instantTime, taskIndex, parallelism, attempt, tableSchema, options, sequence,
        partitionsMarked);
  }

  public Table table() {
    return table;
  }

  public String instantTime() {
    return instantTime;
  }

  public int taskIndex() {
    return taskIndex;
  }

  /** {@code taskIndex-parallelism-attempt}, as Hudi's Flink writer makes it. */
  public String writeToken() {
    return FileNames.writeToken(taskIndex, parallelism, attempt);
  }

  /** The table schema without meta fields ({@code extraMetadata.schema}). */
  public Schema tableSchema() {
    return tableSchema;
  }

  /** The table schema with the five meta fields in front: what data files hold. */
  public Schema writerSchema() {
    return writerSchema;
  }

  public WriteOptions options() {
    return options;
  }

  /** The payload rule merges use: the writer's payload class override, else the table's. */
  public PayloadMergeRule mergeRule() {
    return PayloadMergeRule.forPayloadClass(options.payloadClassOr(table.config().payloadClass()));
  }

  /** The ordering field: the writer's override, else the table's precombine field; null if none. */
  public String orderingField() {
    return options.precombineField() != null ? options.precombineField()
        : table.config().precombineField().orElse(null);
  }

  /** The next {@code _hoodie_commit_seqno}: {@code <instant>_<taskIndex>_<n>}, n from 0 per task. */
  String nextSequenceNumber() {
    return instantTime + "_" + taskIndex + "_" + sequence.getAndIncrement();
  }

  /** Creates the partition marker (once per partition and task) and the data file's write marker. */
  void prepareFile(String partitionPath, String fileName, Markers.Type type) {
    if (partitionsMarked.add(partitionPath)) {
      PartitionMetadata.writeIfAbsent(table.fs(), table.basePath(), partitionPath, instantTime);
    }
    markers.mark(partitionPath, fileName, type);
  }

  /** {@code partition/fileName}, or {@code fileName} for a non-partitioned table. */
  static String relativePath(String partitionPath, String fileName) {
    return partitionPath.isEmpty() ? fileName : partitionPath + "/" + fileName;
  }
}
