package io.riverbed.flink.sql;

import io.riverbed.flink.sink.FlinkWriteOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The Flink SQL options of the {@code hudi} connector that the factory reads itself, for its sink
 * and its source (keys from {@link FlinkWriteOptions}, Hudi's names, HUDI_TABLE_V6.md §8.5). Every other option of the table is passed on to the writer
 * unchanged, so any write option the writer knows can be set in {@code WITH (...)}.
 */
public final class HudiConnectorOptions {
  private HudiConnectorOptions() {}

  public static final ConfigOption<String> PATH = ConfigOptions.key(FlinkWriteOptions.PATH)
      .stringType().noDefaultValue()
      .withDescription("Base path of the table.");

  public static final ConfigOption<String> TABLE_NAME = ConfigOptions.key(FlinkWriteOptions.TABLE_NAME)
      .stringType().noDefaultValue()
      .withDescription("Table name stored in hoodie.properties; defaults to the SQL table's name.");

  public static final ConfigOption<String> TABLE_TYPE = ConfigOptions.key(FlinkWriteOptions.TABLE_TYPE)
      .stringType().defaultValue("COPY_ON_WRITE")
      .withFallbackKeys(FlinkWriteOptions.TABLE_TYPE_FALLBACK)
      .withDescription("COPY_ON_WRITE or MERGE_ON_READ.");

  public static final ConfigOption<String> RECORD_KEY_FIELD = ConfigOptions.key(FlinkWriteOptions.RECORD_KEY_FIELD)
      .stringType().defaultValue("uuid")
      .withDescription("Record key field(s), comma separated; PRIMARY KEY overrides it.");

  public static final ConfigOption<String> PARTITION_PATH_FIELD = ConfigOptions.key(FlinkWriteOptions.PARTITION_PATH_FIELD)
      .stringType().defaultValue("")
      .withDescription("Partition field(s), comma separated; PARTITIONED BY overrides it. Empty: not partitioned.");

  public static final String NO_PRECOMBINE = FlinkWriteOptions.NO_PRECOMBINE;

  public static final ConfigOption<String> PRECOMBINE_FIELD = ConfigOptions.key(FlinkWriteOptions.PRECOMBINE_FIELD)
      .stringType().defaultValue("ts")
      .withFallbackKeys(FlinkWriteOptions.PRECOMBINE_FIELD_FALLBACK_1, FlinkWriteOptions.PRECOMBINE_FIELD_FALLBACK_2)
      .withDescription("Ordering field: of two records with one key the larger value wins. 'no_precombine' disables.");

  public static final ConfigOption<String> OPERATION = ConfigOptions.key(FlinkWriteOptions.OPERATION)
      .stringType().defaultValue("upsert")
      .withDescription("upsert or insert.");

  public static final ConfigOption<Boolean> HIVE_STYLE_PARTITIONING = ConfigOptions.key(FlinkWriteOptions.HIVE_STYLE_PARTITIONING)
      .booleanType().defaultValue(false)
      .withDescription("Partition folders named field=value.");

  public static final ConfigOption<Integer> WRITE_TASKS = ConfigOptions.key(FlinkWriteOptions.WRITE_TASKS)
      .intType().noDefaultValue()
      .withDescription("Parallelism of the write tasks; defaults to the job's parallelism.");

  public static final ConfigOption<String> QUERY_TYPE = ConfigOptions.key("hoodie.datasource.query.type")
      .stringType().defaultValue("snapshot")
      .withFallbackKeys("query.type")
      .withDescription("What a SELECT reads: snapshot (base files merged with logs), read_optimized (base files only) "
          + "or incremental (the changes of the commits from read.start-commit to read.end-commit).");

  public static final ConfigOption<String> READ_START_COMMIT = ConfigOptions.key("read.start-commit")
      .stringType().noDefaultValue()
      .withDescription("Incremental queries: the first commit read (inclusive), as yyyyMMddHHmmss[SSS], or 'earliest'.");

  public static final ConfigOption<String> READ_END_COMMIT = ConfigOptions.key("read.end-commit")
      .stringType().noDefaultValue()
      .withDescription("Incremental queries: the last commit read (inclusive; default the latest). Snapshot and "
          + "read_optimized queries: time travel, the table as of this instant.");

  public static final ConfigOption<Integer> READ_TASKS = ConfigOptions.key("read.tasks")
      .intType().noDefaultValue()
      .withDescription("Parallelism of the source's read tasks; default the job's parallelism.");

  public static final ConfigOption<Boolean> READ_STREAMING_ENABLED = ConfigOptions.key("read.streaming.enabled")
      .booleanType().defaultValue(false)
      .withDescription("Streaming read: the SELECT never ends and emits each commit's changes as an upsert changelog "
          + "(the table needs a PRIMARY KEY), from read.start-commit ('earliest': the whole table first; default: "
          + "commits after the latest one).");

  public static final ConfigOption<Integer> READ_STREAMING_CHECK_INTERVAL =
      ConfigOptions.key("read.streaming.check-interval")
      .intType().defaultValue(60)
      .withDescription("Streaming read: seconds between two looks at the table's timeline for new commits.");

  public static final ConfigOption<Boolean> READ_STREAMING_SKIP_COMPACTION =
      ConfigOptions.key("read.streaming.skip_compaction")
      .booleanType().defaultValue(false)
      .withDescription("Streaming read: plan no reads for compaction commits. Either way a compaction emits no "
          + "change (its rows keep the commit times of the writes they merge).");

  public static final ConfigOption<java.time.Duration> LOOKUP_JOIN_CACHE_TTL = ConfigOptions.key("lookup.join.cache.ttl")
      .durationType().defaultValue(java.time.Duration.ofMinutes(60))
      .withDescription("Lookup joins: at most this long between two looks at the timeline; a newer commit makes each "
          + "join task read the table's snapshot into memory again.");

  public static final ConfigOption<String> CONSUMER_ID = ConfigOptions.key("consumer-id")
      .stringType().noDefaultValue()
      .withDescription("Streaming read: registers the read as this consumer of the table at every completed "
          + "checkpoint, so that cleaning and archival keep what it has still to read (as Paimon's consumer-id).");

  /** Table types the writer accepts, as spelled in options. */
  public static final java.util.List<String> TABLE_TYPES = java.util.List.of("COPY_ON_WRITE", "MERGE_ON_READ");

  /** Write operations the writer accepts ({@code delete} is a job flag, not a table option). */
  public static final java.util.List<String> OPERATIONS = java.util.List.of("upsert", "insert");
}
