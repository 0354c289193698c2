package io.riverbed.flink.sink;

import io.riverbed.flink.commit.FlinkHiveSync;
import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.WriteTableVersion;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.concurrency.ConcurrencyOptions;
import io.riverbed.format.write.commit.CompactionTrigger;
import io.riverbed.format.InvalidTableException;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.options.SecretOptions;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.util.TimeUtils;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Options of the Flink streaming writer, read from a {@code Map<String,String>} with the names
 * Hudi's Flink writer uses (format doc §8.4, §8.5); every option has a default and a description
 * ({@link #DESCRIPTIONS}). Options the core write primitives read ({@code hoodie.parquet.*},
 * {@code hoodie.datasource.write.payload.class}, ...) are passed through to {@link WriteOptions}
 * and the key generator untouched ({@link #raw()}).
 *
 * <p>Deviation from Hudi: {@code table.type} defaults to {@code MERGE_ON_READ} (Hudi's Flink
 * connector defaults to {@code COPY_ON_WRITE}); {@code index.bootstrap.enabled} defaults to
 * {@code true} (Hudi: {@code false}), so an upsert to a table with data is an upsert in a new job too;
 * {@code compaction.async.enabled} defaults to {@code false} (Hudi: {@code true}) and
 * {@code compaction.schedule.enabled} to its value (Hudi: {@code true}), so a job that sets neither
 * plans and runs no compactions, as before the compaction stage existed.
 */
public record FlinkWriteOptions(
    String path,
    String tableName,
    TableType tableType,
    List<String> recordKeyFields,
    List<String> partitionFields,
    String precombineField,
    Operation operation,
    IndexType indexType,
    boolean globalIndex,
    int numBuckets,
    List<String> bucketHashFields,
    String payloadClass,
    int writeTasks,
    int bucketAssignTasks,
    long batchSizeBytes,
    boolean compactionAsyncEnabled,
    int compactionDeltaCommits,
    boolean indexBootstrapEnabled,
    Map<String, String> raw) implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Write operations of the streaming writer. */
  public enum Operation {
    /** Index lookup; updates go to the file group holding the key (default). */
    UPSERT,
    /** No index lookup: every record is a new insert; duplicates of stored keys are possible. */
    INSERT,
    /** Every incoming row deletes its key. */
    DELETE;

    static Operation parse(String v) {
      return switch (v.trim().toLowerCase(Locale.ROOT)) {
        case "upsert" -> UPSERT;
        case "insert" -> INSERT;
        case "delete" -> DELETE;
        default -> throw new IllegalArgumentException("option " + OPERATION + " must be upsert, insert or delete, got '"
            + v + "'");
      };
    }

    /** Hudi's {@code WriteOperationType} name recorded in commits. */
    public io.riverbed.format.timeline.WriteOperationType commitType() {
      return io.riverbed.format.timeline.WriteOperationType.valueOf(name());
    }
  }

  /** Where a key's file group is looked up. */
  public enum IndexType {
    /** Key → file group mapping in Flink keyed state (Hudi Flink's default). */
    FLINK_STATE,
    /** File group = hash(key) mod number of buckets, per partition; no state. */
    BUCKET
  }

  public static final String PATH = "path";
  public static final String TABLE_NAME = "hoodie.table.name";
  public static final String TABLE_TYPE = "table.type";
  public static final String TABLE_TYPE_FALLBACK = "hoodie.table.type";
  public static final String RECORD_KEY_FIELD = KeyGeneratorOptions.RECORD_KEY_FIELD;
  public static final String PARTITION_PATH_FIELD = KeyGeneratorOptions.PARTITION_PATH_FIELD;
  public static final String HIVE_STYLE_PARTITIONING = KeyGeneratorOptions.HIVE_STYLE_PARTITIONING;
  public static final String URL_ENCODE_PARTITION_PATH = KeyGeneratorOptions.URL_ENCODE_PARTITION_PATH;
  public static final String PRECOMBINE_FIELD = "precombine.field";
  public static final String PRECOMBINE_FIELD_FALLBACK_1 = "write.precombine.field";
  public static final String PRECOMBINE_FIELD_FALLBACK_2 = "hoodie.datasource.write.precombine.field";
  /** Value of {@link #PRECOMBINE_FIELD} that disables ordering (natural order, later write wins). */
  public static final String NO_PRECOMBINE = "no_precombine";
  public static final String PAYLOAD_CLASS = "payload.class";
  public static final String PAYLOAD_CLASS_FALLBACK_1 = "write.payload.class";
  public static final String PAYLOAD_CLASS_FALLBACK_2 = "hoodie.datasource.write.payload.class";
  public static final String OPERATION = "write.operation";
  public static final String INDEX_TYPE = "index.type";
  public static final String INDEX_TYPE_FALLBACK = "hoodie.index.type";
  public static final String INDEX_GLOBAL = "index.global.enabled";
  public static final String BUCKET_NUM = "hoodie.bucket.index.num.buckets";
  public static final String BUCKET_HASH_FIELD = "hoodie.bucket.index.hash.field";
  public static final String WRITE_TASKS = "write.tasks";
  public static final String BUCKET_ASSIGN_TASKS = "write.bucket_assign.tasks";
  public static final String BATCH_SIZE = "write.batch.size";
  public static final String COMPACTION_ASYNC = "compaction.async.enabled";
  public static final String COMPACTION_SCHEDULE = "compaction.schedule.enabled";
  public static final String COMPACTION_TASKS = "compaction.tasks";
  public static final String COMPACTION_TRIGGER_STRATEGY = "compaction.trigger.strategy";
  public static final String COMPACTION_DELTA_COMMITS = "compaction.delta_commits";
  public static final String COMPACTION_DELTA_SECONDS = "compaction.delta_seconds";
  public static final String COMPACTION_MAX_MEMORY = "compaction.max_memory";
  /** Hudi's Flink name; what a clean keeps is read by {@link CleanOptions#fromFlinkMap} ({@code clean.*}). */
  public static final String CLEAN_ASYNC = "clean.async.enabled";
  /** Hudi's writer key; what archival keeps is read by {@link ArchiveOptions#fromFlinkMap} ({@code archive.*}). */
  public static final String ARCHIVE_AUTOMATIC = "hoodie.archive.automatic";
  public static final String INDEX_BOOTSTRAP = "index.bootstrap.enabled";
  public static final String TOMBSTONE_RETENTION = "index.tombstone.retention";
  public static final String INDEX_STATE_TTL = "index.state.ttl";
  public static final String INDEX_PARTITION_REGEX = "index.partition.regex";
  public static final String CHECKPOINTS_CLEAN_EARLIER_RUNS = "checkpoints.clean-earlier-runs";
  public static final String LEASE_ENABLED = "write.lease.enabled";
  public static final String LEASE_TIMEOUT = "write.lease.timeout";
  public static final String RATE_LIMIT = "write.rate.limit";

  static final Duration DEFAULT_TOMBSTONE_RETENTION = Duration.ofDays(7);
  /** Hudi's Flink {@code compaction.max_memory} default, in MB. */
  static final int DEFAULT_COMPACTION_MAX_MEMORY_MB = 100;
  static final Duration DEFAULT_LEASE_TIMEOUT = Duration.ofSeconds(60);

  public static final String EVENT_TIME_PAYLOAD = "org.apache.hudi.common.model.EventTimeAvroPayload";

  /** key → {default, description}, for docs. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  public FlinkWriteOptions {
    Objects.requireNonNull(path, "path");
    recordKeyFields = List.copyOf(recordKeyFields);
    partitionFields = List.copyOf(partitionFields);
    bucketHashFields = List.copyOf(bucketHashFields);
    raw = Map.copyOf(raw);
    if (numBuckets <= 0 || batchSizeBytes <= 0 || compactionDeltaCommits <= 0) {
      throw new IllegalArgumentException("need " + BUCKET_NUM + " > 0, " + BATCH_SIZE + " > 0 and "
          + COMPACTION_DELTA_COMMITS + " > 0, got " + numBuckets + ", " + batchSizeBytes + ", " + compactionDeltaCommits);
    }
    if (!recordKeyFields.containsAll(bucketHashFields)) {
      throw new IllegalArgumentException(BUCKET_HASH_FIELD + " " + bucketHashFields + " must be a subset of the record key "
          + "fields " + recordKeyFields);
    }
  }

  /**
   * Reads the options.
   *
   * @throws IllegalArgumentException naming the option when a value is malformed or {@code path}
   *     is missing
   */
  public static FlinkWriteOptions fromMap(Map<String, String> conf) {
    String path = conf.get(PATH);
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("option '" + PATH + "' (the table base path) is required");
    }
    String name = first(conf, "", TABLE_NAME);
    if (name.isEmpty()) {
      name = new org.apache.hadoop.fs.Path(path).getName();
    }
    List<String> keys = KeyGeneratorOptions.splitFields(first(conf, "uuid", RECORD_KEY_FIELD));
    List<String> partitions = KeyGeneratorOptions.splitFields(first(conf, "", PARTITION_PATH_FIELD));
    String precombine = first(conf, "ts", PRECOMBINE_FIELD, PRECOMBINE_FIELD_FALLBACK_1, PRECOMBINE_FIELD_FALLBACK_2);
    String hash = first(conf, "", BUCKET_HASH_FIELD);
    FlinkWriteOptions options = new FlinkWriteOptions(
        path.trim(),
        name,
        TableType.valueOf(first(conf, "MERGE_ON_READ", TABLE_TYPE, TABLE_TYPE_FALLBACK).toUpperCase(Locale.ROOT)),
        keys,
        partitions,
        NO_PRECOMBINE.equals(precombine) || precombine.isEmpty() ? null : precombine,
        Operation.parse(first(conf, "upsert", OPERATION)),
        IndexType.valueOf(first(conf, "FLINK_STATE", INDEX_TYPE, INDEX_TYPE_FALLBACK).toUpperCase(Locale.ROOT)),
        bool(conf, INDEX_GLOBAL, true),
        integer(conf, BUCKET_NUM, 4),
        hash.isEmpty() ? keys : KeyGeneratorOptions.splitFields(hash),
        first(conf, EVENT_TIME_PAYLOAD, PAYLOAD_CLASS, PAYLOAD_CLASS_FALLBACK_1, PAYLOAD_CLASS_FALLBACK_2),
        integer(conf, WRITE_TASKS, -1),
        integer(conf, BUCKET_ASSIGN_TASKS, -1),
        megabytes(conf, BATCH_SIZE, 256),
        bool(conf, COMPACTION_ASYNC, false),
        integer(conf, COMPACTION_DELTA_COMMITS, 5),
        bool(conf, INDEX_BOOTSTRAP, true),
        conf);
    options.requireSafeConcurrency();
    // malformed compaction options fail when the job is built, not when the first compaction is due
    options.compactionScheduleEnabled();
    options.compactionPolicy();
    options.compactionOptions();
    options.compactionTasksOr(1);
    options.indexStateTtl();
    options.indexPartitionPattern();
    options.tableVersion();
    return options;
  }

  /** {@code hoodie.write.table.version}: the version of a table the job creates, and of an existing one when set. */
  public WriteTableVersion tableVersion() {
    return WriteTableVersion.fromMap(raw);
  }

  /** {@code hoodie.write.concurrency.mode}, the lock and the heartbeat options ({@link ConcurrencyOptions}). */
  public ConcurrencyOptions concurrencyOptions() {
    return ConcurrencyOptions.fromMap(raw);
  }

  /**
   * Refuses optimistic concurrency control with the state index: the job's state knows only the
   * keys it wrote itself, so a key another writer inserted would get a second file group here, and
   * the table would hold it twice. The bucket index on every writer places a key in one file group
   * whoever writes it.
   */
  private void requireSafeConcurrency() {
    if (concurrencyOptions().multiWriter() && indexType == IndexType.FLINK_STATE) {
      throw new IllegalArgumentException(ConcurrencyOptions.MODE + "=optimistic_concurrency_control needs "
          + INDEX_TYPE + "=BUCKET: with the state index (" + INDEX_TYPE + "=FLINK_STATE, the default) this job "
          + "does not see the keys another writer inserts and would write them a second time. Set " + INDEX_TYPE
          + "=BUCKET and " + BUCKET_NUM + " here, and hoodie.index.type=BUCKET with the same " + BUCKET_NUM
          + " on every other writer of the table (docs/CONCURRENT_WRITERS.md)");
    }
  }

  /** Options for the core write primitives: payload class and precombine field resolved here win. */
  public WriteOptions writeOptions() {
    Map<String, String> m = new TreeMap<>(raw);
    m.put(WriteOptions.PAYLOAD_CLASS, payloadClass);
    if (precombineField != null) {
      m.put(WriteOptions.PRECOMBINE_FIELD, precombineField);
    } else {
      m.remove(WriteOptions.PRECOMBINE_FIELD);
    }
    return WriteOptions.fromMap(m);
  }

  /** Key generator options (record key and partition fields, hive style, url encoding). */
  public KeyGeneratorOptions keyGeneratorOptions() {
    Map<String, String> m = new TreeMap<>(raw);
    m.put(RECORD_KEY_FIELD, String.join(",", recordKeyFields));
    m.put(PARTITION_PATH_FIELD, String.join(",", partitionFields));
    return KeyGeneratorOptions.fromMap(m);
  }

  /** True if a key can move between partitions (state index, global). */
  public boolean keyMovesAcrossPartitions() {
    return indexType == IndexType.FLINK_STATE && globalIndex;
  }

  /** {@code write.tasks}, or {@code fallback} (the input's parallelism) when unset. */
  public int writeTasksOr(int fallback) {
    return writeTasks > 0 ? writeTasks : fallback;
  }

  /**
   * True iff changes are ordered by event time across commits: an ordering field is set and the
   * payload keeps the stored record against an older change (EventTime / Default payloads). Then a
   * change older than its key's last committed write or delete is dropped, not written.
   */
  public boolean ordersAcrossCommits() {
    if (precombineField == null) {
      return false;
    }
    try {
      return PayloadMergeRule.forPayloadClass(payloadClass).ordersAcrossCommits();
    } catch (InvalidTableException e) {
      return false;
    }
  }

  /**
   * True if the write coordinator schedules compactions ({@value #COMPACTION_SCHEDULE}; default: the
   * value of {@value #COMPACTION_ASYNC}). MERGE_ON_READ only.
   */
  public boolean compactionScheduleEnabled() {
    return bool(raw, COMPACTION_SCHEDULE, compactionAsyncEnabled);
  }

  /**
   * True if the job runs the compaction stage (plan → compaction tasks → commit) after the writer:
   * a MERGE_ON_READ table with {@value #COMPACTION_ASYNC}.
   */
  public boolean runsCompactionStage() {
    return tableType == TableType.MERGE_ON_READ && compactionAsyncEnabled;
  }

  /** {@value #COMPACTION_TASKS}, or {@code writeTasks} (the writer's parallelism) when unset. */
  public int compactionTasksOr(int writeTasks) {
    int tasks = integer(raw, COMPACTION_TASKS, -1);
    if (raw.containsKey(COMPACTION_TASKS) && !raw.get(COMPACTION_TASKS).isBlank() && tasks <= 0) {
      throw new IllegalArgumentException("option " + COMPACTION_TASKS + " must be > 0, got " + tasks);
    }
    return tasks > 0 ? tasks : writeTasks;
  }

  /**
   * When the coordinator schedules a compaction: {@value #COMPACTION_TRIGGER_STRATEGY} over
   * {@value #COMPACTION_DELTA_COMMITS} and {@value #COMPACTION_DELTA_SECONDS}.
   */
  public CompactionTrigger.Policy compactionPolicy() {
    int seconds = integer(raw, COMPACTION_DELTA_SECONDS, 3600);
    if (seconds <= 0) {
      throw new IllegalArgumentException("option " + COMPACTION_DELTA_SECONDS + " must be > 0, got " + seconds);
    }
    CompactionTrigger.Strategy strategy;
    try {
      strategy = CompactionTrigger.Strategy.parse(first(raw, "num_commits", COMPACTION_TRIGGER_STRATEGY));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("option " + COMPACTION_TRIGGER_STRATEGY + ": " + e.getMessage(), e);
    }
    return new CompactionTrigger.Policy(strategy, compactionDeltaCommits, Duration.ofSeconds(seconds));
  }

  /**
   * How compactions are planned and run: the core's {@link CompactionOptions} from the
   * {@code hoodie.compaction.*} keys, with the merge memory bound of {@value #COMPACTION_MAX_MEMORY}
   * (MB; when unset, the core's {@value CompactionOptions#MAX_MEMORY} if set, else Hudi's Flink
   * default of 100 MB).
   */
  public CompactionOptions compactionOptions() {
    CompactionOptions core;
    try {
      core = CompactionOptions.fromMap(raw);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("compaction options of " + path + ": " + e.getMessage(), e);
    }
    String mb = raw.get(COMPACTION_MAX_MEMORY);
    if ((mb == null || mb.isBlank()) && raw.containsKey(CompactionOptions.MAX_MEMORY)) {
      return core;
    }
    return core.withMemory(megabytes(raw, COMPACTION_MAX_MEMORY, DEFAULT_COMPACTION_MAX_MEMORY_MB),
        core.spillDirectory());
  }

  /** True unless {@value #LEASE_ENABLED} is false: the job holds the table's writer lease while it writes. */
  public boolean leaseEnabled() {
    return bool(raw, LEASE_ENABLED, true);
  }

  /** True unless {@value #CLEAN_ASYNC} is false: the job cleans the table after its commits (Hudi Flink's default). */
  public boolean cleanAsyncEnabled() {
    return bool(raw, CLEAN_ASYNC, true);
  }

  /** What the job's cleans keep: Hudi's Flink {@code clean.*} options with their Flink defaults. */
  public CleanOptions cleanOptions() {
    return CleanOptions.fromFlinkMap(raw);
  }

  /** True unless {@value #ARCHIVE_AUTOMATIC} is false: the job archives old instants after its commits (Hudi's default). */
  public boolean archiveAutomatic() {
    return bool(raw, ARCHIVE_AUTOMATIC, true);
  }

  /** What the job's archival keeps: Hudi's Flink {@code archive.*} options with their Flink defaults. */
  public ArchiveOptions archiveOptions() {
    return ArchiveOptions.fromFlinkMap(raw);
  }

  /** How long the writer lease lasts without renewal ({@value #LEASE_TIMEOUT}). */
  public Duration leaseTimeout() {
    return duration(LEASE_TIMEOUT, DEFAULT_LEASE_TIMEOUT);
  }

  /** Records per second the whole job writes at most ({@value #RATE_LIMIT}); 0: no limit. */
  public long rateLimit() {
    long limit;
    try {
      limit = Long.parseLong(raw.getOrDefault(RATE_LIMIT, "0").trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option " + RATE_LIMIT + " must be a number of records per second, got '"
          + raw.get(RATE_LIMIT) + "'", e);
    }
    if (limit < 0) {
      throw new IllegalArgumentException("option " + RATE_LIMIT + " must be >= 0, got " + limit);
    }
    return limit;
  }

  /** How long a deleted key's tombstone (its delete's ordering value) is kept ({@value #TOMBSTONE_RETENTION}). */
  public Duration tombstoneRetention() {
    return duration(TOMBSTONE_RETENTION, DEFAULT_TOMBSTONE_RETENTION);
  }

  /**
   * How long a key's index entry lives after its last write ({@value #INDEX_STATE_TTL}, Hudi's option,
   * in days); empty when entries never expire (0, the default).
   */
  public java.util.Optional<Duration> indexStateTtl() {
    String v = raw.getOrDefault(INDEX_STATE_TTL, "0").trim();
    double days;
    try {
      days = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option " + INDEX_STATE_TTL + " must be a number of days such as 0, 1.5 "
          + "or 30, got '" + v + "'", e);
    }
    if (!(days >= 0) || Double.isInfinite(days)) {
      throw new IllegalArgumentException("option " + INDEX_STATE_TTL + " must be a number of days >= 0, got '" + v + "'");
    }
    long millis = Math.round(days * Duration.ofDays(1).toMillis());
    return millis == 0 ? java.util.Optional.empty() : java.util.Optional.of(Duration.ofMillis(millis));
  }

  /** The partitions whose keys the index bootstrap loads ({@value #INDEX_PARTITION_REGEX}, a whole-path match). */
  public java.util.regex.Pattern indexPartitionPattern() {
    String v = raw.getOrDefault(INDEX_PARTITION_REGEX, ".*");
    try {
      return java.util.regex.Pattern.compile(v.isBlank() ? ".*" : v);
    } catch (java.util.regex.PatternSyntaxException e) {
      throw new IllegalArgumentException("option " + INDEX_PARTITION_REGEX + " is not a Java regular expression: '" + v
          + "' (" + e.getDescription() + ")", e);
    }
  }

  /** Whether the job deletes the retained checkpoints of the run it was restored from ({@value #CHECKPOINTS_CLEAN_EARLIER_RUNS}). */
  public boolean cleanEarlierRunCheckpoints() {
    return bool(raw, CHECKPOINTS_CLEAN_EARLIER_RUNS, true);
  }

  private Duration duration(String key, Duration defaultValue) {
    String v = raw.get(key);
    try {
      Duration d = v == null || v.isBlank() ? defaultValue : TimeUtils.parseDuration(v.trim());
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("not positive");
      }
      return d;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("option " + key + " must be a positive duration such as '7 d', '12 h' or "
          + "'60 s', got '" + v + "'", e);
    }
  }

  public int bucketAssignTasksOr(int fallback) {
    return bucketAssignTasks > 0 ? bucketAssignTasks : fallback;
  }

  /** These options with {@code key} set to {@code value}. */
  public FlinkWriteOptions with(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(raw);
    m.put(key, value);
    return fromMap(m);
  }

  private static String first(Map<String, String> conf, String defaultValue, String... keys) {
    for (String k : keys) {
      String v = conf.get(k);
      if (v != null && !v.isBlank()) {
        return v.trim();
      }
    }
    return defaultValue;
  }

  private static boolean bool(Map<String, String> conf, String key, boolean defaultValue) {
    String v = conf.get(key);
    if (v == null || v.isBlank()) {
      return defaultValue;
    }
    return switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("option " + key + " must be true or false, got '" + v + "'");
    };
  }

  private static int integer(Map<String, String> conf, String key, int defaultValue) {
    String v = conf.get(key);
    try {
      return v == null || v.isBlank() ? defaultValue : Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option " + key + " must be an integer, got '" + v + "'", e);
    }
  }

  /** Hudi's size options are (fractional) megabytes. */
  private static long megabytes(Map<String, String> conf, String key, double defaultMb) {
    String v = conf.get(key);
    double mb;
    try {
      mb = v == null || v.isBlank() ? defaultMb : Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option " + key + " must be a number of megabytes, got '" + v + "'", e);
    }
    if (mb <= 0) {
      throw new IllegalArgumentException("option " + key + " must be > 0 MB, got '" + v + "'");
    }
    return Math.max(1, (long) (mb * 1024 * 1024));
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(PATH, new String[] {"", "Base path of the table (required). Created if missing."});
    d.put(TABLE_NAME, new String[] {"<last path segment>", "Table name, used for the Avro record name."});
    d.put(TABLE_TYPE, new String[] {"MERGE_ON_READ", "MERGE_ON_READ (log appends) or COPY_ON_WRITE (base files "
        + "rewritten per commit). Fallback key " + TABLE_TYPE_FALLBACK + "."});
    d.put(RECORD_KEY_FIELD, new String[] {"uuid", "Record key field(s), comma separated."});
    d.put(PARTITION_PATH_FIELD, new String[] {"", "Partition field(s), comma separated; empty = non-partitioned."});
    d.put(HIVE_STYLE_PARTITIONING, new String[] {"false", "Partition folders named field=value."});
    d.put(URL_ENCODE_PARTITION_PATH, new String[] {"false",
        "URL-encode partition values as Hudi does ('/' and ':' become %2F and %3A); '.', '..' and '.hoodie' stay refused."});
    d.put(PRECOMBINE_FIELD, new String[] {"ts", "Ordering field: the larger value wins, ties go to the later record. "
        + "'no_precombine' disables. Fallbacks " + PRECOMBINE_FIELD_FALLBACK_1 + ", " + PRECOMBINE_FIELD_FALLBACK_2 + "."});
    d.put(PAYLOAD_CLASS, new String[] {EVENT_TIME_PAYLOAD, "Payload class (merge rule against stored records)."});
    d.put(OPERATION, new String[] {"upsert", "upsert (index lookup), insert (no lookup, duplicates possible) or delete."});
    d.put(INDEX_TYPE, new String[] {"FLINK_STATE", "FLINK_STATE (key -> file group in Flink state) or BUCKET "
        + "(hash of key mod " + BUCKET_NUM + "). Fallback key " + INDEX_TYPE_FALLBACK + "."});
    d.put(INDEX_GLOBAL, new String[] {"true", "State index: a key whose partition changes is deleted from the old "
        + "partition and inserted in the new one. false: (key, partition) identifies a record."});
    d.put(INDEX_BOOTSTRAP, new String[] {"true", "FLINK_STATE index: when the job starts without restored state "
        + "(a new job, or no checkpoint/savepoint given) on a table with completed commits, load the keys of the latest "
        + "committed file slices (base files: key column only; logs merged, deleted keys left out) into the index before "
        + "the first record is assigned, in the tasks, spread over the input's parallelism; skipped when state is "
        + "restored. Deliberate difference from Hudi, whose default is false: without it a new job duplicates the "
        + "upserted keys the table already holds and drops their deletes. false: start with an empty index (faster "
        + "start; only right for tables without data or insert-only streams). Not used with BUCKET or "
        + OPERATION + "=insert. Needs aligned checkpoints."});
    d.put(TOMBSTONE_RETENTION, new String[] {"7 d", "Event-time ordering across commits (an ordering field with "
        + "the EventTime or Default payload): a change whose ordering value is smaller than that of its key's last "
        + "committed write or delete is dropped, not written, and counted (metric riverbedStaleRecordsDropped, commit "
        + "extraMetadata riverbed.write.stale.records). The index keeps each key's last ordering value, and a deleted "
        + "key's tombstone for this long after the delete (a Flink duration: '7 d', '12 h'); a change older than a "
        + "delete that arrives later than that is written as a new key. FLINK_STATE: in Flink state (tombstones with "
        + "state TTL), loaded by the index bootstrap from the latest slices (deletes still in logs). BUCKET: in each "
        + "writer task's memory, loaded from a file group's latest slice when the task first writes it."});
    d.put(INDEX_STATE_TTL, new String[] {"0", "FLINK_STATE index (Hudi's option, in days, fractions allowed): a key "
        + "not written for this long is dropped from the index (Flink state TTL; on RocksDB removed by compaction, on "
        + "the heap backend by the checkpoints' and incremental clean-up), and its next change is treated as a new key: "
        + "an upsert goes to a new or small file group, so the table then holds the key twice, and a delete of it "
        + "writes nothing. Only for streams whose keys are never changed after that long. 0: entries never expire. "
        + "Tombstones expire by " + TOMBSTONE_RETENTION + ". Flink cannot restore the index with TTL switched on or "
        + "off (0 to days or back; other day counts are fine): such a restore fails naming this option; start a new "
        + "job instead, whose index bootstrap loads the keys."});
    d.put(INDEX_PARTITION_REGEX, new String[] {".*", "FLINK_STATE index bootstrap (Hudi's option): load only the keys "
        + "of partitions whose path matches this Java regular expression (whole path, e.g. '2026/12/.*'); changes of "
        + "keys in other partitions are then treated as new keys. For tables whose older partitions are never changed."});
    d.put(CHECKPOINTS_CLEAN_EARLIER_RUNS, new String[] {"true", "Once a job restored from a retained checkpoint "
        + "(riverbed-write --restore, or Flink's execution.state-recovery.path) has completed a checkpoint of its own "
        + "that refers to no file of the earlier run, the write coordinator deletes the earlier run's folder "
        + "(<checkpoint dir>/<job id>) when it lies in the same checkpoint directory as the new run's. Never a "
        + "savepoint or a folder outside that directory, never before that checkpoint completed (a failover before it "
        + "restores from the earlier run). false: keep every run's checkpoints."});
    d.put(LEASE_ENABLED, new String[] {"true", "One writer per table: the job holds the table's writer lease "
        + "(.hoodie/.aux/riverbed/writer.lease, renewed by the write coordinator) from its recovery until its input "
        + "ended and the last commit is done; a second job on the same table fails at start with a "
        + "CommitConflictException naming the holder. A job restored from the holder's checkpoint takes the lease over "
        + "at once. Two jobs that each index keys would otherwise both insert a new key and the table would hold it "
        + "twice. false: no lease (only for writers of disjoint partitions with the BUCKET index)."});
    d.put(LEASE_TIMEOUT, new String[] {"60 s", "How long the writer lease lasts without renewal (renewed every third "
        + "of it). A new job (not restored) on a table whose previous job died waits this long, then takes over."});
    d.put(RATE_LIMIT, new String[] {"0", "Records per second the job writes at most (Hudi's Flink option of the "
        + "same name): each of the N tasks that turn rows into records passes at most 1/N of it, so a task that gets "
        + "no rows leaves its share unused; 0: no limit. Paces a backfill over many commits."});
    d.put(BUCKET_NUM, new String[] {"4", "Buckets (file groups) per partition with the BUCKET index."});
    d.put(BUCKET_HASH_FIELD, new String[] {"<record key fields>", "Fields hashed by the BUCKET index."});
    d.put(WRITE_TASKS, new String[] {"<job parallelism>", "Parallelism of the stream writer."});
    d.put(BUCKET_ASSIGN_TASKS, new String[] {"<job parallelism>", "Parallelism of the bucket assigner."});
    d.put(BATCH_SIZE, new String[] {"256", "Memory bound (MB, fractions allowed) of one writer task's buffers; "
        + "the largest file group buffer is flushed before it would be exceeded."});
    d.put(COMPACTION_ASYNC, new String[] {"false", "MERGE_ON_READ: the job runs the compaction stage after the "
        + "writer, as Hudi's Flink pipeline does: compact-plan (one task: on each completed checkpoint it starts every "
        + "pending compaction, writing its .compaction.inflight, and sends one event per file group) -> rebalance -> "
        + "compact-task (" + COMPACTION_TASKS + " tasks: each merges its file groups on a thread of its own, so "
        + "checkpoint barriers pass, retrying a failed file group twice) -> compact-commit (one task: completes a "
        + "compaction once every file group of it reported). Writers keep writing meanwhile; their logs go into the "
        + "next file slice. A bounded job runs every compaction still pending after its last commit before it ends. "
        + "Deliberate difference from Hudi, whose default is true: a job that sets neither this nor "
        + COMPACTION_SCHEDULE + " compacts nothing, as before."});
    d.put(COMPACTION_SCHEDULE, new String[] {"<" + COMPACTION_ASYNC + ">", "MERGE_ON_READ: the write coordinator "
        + "schedules compactions (writes the plan, .compaction.requested) after commits, when "
        + COMPACTION_TRIGGER_STRATEGY + " says one is due and no write is open. Hudi's default is true; here it "
        + "follows " + COMPACTION_ASYNC + ", so a job that does not run compactions does not pile up plans. "
        + "true with " + COMPACTION_ASYNC + "=false: plans only, for an offline compactor (riverbed-admin compact)."});
    d.put(COMPACTION_TASKS, new String[] {"<" + WRITE_TASKS + ">", "Parallelism of the compaction tasks "
        + "(compact-task), as in Hudi: the writer's parallelism when unset."});
    d.put(COMPACTION_TRIGGER_STRATEGY, new String[] {"num_commits", "When a compaction is due: num_commits ("
        + COMPACTION_DELTA_COMMITS + " delta commits since the last compaction), time_elapsed ("
        + COMPACTION_DELTA_SECONDS + " since the last compaction, or since the first delta commit before any), "
        + "num_and_time (both) or num_or_time (either). Checked after every checkpoint's commits, so time_elapsed also "
        + "fires on idle checkpoints; never without a delta commit since the last compaction."});
    d.put(COMPACTION_DELTA_COMMITS, new String[] {"5", "Delta commits since the last compaction that make one due "
        + "(num_commits, num_and_time, num_or_time)."});
    d.put(COMPACTION_DELTA_SECONDS, new String[] {"3600", "Seconds since the last compaction that make one due "
        + "(time_elapsed, num_and_time, num_or_time)."});
    d.put(COMPACTION_MAX_MEMORY, new String[] {Integer.toString(DEFAULT_COMPACTION_MAX_MEMORY_MB), "Memory bound "
        + "(MB, fractions allowed) of one file group's merged log records in a compaction task, before they spill to "
        + CompactionOptions.SPILL_PATH + " (Hudi's Flink option). When unset and " + CompactionOptions.MAX_MEMORY
        + " (bytes) is set, that one applies."});
    d.put(CLEAN_ASYNC, new String[] {"true", "Clean the table after commits (Hudi's Flink option): once a checkpoint's "
        + "instant is committed, the write coordinator starts a clean on a thread of its own, so commits and "
        + "checkpoints never wait for it; commits that come while a clean runs start no clean of their own, one more "
        + "clean follows it. What is kept: "
        + CleanOptions.FLINK_POLICY + ", " + CleanOptions.FLINK_RETAIN_COMMITS + ", " + CleanOptions.FLINK_RETAIN_HOURS
        + ", " + CleanOptions.FLINK_RETAIN_FILE_VERSIONS + " (see Cleaning). A failed clean is logged and never fails "
        + "the job; the next one finishes its plan. false: the job never cleans (clean with the core's Cleaner)."});
    d.put(ARCHIVE_AUTOMATIC, new String[] {"true", "Archive old instants after commits, on the cleaning thread and "
        + "after its clean: the active timeline is kept between " + ArchiveOptions.FLINK_MIN_COMMITS + " and "
        + ArchiveOptions.FLINK_MAX_COMMITS + " completed commits (see Archival), never past what a clean, a pending "
        + "compaction or a savepoint still needs, at most " + ArchiveOptions.MAX_INSTANTS_PER_RUN + " instants per "
        + "run; on a table version 8 into Hudi 1.x's LSM history (.hoodie/timeline/history/). A failed archival is "
        + "logged and never fails the job. false: the job never archives."});
    d.putAll(FlinkHiveSync.DESCRIPTIONS);
    d.putAll(WriteTableVersion.DESCRIPTIONS);
    return Map.copyOf(d);
  }

  /** The options as given, with secret values redacted ({@link SecretOptions}): what a log line may print. */
  @Override
  public String toString() {
    return "FlinkWriteOptions" + SecretOptions.redact(new TreeMap<>(raw));
  }

  /** The documented keys, in a stable order. */
  public static List<String> documentedKeys() {
    return new ArrayList<>(new TreeMap<>(DESCRIPTIONS).keySet());
  }
}
