package io.riverbed.spark.write;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.InvalidTableException;
import io.riverbed.format.TableException;
import io.riverbed.format.file.NioLocalFileSystem;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.SchemaEvolution;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableDefinition;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.WriterLease;
import io.riverbed.format.write.batch.BucketTaskWrite;
import io.riverbed.format.write.concurrency.InstantHeartbeats;
import io.riverbed.format.write.concurrency.WriterSession;
import io.riverbed.format.write.batch.BatchWriteOptions;
import io.riverbed.format.write.batch.EncodedChange;
import io.riverbed.format.write.batch.ExistingKeys;
import io.riverbed.format.write.batch.GeneratedKeyWrites;
import io.riverbed.format.write.batch.InsertBuckets;
import io.riverbed.format.write.batch.ReplacedFileGroups;
import io.riverbed.format.write.batch.SaveMode;
import io.riverbed.format.write.batch.TaskWrite;
import io.riverbed.format.write.commit.CommitMessage;
import io.riverbed.format.write.commit.Committable;
import io.riverbed.format.write.commit.TableCommitter;
import io.riverbed.spark.ShippedPlan;
import io.riverbed.spark.SliceSplit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.HashPartitioner;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.ShuffledRDD;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import org.apache.spark.util.sketch.BloomFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * One {@code df.write.format("hudi").mode(m).save(path)}: the driver's side of a batch write over
 * the core's write path. The save mode decides the table's fate ({@link SaveMode}); the driver
 * takes the table's {@link WriterLease} through a {@link WriterSession} (a live Flink writer's lease
 * fails the write, naming it, unless every writer sets {@code hoodie.write.concurrency.mode=optimistic_concurrency_control}:
 * then the commit runs under the table lock and its conflict check), rolls back what failed writers
 * left, and opens one instant. Executors turn rows into changes
 * ({@link ChangeEncoder}), keep one per key ({@link EncodedChange#precombine}), find where
 * existing keys live for upserts and deletes ({@link KeyLocator}, joined by key), and write the file
 * groups in parallel, one task per group ({@link FileGroupTask}, routed by {@link TaskWrite#taskOf}).
 * The driver commits the instant with every task's message, then syncs the Hive Metastore when the
 * options ask for it ({@link WriteHiveSync}); if the job fails, the instant stays pending and
 * invisible, and the next writer rolls it back.
 */
public final class BatchWrite {
  private static final Logger LOG = LoggerFactory.getLogger(BatchWrite.class);
  static final String PATH = "path";
  static final String SPECULATION = "spark.speculation";
  /** How long the lease lasts without renewal; the driver renews it every third of that while it writes. */
  static final Duration LEASE_TIMEOUT = Duration.ofSeconds(60);
  /** Hudi's default precombine field, used when the option is unset and the data has the column. */
  static final String DEFAULT_PRECOMBINE_FIELD = "ts";
  /** False positive rate of the filter of a batch's keys that the key lookup applies (about 1.2 bytes a change). */
  static final double CHANGE_KEY_FILTER_FPP = 0.01;
  /** Batches of more changes send every stored key of their partitions to the join: the filter would weigh 24 MB. */
  static final long MAX_FILTERED_CHANGES = 20_000_000L;

  private BatchWrite() {}

  /** The join key of a change and a stored key: keys are unique per partition. */
  static String changeKey(String partitionPath, String recordKey) {
    return partitionPath + '\u0000' + recordKey;
  }

  /**
   * Writes {@code data} to the table {@code options} name.
   *
   * @return the instant committed; empty when the save mode left an existing table alone
   */
  public static Optional<String> run(SparkSession spark, Dataset<Row> data, Map<String, String> options, SaveMode mode) {
    return run(spark, data, Input.DATA_FRAME, options, mode);
  }

  /**
   * What a write's rows are: a DataFrame's ({@code statement} false: its schema may add columns), or a
   * SQL statement's changes (written in the table's schema, with an optional delete flag column).
   */
  private record Input(boolean statement, Optional<String> deleteFlag) {
    static final Input DATA_FRAME = new Input(false, Optional.empty());
  }

  /**
   * Writes the changes a SQL statement computed into the existing table {@code options} name, in one
   * instant of the operation the options give: each row an upsert of its key, or, where the boolean
   * column {@code deleteFlag} is true, a delete of it. Rows are written in the table's current schema
   * (a statement changes values, never columns), so every table column must be there.
   *
   * @param deleteFlag the column that marks deletes (not written), null when no row is a delete by flag
   * @return the instant committed
   */
  public static String writeChanges(SparkSession spark, Dataset<Row> changes, String deleteFlag,
      Map<String, String> options) {
    return run(spark, changes, new Input(true, Optional.ofNullable(deleteFlag)), options, SaveMode.APPEND).orElseThrow();
  }

  private static Optional<String> run(SparkSession spark, Dataset<Row> data, Input input, Map<String, String> options,
      SaveMode mode) {
    boolean statement = input.statement();
    String path = options.get(PATH);
    if (path == null || path.isBlank()) {
      throw new InvalidTableException("hudi: a write needs the table's base path: save(path)");
    }
    if (path.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{')) {
      throw new InvalidTableException("hudi: cannot write to the glob path " + path + "; save to the table's base path");
    }
    BatchWriteOptions write = BatchWriteOptions.fromMap(options);
    if (spark.sparkContext().getConf().getBoolean(SPECULATION, false)) {
      throw new InvalidTableException("hudi: Riverbed's Spark writer does not write with " + SPECULATION + "=true: a "
          + "speculative task attempt still running after the commit could add a file the commit does not name");
    }
    Configuration conf = spark.sessionState().newHadoopConf();
    FileSystem fs = fileSystem(path, conf);
    Path given = new Path(path);
    Path base = fs.makeQualified(given);
    requireNotInsideTable(fs, base);
    boolean exists = Table.exists(fs, base);
    SaveMode.Step step = mode.step(base, exists, write.operation());
    if (step == SaveMode.Step.SKIP) {
      LOG.info("Table {} exists and the save mode is Ignore: nothing written", base);
      return Optional.empty();
    }
    boolean generatedKeys = GeneratedKeyWrites.applies(options,
        step == SaveMode.Step.WRITE ? Optional.of(Table.open(fs, base).config()) : Optional.empty());
    // a statement's changes to a table whose keys were generated carry each row's stored key
    boolean storedKeys = statement && generatedKeys && Arrays.asList(data.columns()).contains(MetaFields.RECORD_KEY);
    if (generatedKeys) {
      write = BatchWriteOptions.fromMap(GeneratedKeyWrites.withDefaultOperation(options));
      if (!storedKeys) {
        GeneratedKeyWrites.requireSupported(write, base.toString());
      }
    }
    Optional<WriteHiveSync> hiveSync = write.metaSyncEnabled()
        ? Optional.of(WriteHiveSync.of(write, given, conf, spark.version()))
        : Optional.empty();
    Dataset<Row> rows = withoutMetaColumns(data, storedKeys);
    StructType dataColumns = storedKeys ? without(rows.schema(), MetaFields.RECORD_KEY) : rows.schema();
    StructType columns = input.deleteFlag().map(flag -> without(dataColumns, flag)).orElse(dataColumns);
    String writerId = "spark-" + UUID.randomUUID();
    String holder = "Spark application " + spark.sparkContext().applicationId();
    Table table;
    Schema writeSchema;
    if (step == SaveMode.Step.WRITE) {
      table = Table.open(fs, base);
      requireSameTable(table, write);
      write.tableVersion().requireMatches(table);
      Optional<Schema> current = TableSchemaResolver.resolve(table, table.refreshTimeline());
      Schema incoming = SparkAvroSchema.toAvro(columns, TableSchemas.recordName(table.name()),
          TableSchemas.namespace(table.name()));
      boolean keepsTableSchema = write.deletes() || statement || write.operation() == WriteOperationType.DELETE_PARTITION;
      writeSchema = keepsTableSchema && current.isPresent() ? TableSchemas.removeMetaFields(current.get())
          : SchemaEvolution.writeSchema(current, incoming, table.name());
    } else if (statement) {
      throw new InvalidTableException("hudi: no table at " + base + " for the statement to change");
    } else {
      String name = Optional.ofNullable(write.tableName()).orElseThrow(() -> new InvalidTableException(
          "hudi: option " + BatchWriteOptions.TABLE_NAME + " is required to create the table at " + base));
      Schema incoming = SparkAvroSchema.toAvro(rows.schema(), TableSchemas.recordName(name), TableSchemas.namespace(name));
      writeSchema = SchemaEvolution.writeSchema(Optional.empty(), incoming, name);
      KeyGeneratorOptions keys = write.keyGenerator();
      String precombine = write.write().precombineField() != null ? write.write().precombineField()
          : writeSchema.getField(DEFAULT_PRECOMBINE_FIELD) != null ? DEFAULT_PRECOMBINE_FIELD : null;
      TableSchemas.validateFields(writeSchema, keys.recordKeyFields(), precombine, keys.partitionFields());
      if (step == SaveMode.Step.REPLACE) {
        replace(fs, base, writerId, holder);
      }
      table = Table.create(fs, base, new TableDefinition(name, write.tableType(), keys, precombine,
          write.write().payloadClass(), writeSchema, write.tableVersion().version()).toConfig());
    }
    WriterSession session = WriterSession.start(table, writerId, holder, LEASE_TIMEOUT,
        InstantHeartbeats.WriterKind.BATCH, write.concurrency());
    ScheduledExecutorService renewal = renewing(session, base);
    String instant;
    try {
      session.rollbackFailedWrites();
      if (write.operation() == WriteOperationType.DELETE_PARTITION) {
        instant = deletePartitions(spark, rows, table, writeSchema, write, session);
      } else {
        int flag = input.deleteFlag().map(rows.schema()::fieldIndex).orElse(-1);
        int storedKey = storedKeys ? rows.schema().fieldIndex(MetaFields.RECORD_KEY) : -1;
        instant = writeAndCommit(spark, rows, columns, flag, storedKey, table, writeSchema, write, conf, session,
            generatedKeys && !storedKeys);
      }
    } finally {
      stopRenewing(renewal);
      session.release();
    }
    hiveSync.ifPresent(sync -> sync.sync(table, instant));
    return Optional.of(instant);
  }

  /** Deletes the table at {@code base}, under its lease: a live writer of the old table fails the overwrite. */
  private static void replace(FileSystem fs, Path base, String writerId, String holder) {
    WriterLease old = WriterLease.acquire(Table.open(fs, base), writerId, holder, LEASE_TIMEOUT);
    try {
      if (!fs.delete(base, true)) {
        throw new TableException("hudi: cannot delete the table at " + base + " to overwrite it");
      }
      LOG.info("Deleted the table at {}: the save mode is Overwrite", base);
    } catch (IOException e) {
      old.release();
      throw new UncheckedIOException("cannot delete the table at " + base + " to overwrite it", e);
    } catch (RuntimeException e) {
      old.release();
      throw e;
    }
  }

  private static String writeAndCommit(SparkSession spark, Dataset<Row> rows, StructType columns, int deleteFlag,
      int storedKey, Table table, Schema writeSchema, BatchWriteOptions write, Configuration conf, WriterSession session,
      boolean generatedKeys) {
    TableCommitter committer = committer(table, writeSchema, write, session);
    String instant = committer.begin();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Broadcast<SerializableConfiguration> shippedConf = jsc.broadcast(new SerializableConfiguration(conf));
    JavaRDD<org.apache.spark.sql.catalyst.InternalRow> input = rows.queryExecution().toRdd().toJavaRDD();
    int tasks = write.parallelism() > 0 ? write.parallelism() : Math.max(1, input.getNumPartitions());
    String orderingField = write.write().precombineField() != null ? write.write().precombineField()
        : table.config().precombineField().orElse(null);
    Schema rowSchema = write.deletes()
        ? SparkAvroSchema.toAvro(columns, writeSchema.getName(), writeSchema.getNamespace()) : writeSchema;
    JavaPairRDD<String, EncodedChange> changes = input
        .mapPartitionsWithIndex(new ChangeEncoder(rows.schema(), rowSchema, table.config().properties(),
            orderingField, write.deletes(), deleteFlag, storedKey, generatedKeys ? instant : null), false)
        .mapToPair(c -> new Tuple2<>(changeKey(c.partitionPath(), c.recordKey()), c))
        // no map-side combine: a batch rarely repeats a key, and without it Spark writes the shuffle unsorted
        .combineByKey(c -> c, EncodedChange::precombine, EncodedChange::precombine, new HashPartitioner(tasks), false,
            ChangeShuffleSerializer.INSTANCE);
    Optional<JavaRDD<TaskWrite.Routed>> located = write.looksUpKeys() && !write.bucketIndex()
        ? located(jsc, table, changes, shippedConf, tasks)
        : Optional.empty();

    List<String> partitionsBefore = write.operation() == WriteOperationType.INSERT_OVERWRITE_TABLE
        ? table.listPartitions() : List.of();
    List<String> hashFields = BucketTaskWrite.hashFields(table, write.bucketHashFields());
    int buckets = write.numBuckets();
    JavaRDD<TaskWrite.Routed> byTask;
    JavaRDD<byte[]> planned = null;
    InsertBuckets plan = null;
    int writeTasks = tasks;
    if (buckets <= 0 && TaskWrite.Placement.of(write.operation()) == TaskWrite.Placement.UPSERT) {
      // one plan for the write's new keys, from their count per partition, as Hudi's upsert partitioner
      // kept in their binary form: the session's serializer would cost more than the bytes
      planned = located.orElseGet(() -> unlocated(changes)).map(TaskWrite.Routed::toBytes)
          .persist(StorageLevel.MEMORY_AND_DISK());
      JavaRDD<TaskWrite.Routed> routed = planned.map(TaskWrite.Routed::fromBytes);
      Map<String, Long> newKeys = routed.filter(r -> r.fileId() == null && !r.change().isDelete())
          .map(r -> r.change().partitionPath()).countByValue();
      InsertBuckets insertPlan = InsertBuckets.plan(table, write.write(), write.smallFileGroupCandidates(), newKeys);
      FileGroupPartitioner partitioner = new FileGroupPartitioner(insertPlan, tasks);
      byTask = shuffled(routed.map(r -> TaskWrite.placed(r, insertPlan)).filter(Objects::nonNull)
          .mapToPair(r -> new Tuple2<>(r.fileId(), r)), partitioner);
      plan = insertPlan;
      writeTasks = partitioner.numPartitions();
    } else if (located.isEmpty() && buckets <= 0) {
      // no key is in the table: each change goes where TaskWrite.taskOf sends a new key, by the hash of
      // its changeKey, which is where reduceByKey's hash partitioning already put it
      byTask = unlocated(changes);
    } else {
      byTask = shuffled(located.orElseGet(() -> unlocated(changes))
          .mapToPair(r -> new Tuple2<>(buckets > 0 ? BucketTaskWrite.taskOf(r.change(), hashFields, buckets, tasks)
              : TaskWrite.taskOf(r, tasks), r)), new HashPartitioner(tasks));
    }
    List<CommitMessage> messages;
    try {
      messages = byTask
          .mapPartitionsWithIndex(new FileGroupTask(table, shippedConf, writeSchema, write, instant, writeTasks, plan), false)
          .collect().stream().map(CommitMessage::fromBytes).toList();
    } finally {
      if (planned != null) {
        planned.unpersist(false);
      }
    }
    Map<String, List<String>> replaced = switch (write.operation()) {
      case INSERT_OVERWRITE -> ReplacedFileGroups.of(table, table.refreshTimeline(), partitionsWritten(messages));
      case INSERT_OVERWRITE_TABLE -> ReplacedFileGroups.of(table, table.refreshTimeline(), partitionsBefore);
      default -> Map.of();
    };
    commit(committer, session, new Committable(1, instant, messages, Map.of()), replaced);
    return instant;
  }

  /**
   * Commits; with several writers a commit that loses a conflict rolls its instant back at once
   * (no other writer has to wait for its heartbeat to expire) and fails naming the conflict.
   */
  private static void commit(TableCommitter committer, WriterSession session, Committable committable,
      Map<String, ? extends java.util.Collection<String>> replaced) {
    try {
      committer.commit(committable, replaced);
    } catch (CommitConflictException e) {
      if (session.concurrent()) {
        session.rollBackOwn(committable.instantTime());
      }
      throw e;
    }
  }

  /**
   * delete_partition: a replacecommit without new files that replaces every file group of the
   * partitions {@value BatchWriteOptions#PARTITIONS_TO_DELETE} names, or, when it is unset, of the
   * partitions the rows' keys fall in (as Hudi derives them).
   */
  private static String deletePartitions(SparkSession spark, Dataset<Row> rows, Table table, Schema writeSchema,
      BatchWriteOptions write, WriterSession session) {
    List<String> partitions = write.partitionsToDelete().isEmpty() ? partitionsOfRows(rows, table)
        : ReplacedFileGroups.resolvePartitions(table, write.partitionsToDelete());
    List<String> absent = partitions.stream().filter(p -> !table.listPartitions().contains(p)).toList();
    if (!absent.isEmpty()) {
      LOG.warn("delete_partition on table {}: it has no partition {}; nothing is deleted there", table.basePath(),
          absent);
    }
    TableCommitter committer = committer(table, writeSchema, write, session);
    String instant = committer.begin();
    commit(committer, session, new Committable(1, instant, List.of(), Map.of()),
        ReplacedFileGroups.of(table, table.refreshTimeline(), partitions));
    return instant;
  }

  /** The partition paths the table's key generator gives the rows. */
  private static List<String> partitionsOfRows(Dataset<Row> rows, Table table) {
    Schema rowSchema = SparkAvroSchema.toAvro(rows.schema(), TableSchemas.recordName(table.name()),
        TableSchemas.namespace(table.name()));
    return rows.queryExecution().toRdd().toJavaRDD()
        .mapPartitionsWithIndex(new ChangeEncoder(rows.schema(), rowSchema, table.config().properties(), null, true, -1, -1,
            null),
            false)
        .map(EncodedChange::partitionPath).distinct().collect();
  }

  private static Set<String> partitionsWritten(List<CommitMessage> messages) {
    Set<String> out = new TreeSet<>();
    messages.forEach(m -> m.writeStats().forEach(st -> out.add(st.partitionPath())));
    return out;
  }

  private static TableCommitter committer(Table table, Schema writeSchema, BatchWriteOptions write,
      WriterSession session) {
    return session.configure(TableCommitter.of(table, session.writerId()).operationType(write.operation())
        .schema(writeSchema), write.bucketIndex());
  }

  /** The changes, sent by their keys to {@code partitioner}'s tasks through the write's own serializer. */
  private static <K> JavaRDD<TaskWrite.Routed> shuffled(JavaPairRDD<K, TaskWrite.Routed> keyed, Partitioner partitioner) {
    ShuffledRDD<K, TaskWrite.Routed, TaskWrite.Routed> shuffled =
        new ShuffledRDD<>(keyed.rdd(), partitioner, keyed.kClassTag(), keyed.vClassTag(), keyed.vClassTag());
    shuffled.setSerializer(ChangeShuffleSerializer.INSTANCE);
    return JavaPairRDD.fromRDD(shuffled, keyed.kClassTag(), keyed.vClassTag()).values();
  }

  private static JavaRDD<TaskWrite.Routed> unlocated(JavaPairRDD<String, EncodedChange> changes) {
    return changes.values().map(c -> new TaskWrite.Routed(c, null));
  }

  /**
   * The changes with the file group of each key the table holds in the partitions they touch; empty
   * when the table holds none of their keys (it has no committed write, or no file in those partitions).
   */
  private static Optional<JavaRDD<TaskWrite.Routed>> located(JavaSparkContext jsc, Table table,
      JavaPairRDD<String, EncodedChange> changes, Broadcast<SerializableConfiguration> conf, int tasks) {
    if (table.refreshTimeline().writeTimeline().completed().isEmpty()) {
      return Optional.empty();
    }
    Map<String, Long> changesPerPartition = changes.map(t -> t._2().partitionPath()).countByValue();
    QueryPlan plan = ExistingKeys.plan(table, changesPerPartition.keySet());
    if (plan.splits().isEmpty()) {
      return Optional.empty();
    }
    long changeCount = changesPerPartition.values().stream().mapToLong(Long::longValue).sum();
    Broadcast<BloomFilter> changeKeys = changeCount <= MAX_FILTERED_CHANGES
        ? jsc.broadcast(changeKeyFilter(changes, changeCount)) : null;
    List<SliceSplit> splits = plan.splits().stream().map(SliceSplit::of).toList();
    ShippedPlan shipped = new ShippedPlan(plan, plan.schema().orElseThrow());
    List<Integer> positions = java.util.stream.IntStream.range(0, splits.size()).boxed().toList();
    JavaPairRDD<String, String> locations = jsc.parallelize(positions, Math.min(splits.size(), tasks))
        .mapPartitionsToPair(new KeyLocator(splits, shipped, conf, Map.of(), changeKeys));
    return Optional.of(changes.leftOuterJoin(locations, tasks).values()
        .map(t -> new TaskWrite.Routed(t._1(), t._2().orNull())));
  }

  /**
   * A Bloom filter of the changes' join keys ({@link #changeKey}): the key lookup sends on only the
   * stored keys that may be among them, not every key of the partitions the batch touches, which the
   * join would drop. A false positive costs a key's trip through the join, nothing else.
   */
  private static BloomFilter changeKeyFilter(JavaPairRDD<String, EncodedChange> changes, long changeCount) {
    long expected = Math.max(1, changeCount);
    return changes.keys().mapPartitions(keys -> {
      BloomFilter filter = BloomFilter.create(expected, CHANGE_KEY_FILTER_FPP);
      keys.forEachRemaining(filter::putString);
      return List.of(filter).iterator();
    }).reduce(BloomFilter::mergeInPlace);
  }

  /** An existing table takes writes only with the keys and name it was created with. */
  private static void requireSameTable(Table table, BatchWriteOptions write) {
    Map<String, String> raw = write.raw();
    var config = table.config();
    requireSame(table, BatchWriteOptions.TABLE_NAME, raw.get(BatchWriteOptions.TABLE_NAME), config.name());
    requireSame(table, BatchWriteOptions.TABLE_TYPE, raw.get(BatchWriteOptions.TABLE_TYPE), config.type().name());
    requireSame(table, KeyGeneratorOptions.RECORD_KEY_FIELD, fields(raw.get(KeyGeneratorOptions.RECORD_KEY_FIELD)),
        String.join(",", config.recordKeyFields()));
    requireSame(table, KeyGeneratorOptions.PARTITION_PATH_FIELD,
        fields(raw.get(KeyGeneratorOptions.PARTITION_PATH_FIELD)), String.join(",", config.partitionFields()));
  }

  private static String fields(String value) {
    return value == null ? null : String.join(",", KeyGeneratorOptions.splitFields(value));
  }

  private static void requireSame(Table table, String option, String given, String stored) {
    if (given != null && !given.trim().equalsIgnoreCase(stored)) {
      throw new InvalidTableException("hudi: option " + option + "='" + given + "' does not match the table at "
          + table.basePath() + ", which has '" + stored + "'; an existing table keeps its own (write with mode "
          + "Overwrite to recreate it)");
    }
  }

  private static Dataset<Row> withoutMetaColumns(Dataset<Row> data, boolean keepRecordKey) {
    Column[] kept = Arrays.stream(data.columns()).filter(c -> keepRecordKey && c.equals(MetaFields.RECORD_KEY)
        || !MetaFields.ALL.contains(c) && !MetaFields.OPERATION.equals(c)).map(data::col).toArray(Column[]::new);
    return kept.length == data.columns().length ? data : data.select(kept);
  }

  private static StructType without(StructType type, String column) {
    return new StructType(Arrays.stream(type.fields()).filter(f -> !f.name().equals(column))
        .toArray(org.apache.spark.sql.types.StructField[]::new));
  }

  private static void requireNotInsideTable(FileSystem fs, Path base) {
    for (Path up = base.getParent(); up != null; up = up.getParent()) {
      if (Table.exists(fs, up)) {
        throw new InvalidTableException("hudi: " + base + " is inside the Hudi table at " + up
            + "; write to the table's base path");
      }
    }
  }

  private static ScheduledExecutorService renewing(WriterSession session, Path base) {
    ScheduledExecutorService renewal = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "riverbed-spark-writer-lease");
      t.setDaemon(true);
      return t;
    });
    long every = session.renewalInterval().toMillis();
    renewal.scheduleWithFixedDelay(() -> {
      try {
        session.renew();
      } catch (RuntimeException e) {
        LOG.error("Cannot renew the writer lease of table {}; the commit will check it and fail if it is lost", base, e);
      }
    }, every, every, TimeUnit.MILLISECONDS);
    return renewal;
  }

  /**
   * Stops the renewals, letting one under way finish: interrupted, it would leave the lease file
   * empty (Hadoop's local file system is writing it), and the release would find the lease damaged.
   */
  private static void stopRenewing(ScheduledExecutorService renewal) {
    renewal.shutdown();
    try {
      if (!renewal.awaitTermination(LEASE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        renewal.shutdownNow();
      }
    } catch (InterruptedException e) {
      renewal.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private static FileSystem fileSystem(String path, Configuration conf) {
    try {
      return NioLocalFileSystem.of(new Path(path), conf);
    } catch (IOException e) {
      throw new TableException("hudi: cannot reach the file system of " + path + ": " + e.getMessage(), e);
    }
  }
}
