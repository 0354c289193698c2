package io.riverbed.format.write.commit;

import io.riverbed.format.TableException;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.record.SchemaEvolution;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableConfigFile;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.KafkaOffsets;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.CommitConflictException;
import io.riverbed.format.write.InstantClock;
import io.riverbed.format.write.WriteTransaction;
import io.riverbed.format.write.concurrency.ConcurrencyOptions;
import io.riverbed.format.write.concurrency.InstantHeartbeats;
import io.riverbed.format.write.concurrency.TableLock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits what a writer's tasks wrote, one {@link Committable} (one instant) at a time, for one
 * writer (a writer id that survives the writer's restarts, e.g. a Flink job's lineage). The one
 * place an engine turns {@link CommitMessage}s into a completed instant:
 *
 * <ul>
 *   <li><b>Idempotent.</b> A committable whose instant is completed already is a no-op (no second
 *       commit, no post-commit actions), so a writer that restarts may hand the same commits in
 *       again. Each commit records the writer id ({@value #WRITER_ID_KEY}) and the commit
 *       identifier ({@value #IDENTIFIER_KEY}) in its extraMetadata; {@link #filterCommitted} and
 *       {@link #committedIdentifiers} answer what is committed already (recovery).
 *   <li><b>Conflict-checked.</b> Before the commit point, the file groups the messages wrote are
 *       checked against what other writers committed, or compactions planned, while the instant
 *       was in flight ({@link FileGroupConflicts}: Hudi's optimistic concurrency rules). A conflict
 *       throws {@link io.riverbed.format.CommitConflictException} naming the file group and the
 *       other instant, and <em>leaves the instant pending</em> (inflight, invisible to readers), as
 *       Hudi does: the writer's recovery rolls it back ({@link io.riverbed.format.write.Rollback#rollbackFailedWrites}).
 *       Alone, the check and the commit are not one atomic step across writers: two writers that
 *       commit in the same moment can both pass it, so a single writer relies on the table's
 *       {@link io.riverbed.format.write.WriterLease} to keep others out. With several writers
 *       ({@link #concurrency}) the check and the commit point run under the table's {@link TableLock},
 *       against the timeline as it is under the lock; instants are begun under it too, with their
 *       heartbeat started first ({@link InstantHeartbeats}). With the bucket index
 *       ({@link #bucketIndex}) file groups conflict by partition and bucket number, so two writers
 *       that each made a new file group for one bucket cannot both commit.
 *   <li><b>Batch writers yield to the streaming writer.</b> A batch writer's commit waits, lock
 *       released, while a streaming writer (by its instants' heartbeats) has an instant pending, up
 *       to {@link ConcurrencyOptions#streamingWait()}: a streaming commit covered by a completed
 *       checkpoint must never lose a conflict, so a batch commit never lands while one is in flight
 *       (and a streaming instant begun later starts after it). A batch commit that waited in vain
 *       fails, naming the streaming instant.
 *   <li><b>Reconciled with the instant's markers</b> (Hudi's {@code reconcileAgainstMarkers}, done by
 *       {@link WriteTransaction#commit}): before the commit point, every data file the instant's
 *       markers name that no message reports is deleted. Such a file was written for the instant
 *       but is not part of this commit: by a task that failed before reporting it, or after the
 *       writer's commit identifier (Flink: a later epoch that shared the instant and that a restore
 *       from the identifier's checkpoint replays). Left in place it would become visible with the
 *       commit — data the commit never covered.
 *   <li><b>Metadata the tasks contribute</b>: their stale-record counts are summed into
 *       {@value #STALE_RECORDS_KEY}; their Kafka offsets are laid over the newest committed ones
 *       (partitions without news keep theirs) into {@link KafkaOffsets#KEY}.
 *   <li><b>Post-commit actions</b> ({@link PostCommitAction}) run once after each commit it makes;
 *       their failures are logged and never undo the commit.
 * </ul>
 *
 * <p>Configure with the setters, then use from one thread. Constructing does no I/O.
 */
public final class TableCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(TableCommitter.class);

  /**
   * extraMetadata key of a commit: the id of the writer that made it. The name is the Flink
   * writer's, which wrote it first; it is on disk in existing tables.
   */
  public static final String WRITER_ID_KEY = "riverbed.flink.writer.id";
  /**
   * extraMetadata key of a commit: the writer's commit identifier (Flink: the checkpoint whose
   * completion, or restore, committed the instant). Named by the Flink writer, which wrote it first.
   */
  public static final String IDENTIFIER_KEY = "riverbed.flink.checkpoint.id";
  /** extraMetadata key of a commit: changes dropped because their key's stored write or delete was newer. */
  public static final String STALE_RECORDS_KEY = "riverbed.write.stale.records";

  private static final Set<String> OWN_KEYS =
      Set.of(WRITER_ID_KEY, IDENTIFIER_KEY, STALE_RECORDS_KEY, KafkaOffsets.KEY, CommitMetadata.SCHEMA_KEY);

  private final Table table;
  private final String writerId;
  private final TimelineStore store;
  private WriteOperationType operationType = WriteOperationType.UPSERT;
  private Schema schema;
  private final List<PostCommitAction> actions = new ArrayList<>();
  private Runnable beforeCommit = () -> {};
  private Runnable afterCommitPoint = () -> {};
  /** Several writers: the table lock, this writer's heartbeats and the options; null when single. */
  private TableLock lock;
  private InstantHeartbeats heartbeats;
  private ConcurrencyOptions concurrency;
  private boolean bucketIndex;
  /** The newest committed Kafka offsets; null until read from the timeline. */
  private Optional<KafkaOffsets> committedOffsets;

  private TableCommitter(Table table, String writerId) {
    this.table = Objects.requireNonNull(table, "table");
    this.writerId = Objects.requireNonNull(writerId, "writerId");
    if (writerId.isEmpty()) {
      throw new IllegalArgumentException("empty writer id");
    }
    this.store = table.timelineStore();
  }

  /** A committer of {@code writerId}'s commits to {@code table}; set its schema before committing. */
  public static TableCommitter of(Table table, String writerId) {
    return new TableCommitter(table, writerId);
  }

  /** The write operation of the instants this writer opens and commits; default {@code UPSERT}. */
  public TableCommitter operationType(WriteOperationType type) {
    this.operationType = Objects.requireNonNull(type);
    return this;
  }

  /**
   * The table schema (meta fields are removed) recorded in each commit. Required. A commit whose
   * messages carry {@linkplain CommitMessage#writtenSchema written schemas} records the union of
   * this and them, which then stays this committer's schema for its later commits.
   */
  public TableCommitter schema(Schema tableSchema) {
    this.schema = Objects.requireNonNull(tableSchema);
    return this;
  }

  /** The schema the next commit records at least (see {@link #schema(Schema)}). */
  public Schema schema() {
    return schema;
  }

  /** Adds an action run after each commit this committer makes, after those added before. */
  public TableCommitter postCommit(PostCommitAction action) {
    actions.add(Objects.requireNonNull(action));
    return this;
  }

  /**
   * A check run before each commit that is not a no-op (e.g. that the writer still holds the
   * table's {@link io.riverbed.format.write.WriterLease}); its exception aborts the commit.
   */
  public TableCommitter beforeCommit(Runnable check) {
    this.beforeCommit = Objects.requireNonNull(check);
    return this;
  }

  /**
   * Runs right after the completed instant is written, before the post-commit actions; its
   * exception propagates (the commit stands). For fault injection at that point.
   */
  public TableCommitter afterCommitPoint(Runnable hook) {
    this.afterCommitPoint = Objects.requireNonNull(hook);
    return this;
  }

  /**
   * Commits alongside other writers ({@link ConcurrencyOptions#multiWriter()}): instants are begun
   * and committed under {@code tableLock}, with {@code instantHeartbeats} started before each instant
   * is requested and stopped once it is committed.
   */
  public TableCommitter concurrency(TableLock tableLock, InstantHeartbeats instantHeartbeats,
      ConcurrencyOptions options) {
    if (!instantHeartbeats.writerId().equals(writerId)) {
      throw new IllegalArgumentException("heartbeats of writer " + instantHeartbeats.writerId()
          + " for the committer of writer " + writerId);
    }
    this.lock = Objects.requireNonNull(tableLock);
    this.heartbeats = instantHeartbeats;
    this.concurrency = Objects.requireNonNull(options);
    return this;
  }

  /** The table's writers place keys with the bucket index: file groups conflict by partition and bucket. */
  public TableCommitter bucketIndex(boolean bucket) {
    this.bucketIndex = bucket;
    return this;
  }

  public Table table() {
    return table;
  }

  public String writerId() {
    return writerId;
  }

  /** Opens a new instant ({@link WriteTransaction#start}) for this writer's tasks to write into; its time. */
  public String begin() {
    if (lock == null) {
      return WriteTransaction.start(table, operationType).instantTime();
    }
    try (TableLock.Held held = lock.acquire()) {
      return WriteTransaction.start(table, operationType, InstantClock.forTable(table), heartbeats::start).instantTime();
    }
  }

  /**
   * Commits {@code committable} as its instant: conflict check, completed instant with the
   * messages' stats and this writer's metadata, then the post-commit actions.
   *
   * @return the metadata written, or empty if the instant was committed already (a no-op)
   * @throws io.riverbed.format.CommitConflictException if a concurrent writer touched a file group
   *     the messages wrote (the instant stays pending)
   * @throws TableException if the instant is neither pending nor completed (rolled back: its writes
   *     are lost), or the commit fails
   */
  public Optional<CommitMetadata> commit(Committable committable) {
    return commit(committable, Map.of());
  }

  /**
   * Commits {@code committable} as a replacecommit that also replaces {@code replacedFileIds}
   * (partition to file ids, Hudi's {@code partitionToReplaceFileIds}); the replaced file groups
   * count as touched for the conflict check, as Hudi counts them. As {@link #commit(Committable)}
   * otherwise; the operation type must be one written as a replacecommit when any are given.
   */
  public Optional<CommitMetadata> commit(Committable committable,
      Map<String, ? extends Collection<String>> replacedFileIds) {
    if (schema == null) {
      throw new IllegalStateException("no schema set for the committer of table " + table.basePath());
    }
    Optional<Committed> committed = lock == null ? commitPoint(committable, replacedFileIds)
        : commitUnderLock(committable, replacedFileIds);
    if (heartbeats != null) {
      heartbeats.stop(committable.instantTime());
    }
    if (committed.isEmpty()) {
      return Optional.empty();
    }
    afterCommitPoint.run();
    runPostCommitActions(committed.get().instant(), committed.get().metadata());
    return Optional.of(committed.get().metadata());
  }

  private record Committed(Instant instant, CommitMetadata metadata) {}

  /**
   * The commit point under the table lock; a batch writer first waits, lock released, until no
   * streaming writer's instant is pending.
   */
  private Optional<Committed> commitUnderLock(Committable committable,
      Map<String, ? extends Collection<String>> replacedFileIds) {
    long deadline = System.currentTimeMillis() + concurrency.streamingWait().toMillis();
    while (true) {
      Optional<Instant> streaming;
      try (TableLock.Held held = lock.acquire()) {
        streaming = heartbeats.kind() == InstantHeartbeats.WriterKind.BATCH
            ? pendingStreamingInstant(committable.instantTime()) : Optional.empty();
        if (streaming.isEmpty()) {
          return commitPoint(committable, replacedFileIds);
        }
      }
      if (System.currentTimeMillis() >= deadline) {
        throw new CommitConflictException("cannot commit " + committable.instantTime() + " on table "
            + table.basePath() + ": streaming writer " + InstantHeartbeats.ownerOf(table, streaming.get().time())
                .map(InstantHeartbeats.Owner::writerId).orElse("?") + " kept instant " + streaming.get()
            + " pending for longer than " + ConcurrencyOptions.STREAMING_WAIT + "=" + concurrency.streamingWait()
            + " (is its job down with a checkpointed instant to commit?); the instant stays pending, to be rolled back");
      }
      try {
        Thread.sleep(Math.max(1, concurrency.lockRetryWait().toMillis()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TableException("interrupted while committing " + committable.instantTime() + " on table "
            + table.basePath(), e);
      }
    }
  }

  /** A pending write instant of a streaming writer other than this one, by its heartbeat. */
  private Optional<Instant> pendingStreamingInstant(String own) {
    for (Instant pending : store.load().commitsTimeline().pending().instants()) {
      if (pending.time().equals(own)) {
        continue;
      }
      Optional<InstantHeartbeats.Owner> owner = InstantHeartbeats.ownerOf(table, pending.time());
      if (owner.filter(o -> o.kind() == InstantHeartbeats.WriterKind.STREAMING && !o.writerId().equals(writerId))
          .isPresent()) {
        return Optional.of(pending);
      }
    }
    return Optional.empty();
  }

  private Optional<Committed> commitPoint(Committable committable,
      Map<String, ? extends Collection<String>> replacedFileIds) {
    String time = committable.instantTime();
    // one listing: the timeline and the modification times the conflict check reads
    Map<Instant, Long> modified = store.modificationTimes();
    Timeline timeline = Timeline.fromInstants(modified.keySet());
    Optional<Instant> instant = timeline.writeTimeline().find(time);
    if (instant.filter(Instant::isCompleted).isPresent()) {
      LOG.info("Instant {} of table {} is committed already (commit identifier {} of writer {}); skipping", time,
          table.basePath(), committable.identifier(), writerId);
      return Optional.empty();
    }
    if (instant.isEmpty() || !timeline.commitsTimeline().containsTime(time)) {
      throw new TableException("instant " + time + " of table " + table.basePath() + " (commit identifier "
          + committable.identifier() + " of writer " + writerId + ") is neither a pending nor a completed write on "
          + "the timeline: its writes are lost");
    }
    beforeCommit.run();
    requireTableVersionUnchanged(time);

    List<WriteStat> stats = new ArrayList<>();
    Set<FileGroupId> touched = new LinkedHashSet<>();
    long stale = 0;
    Optional<KafkaOffsets> offsets = committedOffsets(timeline);
    Schema commitSchema = schema;
    for (CommitMessage m : committable.messages()) {
      if (m.writtenSchema().isPresent()) {
        commitSchema = SchemaEvolution.union(commitSchema, m.writtenSchema().get(),
            "the files task " + m.taskId() + " wrote for instant " + time + " of table " + table.basePath());
      }
      stats.addAll(m.writeStats());
      m.writeStats().forEach(s -> touched.add(new FileGroupId(s.partitionPath(), s.fileId())));
      stale += m.staleRecords();
      if (m.kafkaOffsets().isPresent()) {
        KafkaOffsets news = m.kafkaOffsets().get();
        offsets = Optional.of(offsets.map(o -> o.overlaidWith(news)).orElse(news));
      }
    }
    replacedFileIds.forEach((p, ids) -> ids.forEach(id -> touched.add(new FileGroupId(p, id))));
    FileGroupConflicts.check(table, store, modified, instant.get(), writerId, touched, bucketIndex);

    Map<String, String> extra = new LinkedHashMap<>();
    committable.extraMetadata().forEach((k, v) -> {
      if (OWN_KEYS.contains(k)) {
        throw new IllegalArgumentException("extraMetadata key " + k + " of commit " + time + " is the committer's own");
      }
      extra.put(k, v);
    });
    extra.put(IDENTIFIER_KEY, Long.toString(committable.identifier()));
    extra.put(WRITER_ID_KEY, writerId);
    if (stale > 0) {
      extra.put(STALE_RECORDS_KEY, Long.toString(stale));
    }
    offsets.ifPresent(o -> extra.put(KafkaOffsets.KEY, o.format()));

    WriteTransaction tx = WriteTransaction.resume(table, time, operationType);
    tx.addWriteStats(stats);
    replacedFileIds.forEach(tx::addReplacedFileIds);
    CommitMetadata metadata = tx.commit(commitSchema, extra);
    committedOffsets = offsets;
    schema = commitSchema;
    return Optional.of(new Committed(instant.get().withState(State.COMPLETED), metadata));
  }

  /**
   * Fails the commit if {@code hoodie.properties} now names another table version than the writer
   * opened, as when a Hudi 1.x writer upgraded the table to version 8 under a running job: a commit
   * written in version 6's layout into a version 8 table would be lost to Hudi 1.x and break the table.
   */
  private void requireTableVersionUnchanged(String time) {
    TableConfig now = TableConfigFile.read(table.fs(), table.metaPath());
    if (now.version() != table.config().version()) {
      throw new TableException("cannot commit instant " + time + " on table " + table.basePath() + ": its table version "
          + "changed from " + table.config().version() + " to " + now.version() + " while writer " + writerId
          + " ran (a Hudi 1.x writer upgrades a version 6 table it writes unless hoodie.write.auto.upgrade=false); "
          + "nothing was committed");
    }
  }

  /** Those of {@code committables} whose instant is not completed yet, in the given order. */
  public List<Committable> filterCommitted(Collection<Committable> committables) {
    Set<String> completed = new LinkedHashSet<>(store.load().commitsTimeline().completed().times());
    return committables.stream().filter(c -> !completed.contains(c.instantTime())).toList();
  }

  /**
   * The commit identifiers of {@code writer}'s completed commits on the active timeline. Reads the
   * metadata of every completed commit: for recovery, not for each commit.
   */
  public SortedSet<Long> committedIdentifiers(String writer) {
    SortedSet<Long> identifiers = new TreeSet<>();
    for (Instant done : store.load().commitsTimeline().completed().instants()) {
      Map<String, String> extra = CommitMetadata.parse(store.read(done), store.pathOf(done).toString())
          .extraMetadata();
      String id = extra.get(IDENTIFIER_KEY);
      if (writer.equals(extra.get(WRITER_ID_KEY)) && id != null) {
        try {
          identifiers.add(Long.parseLong(id));
        } catch (NumberFormatException e) {
          throw new TableException("commit " + done + " of table " + table.basePath() + " has " + IDENTIFIER_KEY
              + " '" + id + "', not a number", e);
        }
      }
    }
    return identifiers;
  }

  private Optional<KafkaOffsets> committedOffsets(Timeline timeline) {
    if (committedOffsets == null) {
      committedOffsets = KafkaOffsets.latestCommitted(store, timeline);
    }
    return committedOffsets;
  }

  private void runPostCommitActions(Instant committed, CommitMetadata metadata) {
    for (PostCommitAction action : actions) {
      try {
        action.afterCommit(table, committed, metadata);
      } catch (RuntimeException e) {
        LOG.warn("Post-commit action {} after {} on table {} failed; the commit stands", action, committed,
            table.basePath(), e);
      }
    }
  }
}
