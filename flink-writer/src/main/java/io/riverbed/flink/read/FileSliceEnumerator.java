package io.riverbed.flink.read;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Hands the planned file slices to readers on demand, one per request, so fast readers take more;
 * a reader with nothing left to take is told there are no more splits. The read is planned once,
 * on the first start (not again on a restore: the checkpoint holds the unassigned rest), and
 * splits a failed reader held come back here to be assigned again.
 */
final class FileSliceEnumerator implements SplitEnumerator<FileSliceSplit, PendingSplits> {
  private final SplitEnumeratorContext<FileSliceSplit> context;
  private final Supplier<List<FileSliceSplit>> planner;
  private final Deque<FileSliceSplit> unassigned;
  private boolean planned;

  FileSliceEnumerator(SplitEnumeratorContext<FileSliceSplit> context, Supplier<List<FileSliceSplit>> planner,
      PendingSplits state) {
    this.context = context;
    this.planner = planner;
    this.unassigned = new ArrayDeque<>(state.unassigned());
    this.planned = state.planned();
  }

  @Override
  public void start() {
    if (!planned) {
      unassigned.addAll(planner.get());
      planned = true;
    }
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    FileSliceSplit next = unassigned.poll();
    if (next == null) {
      context.signalNoMoreSplits(subtaskId);
    } else {
      context.assignSplit(next, subtaskId);
    }
  }

  @Override
  public void addSplitsBack(List<FileSliceSplit> splits, int subtaskId) {
    splits.forEach(unassigned::addFirst);
  }

  @Override
  public void addReader(int subtaskId) {}

  @Override
  public PendingSplits snapshotState(long checkpointId) {
    return new PendingSplits(planned, List.copyOf(unassigned));
  }

  @Override
  public void close() {}
}
