package io.riverbed.flink.compact;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.jobgraph.tasks.TaskOperatorEventGateway;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.util.SerializedValue;

/**
 * How the compaction operators ask the write coordinator (the writer's, by the operator id the
 * writers send downstream) what the stage must wait for: Flink's task gateway in a job, a fake in
 * the operators' tests.
 */
@FunctionalInterface
interface CoordinatorRequests {
  CompletableFuture<CoordinationResponse> send(OperatorID coordinator, CoordinationRequest request);

  /** Requests through a task's gateway to the coordinators of its job. */
  static CoordinatorRequests of(TaskOperatorEventGateway gateway) {
    return (coordinator, request) -> {
      try {
        return gateway.sendRequestToCoordinator(coordinator, new SerializedValue<>(request));
      } catch (IOException e) {
        return CompletableFuture.failedFuture(e);
      }
    };
  }
}
