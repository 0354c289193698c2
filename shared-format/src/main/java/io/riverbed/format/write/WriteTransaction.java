package io.riverbed.format.write;

import io.riverbed.format.TableException;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.AvroTimelineFile;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineSchemas;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of one write instant T: {@link #start} writes {@code T.<action>.requested} and
 * {@code T.<action>.inflight}; handles (anywhere) write data files for T and their
 * {@link WriteStat}s are handed to {@link #addWriteStats} (thread-safe); {@link #commit} writes the
 * completed {@code T.<action>} — the atomic commit point — and deletes T's markers.
 *
 * <p>Action: {@code replacecommit} for the overwrite operations, otherwise {@code commit} on
 * COPY_ON_WRITE and {@code deltacommit} on MERGE_ON_READ. A failed instant is undone with
 * {@link Rollback}.
 */
public final class WriteTransaction {
  private static final Logger LOG = LoggerFactory.getLogger(WriteTransaction.class);

  private final Table table;
  private final TimelineStore store;
  private final WriteOperationType operationType;
  private final Instant inflight;
  private final List<WriteStat> stats = new ArrayList<>();
  private final Map<String, Set<String>> replacedFileIds = new LinkedHashMap<>();
  private boolean committed;

  private WriteTransaction(Table table, TimelineStore store, WriteOperationType operationType, Instant inflight) {
    this.table = table;
    this.store = store;
    this.operationType = operationType;
    this.inflight = inflight;
  }

  /**
   * Starts a new instant on {@code table}, later than every instant of its active timeline. The
   * table is prepared first ({@link Table#prepareForWrite}: a damaged {@code hoodie.properties} is
   * restored from its backup, and a metadata table Hudi left enabled is turned off, as Hudi does
   * when a writer disables it: Riverbed does not maintain it, and a stale one would mislead readers
   * that use it). A table with a pending restore is refused ({@link #requireNoPendingRestore}).
   */
  public static WriteTransaction start(Table table, WriteOperationType operationType) {
    return start(table, operationType, InstantClock.forTable(table));
  }

  /** Starts a new instant with times from {@code generator} (which must run in the table's timeline zone). */
  public static WriteTransaction start(Table table, WriteOperationType operationType, InstantTime generator) {
    return start(table, operationType, generator, time -> { });
  }

  /**
   * Starts a new instant as {@link #start(Table, WriteOperationType, InstantTime)} does, running
   * {@code beforeRequested} with its time before the requested file is written (a writer's heartbeat
   * must exist before another writer can see the instant pending).
   */
  public static WriteTransaction start(Table table, WriteOperationType operationType, InstantTime generator,
      java.util.function.Consumer<String> beforeRequested) {
    Objects.requireNonNull(operationType, "operationType");
    table.prepareForWrite();
    TimelineStore store = table.timelineStore();
    Timeline timeline = store.load();
    requireNoPendingRestore(table, timeline);
    String time = InstantClock.next(generator, timeline);
    Action action = actionFor(table.type(), operationType);
    beforeRequested.accept(time);
    Instant requested = store.createRequested(time, action, requestedContent(action));
    Instant inflight = store.transitionToInflight(requested, new byte[0]);
    LOG.info("Started {} {} on table {}", operationType, inflight, table.basePath());
    return new WriteTransaction(table, store, operationType, inflight);
  }

  /**
   * Takes over the pending instant {@code instantTime} (e.g. a job coordinator that restarted and
   * recovered its write stats); writes the inflight file if only the requested one exists.
   *
   * @throws TableException if the instant is not a pending write of this table
   */
  public static WriteTransaction resume(Table table, String instantTime, WriteOperationType operationType) {
    TimelineStore store = table.timelineStore();
    Instant pending = store.currentWith(instantTime).writeTimeline().find(instantTime)
        .filter(i -> !i.isCompleted() && i.action() != Action.COMPACTION && i.action() != Action.LOG_COMPACTION)
        .orElseThrow(() -> new TableException("instant " + instantTime + " is not a pending write of table "
            + table.basePath()));
    Instant inflight = pending.isRequested() ? store.transitionToInflight(pending, new byte[0]) : pending;
    return new WriteTransaction(table, store, operationType, inflight);
  }

  /**
   * Refuses to write while a restore is pending, as Hudi's writers do: the table is half way back
   * to a savepoint until the restore is run again to its end.
   *
   * @throws TableException naming the pending restore
   */
  public static void requireNoPendingRestore(Table table, Timeline timeline) {
    timeline.ofAction(Action.RESTORE).pending().first().ifPresent(r -> {
      throw new TableException("table " + table.basePath() + " has a pending restore " + r
          + "; run the restore again to its end (io.riverbed.format.savepoint.Restore) before writing");
    });
  }

  /** The timeline action a write of {@code operationType} is filed under on a table of {@code type}. */
  public static Action actionFor(TableType type, WriteOperationType operationType) {
    if (operationType.isReplace()) {
      return Action.REPLACE_COMMIT;
    }
    return type == TableType.MERGE_ON_READ ? Action.DELTA_COMMIT : Action.COMMIT;
  }

  /** A replacecommit's requested file holds an all-null {@code HoodieRequestedReplaceMetadata}, as Hudi writes it. */
  private static byte[] requestedContent(Action action) {
    if (action != Action.REPLACE_COMMIT) {
      return new byte[0];
    }
    return AvroTimelineFile.serialize(new GenericData.Record(TimelineSchemas.REQUESTED_REPLACE_METADATA));
  }

  public Table table() {
    return table;
  }

  public String instantTime() {
    return inflight.time();
  }

  public Action action() {
    return inflight.action();
  }

  public WriteOperationType operationType() {
    return operationType;
  }

  /** Adds the stats of files written for this instant. */
  public synchronized void addWriteStats(Collection<WriteStat> writeStats) {
    requireOpen();
    stats.addAll(writeStats);
  }

  public void addWriteStat(WriteStat writeStat) {
    addWriteStats(List.of(writeStat));
  }

  /** Replace commits: file groups of {@code partitionPath} this instant replaces. */
  public synchronized void addReplacedFileIds(String partitionPath, Collection<String> fileIds) {
    requireOpen();
    if (!operationType.isReplace()) {
      throw new TableException(operationType + " instant " + inflight + " of table " + table.basePath()
          + " cannot replace file groups");
    }
    replacedFileIds.computeIfAbsent(partitionPath, p -> new LinkedHashSet<>()).addAll(fileIds);
  }

  public synchronized List<WriteStat> writeStats() {
    return List.copyOf(stats);
  }

  /**
   * Commits: deletes the data files T's markers name that no collected stat names
   * ({@link #deleteUnreportedFiles}), writes {@code T.<action>} with the collected stats,
   * {@code schema} (the table schema without meta fields) and {@code extraMetadata}, then deletes
   * T's markers.
   *
   * @return the metadata written
   * @throws io.riverbed.format.CommitConflictException if T is completed already
   * @throws TableException if T is no longer inflight (rolled back meanwhile)
   */
  public synchronized CommitMetadata commit(Schema tableSchema, Map<String, String> extraMetadata) {
    requireOpen();
    if (!store.exists(inflight)) {
      throw new TableException("cannot commit " + inflight + " of table " + table.basePath()
          + ": its inflight file is gone (rolled back?)");
    }
    CommitMetadata.Builder builder = CommitMetadata.builder(operationType)
        .schema(TableSchemas.removeMetaFields(tableSchema).toString())
        .addWriteStats(stats);
    extraMetadata.forEach((k, v) -> {
      if (CommitMetadata.SCHEMA_KEY.equals(k)) {
        throw new IllegalArgumentException("extra metadata must not override '" + k + "' (commit " + inflight + ")");
      }
      builder.extraMetadata(k, v);
    });
    if (action() == Action.REPLACE_COMMIT) {
      builder.replace();
      replacedFileIds.forEach(builder::addReplacedFileIds);
    }
    CommitMetadata metadata = builder.build();
    deleteUnreportedFiles();
    store.complete(inflight, store.encode(metadata));
    committed = true;
    Markers.of(table.fs(), table.metaPath(), inflight.time()).delete();
    LOG.info("Committed {} {} on table {}: {} files", operationType, inflight.withState(State.COMPLETED),
        table.basePath(), stats.size());
    return metadata;
  }

  /**
   * Deletes the files written for T that this commit does not carry: once T completes, every data
   * file named for T reads as committed (in Riverbed's and in Hudi's file listing), so a file no
   * stat names — written by a task whose result is not part of this commit because it failed, or,
   * when a restarted job commits T from its checkpoint, because it wrote after that checkpoint —
   * would add rows nobody committed. Hudi's finalizeWrite reconciles against markers the same way.
   * Every file of T is new (log files too: an append writes a new log file), so none holds
   * anything of another instant.
   */
  private void deleteUnreportedFiles() {
    Set<String> reported = new java.util.HashSet<>();
    stats.forEach(st -> reported.add(st.path()));
    for (Markers.Marker marker : Markers.of(table.fs(), table.metaPath(), inflight.time()).list()) {
      if (reported.contains(WriteTaskContext.relativePath(marker.partitionPath(), marker.fileName()))) {
        continue;
      }
      var path = new org.apache.hadoop.fs.Path(table.partitionPath(marker.partitionPath()), marker.fileName());
      try {
        if (table.fs().delete(path, false)) {
          LOG.info("Deleted {} before committing {} of table {}: written for it, but no result of the commit names it",
              path, inflight, table.basePath());
        }
      } catch (java.io.IOException e) {
        throw new TableException("cannot delete " + path + ", written for " + inflight + " of table " + table.basePath()
            + " but not part of its commit; the commit is not made", e);
      }
    }
  }

  private void requireOpen() {
    if (committed) {
      throw new IllegalStateException("instant " + inflight + " of table " + table.basePath() + " is committed");
    }
  }
}
