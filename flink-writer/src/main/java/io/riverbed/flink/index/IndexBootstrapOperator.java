package io.riverbed.flink.index;

import io.riverbed.flink.sink.FlinkTables;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.TableException;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.Split;
import io.riverbed.format.query.SplitKeyReader;
import io.riverbed.format.record.OrderingValueCodec;
import io.riverbed.format.table.Table;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Index bootstrap ({@code index.bootstrap.enabled}): fills the bucket assigner's Flink-state index
 * from the table when a job starts without restored state, so that upserts and deletes of keys
 * the table already holds find their file group. It sits on the input path, chained after
 * {@code to-record} (forward, same parallelism: the order of a key's changes is kept):
 * {@code to-record → index-bootstrap → keyBy(key) → bucket-assigner}.
 *
 * <p>When the job did not restore state, each subtask, in {@link #open} (before the task runs and
 * before it forwards any input record):
 *
 * <ol>
 *   <li>plans a snapshot of the table ({@link QueryPlanner}: latest committed file slices, logs
 *       merged across pending compactions), keeps the slices of partitions matching
 *       {@code index.partition.regex}, and takes its share of them: a slice belongs to
 *       subtask {@code floorMod(hash(fileId), parallelism)} (every subtask lists the same committed
 *       slices; owning by file id rather than list position makes a slice's owner independent of
 *       anything else in the listing);
 *   <li>reads the live keys of its slices with {@link SplitKeyReader} (base files: only the record
 *       key column, and the ordering column under event-time ordering; logs: merged), up to
 *       {@link #LOAD_THREADS} slices at a time, and emits one {@link WriteEnvelope#INDEX} row per
 *       live key: (key, partition, file id, ordering value); under event-time ordering also one
 *       {@link WriteEnvelope#TOMBSTONE} row per key the logs delete (the delete's ordering value);
 *   <li>emits {@link BootstrapMarker} rows, one per key group of the assigner.
 * </ol>
 *
 * <p>Ordering argument. An index row of key k (from the subtask owning k's slice) and a record of
 * k (from the subtask that happens to read it) may travel different channels into the assigner
 * subtask of k, and Flink orders rows only within one channel. So the assigner does not rely on
 * channel order across subtasks: it holds back every input record until it has received a marker
 * from every bootstrap subtask ({@link BucketAssignOperator}). On each channel a subtask's index
 * rows precede its marker (emission order in {@link #open}), so once the assigner subtask has every
 * subtask's marker it has every index row for its keys; the records it held back are then applied
 * in arrival order, which keeps each channel's (hence each key's) order. Checkpoint barriers are
 * injected only after {@code open}, so they follow the markers on every channel: with aligned (or
 * at-least-once) checkpoints the assigner snapshots only after it has seen every marker and
 * released what it held, and a snapshot never contains a half-loaded index or held records.
 *
 * <p>When the job restored state (checkpoint or savepoint) both this operator and the assigner skip
 * the bootstrap: the restored state is the index. Both keep a flag in their operator state only so
 * that Flink marks them restored (it restores only tasks that have state; the assigner's is a
 * union-list flag, so every assigner subtask has it after rescaling); markers
 * are sent after a restore too, and the assigner ignores index rows and markers when it restored.
 * This operator is in the topology whenever the index is the Flink state (upsert/delete), also with
 * {@code index.bootstrap.enabled=false} (then it only forwards), so turning the option on or off
 * does not change the job graph a savepoint must match.
 *
 * <p>Public for {@code RiverbedSink}, which puts it into the topology.
 */
public final class IndexBootstrapOperator extends AbstractStreamOperator<RowData>
    implements OneInputStreamOperator<RowData, RowData> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(IndexBootstrapOperator.class);

  /** Accumulator: index entries this job attempt loaded (0 when the job restored state). */
  static final String LOADED_KEYS_ACCUMULATOR = "riverbed-index-bootstrap-keys";
  static final ListStateDescriptor<Boolean> RESTORE_FLAG =
      new ListStateDescriptor<>("riverbed-index-bootstrap-restored", Types.BOOLEAN);
  /** Slices one subtask reads at a time. */
  static final int LOAD_THREADS = 4;

  private final FlinkWriteOptions options;
  private final KeySelector<RowData, String> assignerKeySelector;
  private final int assignerMaxParallelism;
  /** Metric names: the bootstrap's progress on this subtask. */
  static final String SLICES_TO_LOAD = "indexBootstrapSlicesTotal";
  static final String SLICES_LOADED = "indexBootstrapSlicesLoaded";
  static final String KEYS_LOADED = "indexBootstrapKeysLoaded";

  private transient boolean restored;
  private transient volatile int slicesToLoad;
  private transient volatile int slicesLoaded;
  /** Keys loaded by this subtask (also the accumulator's value); read by the metric. */
  private transient LongCounter keysLoaded;
  private transient ListState<Boolean> restoreFlag;

  /**
   * @param assignerKeySelector how the stream into the assigner is keyed
   * @param assignerMaxParallelism the assigner's number of key groups
   */
  public IndexBootstrapOperator(FlinkWriteOptions options, KeySelector<RowData, String> assignerKeySelector,
      int assignerMaxParallelism) {
    this.options = options;
    this.assignerKeySelector = assignerKeySelector;
    this.assignerMaxParallelism = assignerMaxParallelism;
    setChainingStrategy(ChainingStrategy.ALWAYS);
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    restoreFlag = context.getOperatorStateStore().getListState(RESTORE_FLAG);
    restored = context.isRestored();
  }

  /**
   * Flink restores only tasks that have state: without this flag the chain of this operator
   * (usually stateless) would not know that the job restored. Split (not union) list state: Flink
   * refuses every checkpoint while some subtasks of an operator with union state have finished
   * (a bounded source subtask without input finishes at once), and this operator is chained to the
   * source. A subtask that gets no flag after rescaling bootstraps its share again, which costs a
   * read but changes nothing: the assigner, restored, ignores index rows.
   */
  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    restoreFlag.update(List.of(Boolean.TRUE));
  }

  @Override
  public void open() throws Exception {
    super.open();
    LongCounter loaded = new LongCounter();
    keysLoaded = loaded;
    getRuntimeContext().addAccumulator(LOADED_KEYS_ACCUMULATOR, loaded);
    getMetricGroup().gauge(SLICES_TO_LOAD, () -> slicesToLoad);
    getMetricGroup().gauge(SLICES_LOADED, () -> slicesLoaded);
    getMetricGroup().gauge(KEYS_LOADED, () -> keysLoaded.getLocalValue());
    int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
    if (!options.indexBootstrapEnabled()) {
      return;
    }
    long start = System.nanoTime();
    int slices = 0;
    if (restored) {
      LOG.info("Index bootstrap of table {} skipped by subtask {}: the job restored its state", options.path(), subtask);
    } else {
      slices = load(subtask, parallelism, loaded);
    }
    // also after a restore: releases an assigner that did not restore (it ignores them if it did)
    for (RowData marker : new BootstrapMarker(subtask, parallelism, assignerMaxParallelism)
        .rowsForEveryKeyGroup(assignerKeySelector)) {
      output.collect(new StreamRecord<>(marker));
    }
    if (!restored) {
      LOG.info("Index bootstrap of table {}: subtask {} of {} loaded {} keys of {} file slices in {} ms", options.path(),
          subtask, parallelism, loaded.getLocalValue(), slices, (System.nanoTime() - start) / 1_000_000);
    }
  }

  /** Emits the index rows of this subtask's slices; returns the number of slices read. */
  private int load(int subtask, int parallelism, LongCounter loaded) throws Exception {
    var fs = FlinkTables.fileSystem(options);
    var path = new Path(options.path());
    if (!Table.exists(fs, path)) {
      return 0;
    }
    QueryPlan plan = QueryPlanner.plan(Table.open(fs, path), QuerySpec.snapshot());
    List<Split> owned = new ArrayList<>();
    java.util.regex.Pattern partitions = options.indexPartitionPattern();
    for (Split split : plan.splits()) {
      if (partitions.matcher(split.slice().partitionPath()).matches()
          && Math.floorMod(split.slice().fileId().hashCode(), parallelism) == subtask) {
        owned.add(split);
      }
    }
    if (owned.isEmpty()) {
      return 0;
    }
    slicesToLoad = owned.size();
    SplitKeyReader reader = SplitKeyReader.of(plan, ReadSettings.fromOptions(options.raw()));
    int threads = Math.min(LOAD_THREADS, owned.size());
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "riverbed-index-bootstrap-" + subtask);
      t.setDaemon(true);
      return t;
    });
    try {
      CompletionService<SliceKeys> done = new ExecutorCompletionService<>(pool);
      Iterator<Split> next = owned.iterator();
      int running = 0;
      for (; running < threads && next.hasNext(); running++) {
        submit(done, reader, next.next());
      }
      StreamRecord<RowData> reuse = new StreamRecord<>(null);
      while (running > 0) {
        SliceKeys keys = take(done);
        running--;
        if (next.hasNext()) {
          submit(done, reader, next.next());
          running++;
        }
        for (RowData row : keys.rows()) {
          output.collect(reuse.replace(row));
        }
        loaded.add(keys.live());
        slicesLoaded++;
        LOG.debug("Index bootstrap: {} keys of file group {}", keys.live(), keys.split().slice().fileGroupId());
      }
    } finally {
      pool.shutdownNow();
    }
    return owned.size();
  }

  /** The index rows of one slice, made on a loader thread. */
  private record SliceKeys(Split split, List<RowData> rows, long live) {}

  private void submit(CompletionService<SliceKeys> done, SplitKeyReader reader, Split split) {
    String partition = split.slice().partitionPath();
    String fileId = split.slice().fileId();
    boolean versions = options.ordersAcrossCommits();
    done.submit(() -> {
      List<RowData> rows = new ArrayList<>();
      long[] live = {0};
      if (versions) {
        reader.forEachVersion(split, (key, ordering, deleted) -> {
          rows.add(WriteEnvelope.index(deleted ? WriteEnvelope.TOMBSTONE : WriteEnvelope.INDEX, key, partition, fileId,
              OrderingValueCodec.encode(ordering)));
          live[0] += deleted ? 0 : 1;
        });
      } else {
        reader.forEachKey(split, key -> {
          rows.add(WriteEnvelope.index(WriteEnvelope.INDEX, key, partition, fileId, null));
          live[0]++;
        });
      }
      return new SliceKeys(split, rows, live[0]);
    });
  }

  private SliceKeys take(CompletionService<SliceKeys> done) throws InterruptedException {
    try {
      return done.take().get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new TableException("index bootstrap of table " + options.path() + " failed: " + cause, cause);
    }
  }

  @Override
  public void processElement(StreamRecord<RowData> element) {
    output.collect(element);
  }
}
