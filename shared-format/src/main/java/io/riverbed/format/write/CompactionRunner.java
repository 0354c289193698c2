package io.riverbed.format.write;

import io.riverbed.format.TableOperation;
import io.riverbed.format.TableException;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.CommittedLogWrites;
import io.riverbed.format.timeline.CompactionOperation;
import io.riverbed.format.timeline.CompactionPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantCommittedPredicate;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes a requested compaction C, as Hudi 0.15's compactor does:
 *
 * <ol>
 *   <li>{@code C.compaction.inflight} (empty) is created. If it exists already a previous run
 *       crashed: every base file of C in the plan's file groups (found through the markers of C and
 *       by listing {@code <fileId>_*_C.parquet}) is deleted first, then the work is redone. Log
 *       files of slice C that writers appended after scheduling are never touched.
 *   <li>Each operation's old base file and log files are merged ({@link CompactionFileGroupMerger})
 *       into {@code <fileId>_<token>_C.parquet}, with a marker per file.
 *   <li>{@code C.commit} is written with {@code compacted: true}, operation {@code COMPACT}, one
 *       write stat per file written, the table schema (without meta fields) under {@code schema}
 *       and the plan's extra metadata. The requested and inflight files stay.
 * </ol>
 *
 * A file group whose committed log bytes are corrupt or missing fails the run with a
 * {@link io.riverbed.format.CorruptLogBlockException} before its base file is written, so no base
 * file ever drops committed data and nothing is committed; the compaction stays inflight.
 *
 * <p>Hudi rolls an inflight compaction back with a rollback instant before retrying; Riverbed
 * deletes the partial base files directly, which leaves the same files and a timeline without
 * the extra rollback instant. Two runners must not execute the same compaction at once.
 */
public final class CompactionRunner implements TableOperation<CommitMetadata> {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionRunner.class);

  private final Table table;
  private final String instantTime;
  private CompactionOptions options = CompactionOptions.defaults();
  private Runnable afterFileGroup = () -> { };
  /** Whether {@link #begin} found the compaction interrupted. */
  private boolean recovering;
  private CompactionFileGroupMerger merger;

  private CompactionRunner(Table table, String instantTime) {
    this.table = Objects.requireNonNull(table, "table");
    this.instantTime = Objects.requireNonNull(instantTime, "instantTime");
  }

  /** A runner for the compaction requested at {@code instantTime}. */
  public static CompactionRunner of(Table table, String instantTime) {
    return new CompactionRunner(table, instantTime);
  }

  public CompactionRunner options(CompactionOptions compactionOptions) {
    this.options = Objects.requireNonNull(compactionOptions);
    return this;
  }

  /**
   * Runs {@code hook} after each file group of the plan is merged (its base file written), before
   * the compaction commits; an exception it throws ends the run with the compaction inflight, as a
   * crash there would. For engines' failure tests.
   */
  public CompactionRunner afterEachFileGroup(Runnable hook) {
    this.afterFileGroup = Objects.requireNonNull(hook, "hook");
    return this;
  }

  /**
   * Runs (or finishes) the compaction and returns the metadata of {@code C.commit}: {@link #begin},
   * every operation through {@link #compact}, then {@link #commit}. A compaction that is already
   * complete is not run again; its metadata is returned.
   *
   * @throws TableException if there is no {@code C.compaction.requested}
   */
  @Override
  public CommitMetadata execute() {
    Optional<CompactionPlan> plan = begin();
    if (plan.isEmpty()) {
      return completedMetadata();
    }
    List<WriteStat> stats = new ArrayList<>();
    int index = 0;
    for (CompactionOperation operation : plan.get().operations()) {
      compact(operation, index++, recovering ? 1 : 0).ifPresent(stats::add);
      afterFileGroup.run();
    }
    return commit(stats);
  }

  /**
   * Starts the compaction for its operations to be run, by this runner or by parallel tasks:
   * {@code C.compaction.inflight} is written, or, if it exists (a run was interrupted), every base
   * file of C in the plan's file groups is deleted so that all operations are redone.
   *
   * @return the plan, or empty if the compaction is complete already
   * @throws TableException if there is no {@code C.compaction.requested} or its plan is version 1
   */
  public Optional<CompactionPlan> begin() {
    TimelineStore store = table.timelineStore();
    Instant requested = Instant.requested(instantTime, Action.COMPACTION);
    Instant inflight = requested.withState(State.INFLIGHT);
    if (!store.exists(requested)) {
      throw new TableException("no compaction requested at " + instantTime + " in table " + table.basePath()
          + ": " + store.pathOf(requested) + " does not exist");
    }
    if (store.exists(requested.withState(State.COMPLETED))) {
      LOG.info("Compaction {} of {} is already complete", instantTime, table.basePath());
      return Optional.empty();
    }
    CompactionPlan plan = plan();
    table.prepareForWrite();
    recovering = store.exists(inflight);
    if (recovering) {
      LOG.info("Compaction {} of {} was interrupted; deleting its partial base files and redoing it",
          instantTime, table.basePath());
      deletePartialOutputs(plan, markers());
    } else {
      store.transitionToInflight(requested, new byte[0]);
    }
    return Optional.of(plan);
  }

  /**
   * Merges one operation of the begun compaction into {@code <fileId>_<index>-1-<attempt>_C.parquet}
   * (with its marker). Operations are independent: parallel tasks may each run some. A retry of an
   * operation takes a higher {@code attempt}, so its file never collides with a failed attempt's;
   * {@link #commit} deletes the files no stat names.
   *
   * @param operationIndex the operation's position in the plan
   * @return the write stat of the new file, or empty if the group needed none
   * @throws io.riverbed.format.CorruptLogBlockException if the group's committed log bytes are damaged
   */
  public Optional<WriteStat> compact(CompactionOperation operation, int operationIndex, int attempt) {
    return merger().merge(operation, operationIndex, attempt);
  }

  /**
   * Commits the begun compaction with the write stats of all its operations: files its markers name
   * that no stat names (a failed or retried operation's) are deleted, then {@code C.commit} is
   * written with the table schema and the plan's extra metadata; the markers go after it. A
   * compaction complete already is not committed again; its metadata is returned.
   */
  public CommitMetadata commit(Collection<WriteStat> stats) {
    TimelineStore store = table.timelineStore();
    Instant inflight = Instant.inflight(instantTime, Action.COMPACTION);
    if (store.exists(inflight.withState(State.COMPLETED))) {
      LOG.info("Compaction {} of {} is already complete", instantTime, table.basePath());
      return completedMetadata();
    }
    CompactionPlan plan = plan();
    Markers markers = markers();
    deleteUnreported(stats, markers);
    CommitMetadata.Builder metadata = CommitMetadata.builder(WriteOperationType.COMPACT)
        .compacted(true)
        .schema(merger().tableSchema().toString());
    stats.forEach(metadata::addWriteStat);
    if (plan.extraMetadata() != null) {
      plan.extraMetadata().forEach(metadata::extraMetadata);
    }
    CommitMetadata result = metadata.build();
    store.complete(inflight, store.encode(result));
    LOG.info("Completed compaction {} of {}: {} base files written", instantTime, table.basePath(),
        result.writeStats().size());
    deleteMarkersAfterCommit(markers);
    return result;
  }

  private CompactionPlan plan() {
    TimelineStore store = table.timelineStore();
    Instant requested = Instant.requested(instantTime, Action.COMPACTION);
    CompactionPlan plan = CompactionPlan.fromBytes(store.read(requested), store.pathOf(requested).toString());
    if (plan.version() < CompactionPlan.LATEST_VERSION) {
      throw new TableException("compaction plan " + store.pathOf(requested) + " has version " + plan.version()
          + " (log file paths); only version 2 (log file names) is supported");
    }
    return plan;
  }

  private CommitMetadata completedMetadata() {
    TimelineStore store = table.timelineStore();
    Instant completed = Instant.completed(instantTime, Action.COMPACTION);
    return CommitMetadata.parse(store.read(completed), store.pathOf(completed).toString());
  }

  private Markers markers() {
    return Markers.of(table.fs(), table.metaPath(), instantTime);
  }

  /**
   * The merger of this compaction: the table schema as of the compaction's instant and the
   * committed log writes, read once; the writes only of the instants from the plan's oldest slice
   * base instant on, the only ones that can have written into the logs it merges, so the cost does
   * not grow with the timeline. The schema is the one of the newest write at or before the
   * compaction's instant, not of a later one: the merged blocks are all of instants before it, and
   * a time travel to an instant between the compaction and a later write that widened a column
   * reads the new base files in the narrower schema of its instant.
   */
  private synchronized CompactionFileGroupMerger merger() {
    if (merger == null) {
      Timeline timeline = table.refreshTimeline();
      Schema schema = TableSchemas.removeMetaFields(TableSchemaResolver.resolve(table, timeline.onOrBefore(instantTime))
          .orElseThrow(() -> new TableException("cannot compact " + instantTime + " in table " + table.basePath()
              + ": the table has no schema (no commit, create schema or data file names one)")));
      String since = plan().operations().stream().map(CompactionOperation::baseInstantTime)
          .filter(java.util.Objects::nonNull).min(String::compareTo).orElse("");
      merger = new CompactionFileGroupMerger(table, instantTime, schema, InstantCommittedPredicate.of(timeline),
          CommittedLogWrites.loadSince(table.timelineStore(), timeline, table.basePath(), since), options, markers());
    }
    return merger;
  }

  /** Deletes the files of this instant its markers name that none of {@code stats} names. */
  private void deleteUnreported(Collection<WriteStat> stats, Markers markers) {
    Set<String> reported = new HashSet<>();
    stats.forEach(s -> reported.add(s.partitionPath() + "/" + s.fileName()));
    for (Markers.Marker marker : markers.list()) {
      if (!reported.contains(marker.partitionPath() + "/" + marker.fileName())) {
        deleteOutput(new Path(table.partitionPath(marker.partitionPath()), marker.fileName()));
      }
    }
  }

  /** Deletes base files of this instant in the plan's file groups, then the markers. */
  private void deletePartialOutputs(CompactionPlan plan, Markers markers) {
    List<Path> doomed = new ArrayList<>();
    for (Markers.Marker marker : markers.list()) {
      doomed.add(new Path(table.partitionPath(marker.partitionPath()), marker.fileName()));
    }
    for (CompactionOperation op : plan.operations()) {
      Path folder = table.partitionPath(op.partitionPath());
      String prefix = op.fileId() + "_";
      String suffix = "_" + instantTime + ".parquet";
      try {
        for (FileStatus st : table.fs().listStatus(folder)) {
          String name = st.getPath().getName();
          if (st.isFile() && name.startsWith(prefix) && name.endsWith(suffix)) {
            doomed.add(st.getPath());
          }
        }
      } catch (FileNotFoundException e) {
        // partition folder gone: nothing of ours in it
      } catch (IOException e) {
        throw new TableException("cannot list " + folder + " to clean up compaction " + instantTime, e);
      }
    }
    doomed.forEach(this::deleteOutput);
    markers.delete();
  }

  private void deleteOutput(Path path) {
    if (!path.getName().endsWith("_" + instantTime + ".parquet")) {
      throw new TableException("marker of compaction " + instantTime + " in table " + table.basePath()
          + " names " + path + ", which is not a base file of that instant");
    }
    try {
      if (table.fs().delete(path, false)) {
        LOG.debug("Deleted output {} of compaction {}", path, instantTime);
      }
    } catch (IOException e) {
      throw new TableException("cannot delete output " + path + " of compaction " + instantTime, e);
    }
  }

  private void deleteMarkersAfterCommit(Markers markers) {
    try {
      markers.delete();
    } catch (TableException e) {
      // The commit is done; leftover markers only cost space and are ignored by readers.
      LOG.warn("Compaction {} of {} is committed but its markers could not be deleted", instantTime,
          table.basePath(), e);
    }
  }
}
