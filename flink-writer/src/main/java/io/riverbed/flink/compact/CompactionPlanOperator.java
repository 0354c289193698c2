package io.riverbed.flink.compact;

import io.riverbed.flink.commit.WriteMessages;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.TableException;
import io.riverbed.format.timeline.CompactionOperation;
import io.riverbed.format.timeline.CompactionPlan;
import io.riverbed.format.write.CompactionRunner;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code compact-plan}, the first step of the compaction stage (parallelism 1, as Hudi's
 * {@code CompactionPlanOperator}): on each completed checkpoint, and at the end of its input,
 * starts every compaction pending on the timeline that this attempt has not started yet (the
 * write coordinator schedules them; oldest first) with the core's {@link CompactionRunner#begin},
 * and sends one {@link CompactionEvent.Operation} per operation of the plan to the compaction tasks.
 *
 * <ul>
 *   <li><b>Resume.</b> The operator keeps no state: a new attempt (after a failover, or a new job)
 *       starts every pending compaction again, inflight ones included; {@code begin()} then deletes
 *       what an interrupted run wrote, so every operation is redone. The events of each begin carry
 *       a new <em>generation</em> (the attempt number in the high half, a counter in the low one),
 *       so the committer never mixes results of two runs of one compaction.
 *   <li><b>Gate.</b> It starts nothing before the write coordinator has recovered (a
 *       {@link WriteMessages.CompactionStageStarted} request to the writer's coordinator, whose id
 *       the writers send in-band before their first barrier): until then this job may not hold the
 *       table's writer lease, and another job may be running the compactions. It forwards that id
 *       downstream for the committer.
 *   <li>A plan without operations is completed here; a complete one is skipped.
 * </ul>
 */
final class CompactionPlanOperator extends CompactionStageOperator<byte[]> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CompactionPlanOperator.class);
  /** How long the end of input waits for the coordinator's recovery (it waits as long for the writers' instants). */
  static final Duration READY_TIMEOUT = Duration.ofMinutes(10);

  private final transient CoordinatorRequests requests;

  /** Compactions this attempt began (so each is begun once per attempt). */
  private transient Set<String> begun;
  private transient long generationBase;
  private transient int runs;
  private transient OperatorID coordinator;
  private transient CompletableFuture<CoordinationResponse> ready;
  private transient boolean inputEnded;

  CompactionPlanOperator(FlinkWriteOptions options, CoordinatorRequests requests) {
    super(options);
    this.requests = requests;
  }

  @Override
  public void open() throws Exception {
    super.open();
    begun = new HashSet<>();
    generationBase = (long) getRuntimeContext().getTaskInfo().getAttemptNumber() << 32;
  }

  @Override
  public void processElement(StreamRecord<byte[]> element) {
    CompactionEvent event = CompactionEvent.fromBytes(element.getValue());
    if (!(event instanceof CompactionEvent.WriterCoordinator w)) {
      throw unexpected(event);
    }
    if (coordinator == null) {
      coordinator = w.operatorId();
      output.collect(element);
      ready = requests.send(coordinator, new WriteMessages.CompactionStageStarted());
    }
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    super.notifyCheckpointComplete(checkpointId);
    if (!inputEnded && isReady()) {
      planPending("checkpoint " + checkpointId);
    }
  }

  /** Starts what is pending once more before the stage's input ends (bounded input, or a drain). */
  @Override
  public void endInput() throws Exception {
    if (ready != null) {
      try {
        ready.get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        throw new TableException("the write coordinator of " + options.path() + " did not let the compaction stage "
            + "start", e);
      }
      planPending("end of input");
    }
    inputEnded = true;
  }

  private boolean isReady() {
    if (ready == null || !ready.isDone()) {
      return false;
    }
    if (ready.isCompletedExceptionally()) {
      try {
        ready.join();
      } catch (RuntimeException e) {
        throw new TableException("the write coordinator of " + options.path() + " refused the compaction stage", e);
      }
    }
    return true;
  }

  /** Begins every pending compaction not begun by this attempt and sends its operations. */
  private void planPending(String when) {
    List<String> pending = table.refreshTimeline().pendingCompactions().times();
    for (String instant : pending) {
      if (!begun.add(instant)) {
        continue;
      }
      CompactionRunner runner = CompactionRunner.of(table, instant).options(compactionOptions);
      Optional<CompactionPlan> plan = runner.begin();
      if (plan.isEmpty()) {
        continue;
      }
      List<CompactionOperation> operations = plan.get().operations();
      if (operations.isEmpty()) {
        runner.commit(List.of());
        continue;
      }
      long generation = generationBase | ++runs;
      LOG.info("Compaction {} of {} begun at {} (run {}): {} file groups sent to the compaction tasks", instant,
          table.basePath(), when, Long.toHexString(generation), operations.size());
      for (int i = 0; i < operations.size(); i++) {
        var event = new CompactionEvent.Operation(instant, generation, i, operations.size(), operations.get(i));
        output.collect(new StreamRecord<>(event.toBytes()));
      }
    }
  }
}
