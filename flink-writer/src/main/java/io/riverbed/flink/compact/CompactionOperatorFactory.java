package io.riverbed.flink.compact;

import io.riverbed.flink.sink.FlinkWriteOptions;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/**
 * Creates the operators of the compaction stage with what the task gives them: its mailbox (the
 * compaction tasks emit results through it, the committer yields to it) and its gateway to the
 * job's coordinators.
 */
final class CompactionOperatorFactory<OUT> extends AbstractStreamOperatorFactory<OUT>
    implements OneInputStreamOperatorFactory<byte[], OUT> {
  private static final long serialVersionUID = 1L;

  /** Which operator of the stage. */
  enum Step { PLAN, TASK, COMMIT }

  private final Step step;
  private final FlinkWriteOptions options;
  /** Tests' stand-in for the task's coordinator gateway; never serialized, null in a job. */
  private final transient CoordinatorRequests requests;

  private CompactionOperatorFactory(Step step, FlinkWriteOptions options, CoordinatorRequests requests) {
    this.step = step;
    this.options = options;
    this.requests = requests;
  }

  static CompactionOperatorFactory<byte[]> plan(FlinkWriteOptions options) {
    return new CompactionOperatorFactory<>(Step.PLAN, options, null);
  }

  static CompactionOperatorFactory<byte[]> task(FlinkWriteOptions options) {
    return new CompactionOperatorFactory<>(Step.TASK, options, null);
  }

  static CompactionOperatorFactory<Void> commit(FlinkWriteOptions options) {
    return new CompactionOperatorFactory<>(Step.COMMIT, options, null);
  }

  /** This factory with requests to the coordinator answered by {@code fake} (operator tests). */
  CompactionOperatorFactory<OUT> withRequests(CoordinatorRequests fake) {
    return new CompactionOperatorFactory<>(step, options, fake);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T extends StreamOperator<OUT>> T createStreamOperator(StreamOperatorParameters<OUT> parameters) {
    CoordinatorRequests toCoordinator = requests != null ? requests
        : CoordinatorRequests.of(parameters.getContainingTask().getEnvironment().getOperatorCoordinatorEventGateway());
    CompactionStageOperator<?> operator = switch (step) {
      case PLAN -> new CompactionPlanOperator(options, toCoordinator);
      case TASK -> new CompactionTaskOperator(options, parameters.getMailboxExecutor());
      case COMMIT -> new CompactionCommitOperator(options, toCoordinator, parameters.getMailboxExecutor());
    };
    var typed = (CompactionStageOperator<OUT>) operator;
    typed.setProcessingTimeService(parameters.getProcessingTimeService());
    typed.setup(parameters.getContainingTask(), parameters.getStreamConfig(), parameters.getOutput());
    return (T) typed;
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
    return switch (step) {
      case PLAN -> CompactionPlanOperator.class;
      case TASK -> CompactionTaskOperator.class;
      case COMMIT -> CompactionCommitOperator.class;
    };
  }
}
