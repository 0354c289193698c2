package io.riverbed.flink;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.source.SourceFunction;
import org.apache.flink.table.data.RowData;

/**
 * A deterministic bounded source (parallelism 1) that emits one chunk of rows per checkpoint: after
 * emitting chunk c it waits until a checkpoint taken after c completed (plus {@code idleCheckpoints}
 * more, which see no data) before emitting c+1. Its position is checkpointed, so a restarted job
 * replays exactly the chunks the restored checkpoint had not covered.
 */
final class ChunkedSource implements SourceFunction<RowData>, CheckpointedFunction, CheckpointListener {
  private static final long serialVersionUID = 1L;
  private static final Map<String, List<List<RowData>>> DATASETS = new ConcurrentHashMap<>();

  private final String dataset;
  private final int idleCheckpoints;
  private transient ListState<Integer> positionState;
  private transient volatile int next;
  private transient volatile long awaitedCheckpoint;
  private transient volatile int completedSinceEmit;
  private transient volatile boolean emittedSinceSnapshot;
  private transient volatile boolean running;

  ChunkedSource(String dataset, int idleCheckpoints) {
    this.dataset = dataset;
    this.idleCheckpoints = idleCheckpoints;
  }

  static String register(String name, List<List<RowData>> chunks) {
    DATASETS.put(name, chunks);
    return name;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    positionState = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("position", Types.INT));
    next = 0;
    for (Integer p : positionState.get()) {
      next = p;
    }
    awaitedCheckpoint = Long.MAX_VALUE;
  }

  @Override
  public void run(SourceContext<RowData> ctx) throws Exception {
    running = true;
    List<List<RowData>> chunks = DATASETS.get(dataset);
    while (running && next < chunks.size()) {
      synchronized (ctx.getCheckpointLock()) {
        for (RowData row : chunks.get(next)) {
          ctx.collect(row);
        }
        next++;
        emittedSinceSnapshot = true;
        awaitedCheckpoint = Long.MAX_VALUE;
        completedSinceEmit = 0;
      }
      while (running && completedSinceEmit <= idleCheckpoints) {
        Thread.sleep(2);
      }
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    positionState.update(List.of(next));
    if (emittedSinceSnapshot) {
      awaitedCheckpoint = context.getCheckpointId();
      emittedSinceSnapshot = false;
    }
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    if (checkpointId >= awaitedCheckpoint) {
      completedSinceEmit++;
    }
  }

  @Override
  public void cancel() {
    running = false;
  }
}
