package io.riverbed.flink.index;

import io.riverbed.flink.sink.FlinkWriteOptions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link BucketAssignFunction} and takes in the index rows of an upstream
 * {@link IndexBootstrapOperator}: {@link WriteEnvelope#INDEX} rows are stored in the keyed index
 * (nothing is written), and while the bootstrap is in progress every input record is held back, in
 * arrival order, until a {@link BootstrapMarker} has arrived from every bootstrap subtask; then the
 * held records are assigned and later ones pass straight through (the ordering argument is on
 * {@link IndexBootstrapOperator}). Without bootstrap ({@code index.bootstrap.enabled=false}), or
 * when the job restored state, it is the plain keyed process operator: a restored index is not
 * overwritten by index rows, and markers are ignored.
 *
 * <p>Public for {@code RiverbedSink}, which puts the assigner into the topology; the function it
 * runs stays package-private.
 */
public final class BucketAssignOperator extends KeyedProcessOperator<String, RowData, RowData> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(BucketAssignOperator.class);

  private static final ListStateDescriptor<Boolean> RESTORE_FLAG =
      new ListStateDescriptor<>("riverbed-bucket-assigner-restore-flag", Types.BOOLEAN);

  /**
   * One element per subtask: whether its index state may hold tombstones. A union, so that after a
   * rescale a subtask knows whether any of the key groups it took over may have them.
   */
  private static final ListStateDescriptor<Boolean> TOMBSTONES_FLAG =
      new ListStateDescriptor<>("riverbed-bucket-assigner-tombstones-written", Types.BOOLEAN);

  private final boolean bootstrapUpstream;
  private final RowType dataType;
  private transient boolean restored;
  private transient ListState<Boolean> restoreFlag;
  private transient ListState<Boolean> tombstonesFlag;
  private transient boolean tombstonesRestored;
  private transient boolean waiting;
  private transient Set<Integer> markedSubtasks;
  private transient List<StreamRecord<RowData>> held;
  private transient RowDataSerializer envelopeSerializer;
  private transient long indexed;

  /**
   * @param bootstrapUpstream an {@link IndexBootstrapOperator} sends its index rows and markers
   *     to this operator ({@code index.bootstrap.enabled}, not {@code write.operation=insert})
   */
  public BucketAssignOperator(FlinkWriteOptions options, boolean bootstrapUpstream, RowType dataType) {
    super(new BucketAssignFunction(options, dataType));
    this.bootstrapUpstream = bootstrapUpstream;
    this.dataType = dataType;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    restoreFlag = context.getOperatorStateStore().getUnionListState(RESTORE_FLAG);
    restored = context.isRestored();
    waiting = bootstrapUpstream && !restored;
    tombstonesFlag = context.getOperatorStateStore().getUnionListState(TOMBSTONES_FLAG);
    if (restored) {
      // a checkpoint of a release before the flag holds none: its state may have tombstones
      boolean any = false;
      boolean none = true;
      for (Boolean may : tombstonesFlag.get()) {
        none = false;
        any |= may;
      }
      tombstonesRestored = any || none;
    }
  }

  @Override
  public void open() throws Exception {
    super.open();
    markedSubtasks = new HashSet<>();
    held = new ArrayList<>();
    envelopeSerializer = new RowDataSerializer(WriteEnvelope.rowType(dataType));
    ((BucketAssignFunction) userFunction).tombstonesMayExist(tombstonesRestored);
    if (restored) {
      BucketAssignFunction function = (BucketAssignFunction) userFunction;
      long moved = LegacyIndexLocations.moveAll(getKeyedStateBackend(),
          (partition, fileId) -> function.index(partition, fileId, null));
      if (moved > 0) {
        LOG.info("Bucket-assigner subtask {} of table {} moved {} index locations of the first state layout to index "
            + "entries", getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), function.tablePath(), moved);
      }
    }
  }

  @Override
  public void processElement(StreamRecord<RowData> element) throws Exception {
    RowData row = element.getValue();
    switch (WriteEnvelope.op(row)) {
      case WriteEnvelope.INDEX -> {
        if (!restored) {
          ((BucketAssignFunction) userFunction).index(WriteEnvelope.partition(row), WriteEnvelope.fileGroup(row),
              WriteEnvelope.ordering(row));
          indexed++;
        }
      }
      case WriteEnvelope.TOMBSTONE -> {
        if (!restored) {
          ((BucketAssignFunction) userFunction).tombstone(WriteEnvelope.ordering(row));
        }
      }
      case WriteEnvelope.BOOTSTRAPPED -> onMarker(BootstrapMarker.of(row));
      default -> {
        if (waiting) {
          held.add(element.copy(envelopeSerializer.copy(row)));
        } else {
          super.processElement(element);
        }
      }
    }
  }

  private void onMarker(BootstrapMarker marker) throws Exception {
    if (!waiting) {
      return;
    }
    int keyGroups = getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
    if (marker.maxParallelism() != keyGroups) {
      throw new IllegalStateException("index bootstrap markers were made for " + marker.maxParallelism()
          + " key groups but the bucket assigner of table " + userFunctionPath() + " has " + keyGroups
          + "; set the job's max parallelism (pipeline.max-parallelism) explicitly");
    }
    markedSubtasks.add(marker.subtask());
    if (markedSubtasks.size() < marker.parallelism()) {
      return;
    }
    waiting = false;
    LOG.info("Index bootstrap of table {} complete in bucket-assigner subtask {}: {} keys indexed, {} held records "
        + "released", userFunctionPath(), getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), indexed, held.size());
    List<StreamRecord<RowData>> release = held;
    held = new ArrayList<>();
    for (StreamRecord<RowData> record : release) {
      setKeyContextElement1(record);
      super.processElement(record);
    }
  }

  private String userFunctionPath() {
    return ((BucketAssignFunction) userFunction).tablePath();
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    if (waiting) {
      // Cannot happen with aligned or at-least-once checkpoints: barriers follow every marker.
      throw new IllegalStateException("checkpoint " + context.getCheckpointId() + " reached the bucket assigner of "
          + "table " + userFunctionPath() + " before the index bootstrap completed (markers from " + markedSubtasks.size()
          + " subtasks); unaligned checkpoints are not supported with index bootstrap");
    }
    super.snapshotState(context);
    restoreFlag.update(List.of(Boolean.TRUE));
    tombstonesFlag.update(List.of(((BucketAssignFunction) userFunction).tombstonesMayExist()));
  }
}
