package io.riverbed.flink;

import java.util.List;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;

/** The messages of the writer ↔ coordinator protocol (see {@link WriteCoordinator}). */
final class WriteMessages {
  private WriteMessages() {}

  /** Writer → coordinator, once per attempt before any write: who I am and what my checkpoint held. */
  record WriterStarted(String flinkJobId, List<WriteResult> restored) implements OperatorEvent {
    private static final long serialVersionUID = 1L;

    WriterStarted {
      restored = List.copyOf(restored);
    }
  }

  /** Writer → coordinator, in {@code snapshotState(checkpointId)}: the files of the ending epoch. */
  record Written(WriteResult result) implements OperatorEvent {
    private static final long serialVersionUID = 1L;
  }

  /** Coordinator → writer subtask 0: run the scheduled compaction at {@code instant}. */
  record Compact(String instant) implements OperatorEvent {
    private static final long serialVersionUID = 1L;
  }

  /** Writer → coordinator (request/response): the instant to write epoch {@code epoch} into. */
  record InstantRequest(int subtask, long epoch) implements CoordinationRequest {
    private static final long serialVersionUID = 1L;
  }

  record InstantResponse(String instant) implements CoordinationResponse {
    private static final long serialVersionUID = 1L;
  }
}
