package io.riverbed.flink.commit;

import java.util.List;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;

/**
 * The messages of the writer ↔ coordinator protocol (see {@link WriteCoordinator}). Public for the
 * stream writer, which sends and receives them from its own package.
 */
public final class WriteMessages {
  private WriteMessages() {}

  /** Writer → coordinator, once per attempt before any write: who I am and what my checkpoint held. */
  public record WriterStarted(String flinkJobId, List<WriteResult> restored) implements OperatorEvent {
    private static final long serialVersionUID = 1L;

    public WriterStarted {
      restored = List.copyOf(restored);
    }
  }

  /** Writer → coordinator, in {@code snapshotState(checkpointId)}: the files of the ending epoch. */
  public record Written(WriteResult result) implements OperatorEvent {
    private static final long serialVersionUID = 1L;
  }

  /** Coordinator → writer subtask 0: run the scheduled compaction at {@code instant}. */
  public record Compact(String instant) implements OperatorEvent {
    private static final long serialVersionUID = 1L;
  }

  /**
   * Writer → coordinator (request/response): the instant to write epoch {@code epoch} into;
   * {@code previousInstant} is the one the writer wrote in its previous epoch (null if none since
   * it started), which it must not be given again.
   */
  public record InstantRequest(int subtask, long epoch, String previousInstant) implements CoordinationRequest {
    private static final long serialVersionUID = 1L;
  }

  /**
   * Writer → coordinator (request/response), once its input has ended: answered when every
   * instant checkpoint {@code checkpointId} covers is committed, so the task (and so the bounded
   * job) finishes only after its last data is on the timeline.
   */
  public record CommitAwaitRequest(int subtask, long checkpointId) implements CoordinationRequest {
    private static final long serialVersionUID = 1L;
  }

  /**
   * Coordinator → writer: the answer to an {@link InstantRequest}. It travels in a Flink class
   * (the collect sink's response, its version field holding the instant): Flink hands the response
   * object to the task as is, so under {@code flink run} a class of the job jar would arrive from
   * the JobMaster's user-code class loader and not cast in the task's (one JVM), or not
   * deserialize in Flink's RPC class loader (separate JVMs).
   */
  static CoordinationResponse instantResponse(String instant) {
    return new CollectCoordinationResponse(instant, -1L, List.of());
  }

  /** The instant an {@link #instantResponse} carries. */
  public static String instantOf(CoordinationResponse response) {
    if (!(response instanceof CollectCoordinationResponse r)) {
      throw new IllegalArgumentException("unexpected response to an instant request: " + response);
    }
    return r.getVersion();
  }
}
