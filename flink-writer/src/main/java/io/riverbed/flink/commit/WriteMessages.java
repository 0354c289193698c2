package io.riverbed.flink.commit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;
import org.apache.flink.util.InstantiationUtil;

/**
 * The messages of the writer ↔ coordinator protocol (see {@link WriteCoordinator}), and of the
 * compaction stage ↔ coordinator one. Public for the stream writer and the compaction operators,
 * which send them from packages of their own.
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

  /**
   * Compaction plan operator → coordinator (request/response), once per attempt: answered once the
   * coordinator has recovered (it holds the table's writer lease), so the plan operator of a job
   * that may not write the table never takes over a compaction another job is running.
   */
  public record CompactionStageStarted() implements CoordinationRequest {
    private static final long serialVersionUID = 1L;
  }

  /**
   * Compaction committer → coordinator (request/response), once its input has ended: answered when
   * every writer's input ended and its last commit is done (the coordinator scheduled what was due
   * after it), so the committer can run every compaction still pending before the job ends.
   */
  public record FinalCompactionRequest() implements CoordinationRequest {
    private static final long serialVersionUID = 1L;
  }

  /**
   * Compaction committer → coordinator (request/response), after the last compactions: nothing of
   * this job writes the table any more; the coordinator releases the writer lease.
   */
  public record CompactionStageFinished() implements CoordinationRequest {
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

  /**
   * An {@link #instantResponse} that also carries the schema the instant's commit records at least
   * (its JSON, in the response's one serialized result), for writers that add columns.
   */
  static CoordinationResponse instantResponse(String instant, String tableSchema) {
    try {
      return new CollectCoordinationResponse(instant, -1L,
          List.of(InstantiationUtil.serializeToByteArray(StringSerializer.INSTANCE, tableSchema)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The instant an {@link #instantResponse} carries. */
  public static String instantOf(CoordinationResponse response) {
    return collectResponse(response).getVersion();
  }

  /** The table schema an {@link #instantResponse} carries, if any. */
  public static Optional<String> tableSchemaOf(CoordinationResponse response) {
    try {
      List<String> results = collectResponse(response).getResults(StringSerializer.INSTANCE);
      return results.isEmpty() ? Optional.empty() : Optional.of(results.get(0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static CollectCoordinationResponse collectResponse(CoordinationResponse response) {
    if (!(response instanceof CollectCoordinationResponse r)) {
      throw new IllegalArgumentException("unexpected response to an instant request: " + response);
    }
    return r;
  }
}
