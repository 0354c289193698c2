package io.riverbed.spark;

/**
 * The Spark session settings the DataSource follows (set with {@code spark.conf.set} or
 * {@code --conf}, not as read options): the same ones Spark's own Parquet file source follows for
 * packing files into tasks and decoding them. Listed here for the options page.
 */
public enum SessionSetting {
  MAX_PARTITION_BYTES("spark.sql.files.maxPartitionBytes", "128MB",
      "Most bytes one input partition (one task) reads: file slices are packed largest first, each costing its base "
          + "and log files' lengths plus the open cost per file; base files read alone by the vectorized reader that "
          + "are larger are read in byte ranges (by row group, as Spark splits Parquet files)."),
  OPEN_COST("spark.sql.files.openCostInBytes", "4MB",
      "The bytes opening one base or log file is counted as when packing (small files share a task)."),
  MIN_PARTITION_NUM("spark.sql.files.minPartitionNum", "the leaf-node parallelism",
      "Tasks to spread a small scan over: a partition holds at most all bytes (open costs included) divided by "
          + "this, but at least the open cost and at most maxPartitionBytes."),
  MAX_PARTITION_NUM("spark.sql.files.maxPartitionNum", "unset",
      "When packing gives more input partitions than this, the pieces are packed again into this many (about)."),
  LEAF_NODE_DEFAULT_PARALLELISM("spark.sql.leafNodeDefaultParallelism", "spark.default.parallelism",
      "Used when spark.sql.files.minPartitionNum is not set."),
  VECTORIZED_READER("spark.sql.parquet.enableVectorizedReader", "true",
      "Base files are decoded by Spark's vectorized Parquet reader: those read without logs, and those of snapshot "
          + "slices with logs, merged with the logs in Spark rows (false: row by row through parquet-avro, whole files "
          + "only)."),
  NESTED_VECTORIZED_READER("spark.sql.parquet.enableNestedColumnVectorizedReader", "true",
      "Struct columns go through the vectorized reader too (false: scans reading a struct read row by row)."),
  BATCH_SIZE("spark.sql.parquet.columnarReaderBatchSize", "4096", "Rows per vectorized batch."),
  OFF_HEAP("spark.sql.columnVector.offheap.enabled", "false", "Vectorized batches in off-heap memory."),
  WHOLE_STAGE_CODEGEN("spark.sql.codegen.wholeStage", "true",
      "Scans whose file slices are all base files hand Spark columnar batches only with whole-stage code generation "
          + "on and at most spark.sql.codegen.maxFields columns, as Spark's Parquet scan does; otherwise rows."),
  MAX_FIELDS("spark.sql.codegen.maxFields", "100", "See spark.sql.codegen.wholeStage.");

  private final String key;
  private final String sparkDefault;
  private final String description;

  SessionSetting(String key, String sparkDefault, String description) {
    this.key = key;
    this.sparkDefault = sparkDefault;
    this.description = description;
  }

  public String key() {
    return key;
  }

  /** The settings as a Markdown table, for the docs. */
  public static String markdownTable() {
    StringBuilder out = new StringBuilder("| setting | Spark's default | what the reader does with it |\n|---|---|---|\n");
    for (SessionSetting s : values()) {
      out.append("| `").append(s.key).append("` | ").append(s.sparkDefault).append(" | ").append(s.description)
          .append(" |\n");
    }
    return out.toString();
  }
}
