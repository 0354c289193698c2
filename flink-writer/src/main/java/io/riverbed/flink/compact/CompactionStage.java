package io.riverbed.flink.compact;

import io.riverbed.flink.sink.FlinkWriteOptions;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The compaction stage of a MERGE_ON_READ job with {@code compaction.async.enabled}, after the
 * writer, as Hudi's Flink pipeline has it ({@code compact_plan_generate} → rebalance →
 * {@code compact_task} × N → {@code compact_commit}):
 *
 * <pre>
 * stream-writer (its coordinator's id, once per attempt)
 *   -> compact-plan   (1)   CompactionPlanOperator: begins pending compactions, one event per file group
 *   -> rebalance
 *   -> compact-task   (compaction.tasks)   CompactionTaskOperator: merges, retries, reports
 *   -> compact-commit (1)   CompactionCommitOperator: commits a compaction once all its file groups reported;
 *                           at the end of input runs what is still pending
 * </pre>
 *
 * Public for {@code RiverbedSink}, which adds it to the topology.
 */
public final class CompactionStage {
  private CompactionStage() {}

  /**
   * Adds the stage after the writer's output {@code writerEvents}.
   *
   * @param writeTasks the writer's parallelism, {@code compaction.tasks}' default
   * @return the committer's (empty) output, for the job's end sink
   */
  public static DataStream<Void> addAfter(DataStream<byte[]> writerEvents, FlinkWriteOptions options, int writeTasks,
      String uidPrefix) {
    var bytes = PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;
    String table = " [" + options.tableName() + "]";
    var plans = writerEvents
        .transform("riverbed: compact-plan" + table, bytes, CompactionOperatorFactory.plan(options))
        .uid(uidPrefix + "-compact-plan")
        .setParallelism(1)
        .setMaxParallelism(1);
    var results = plans.rebalance()
        .transform("riverbed: compact-task" + table, bytes, CompactionOperatorFactory.task(options))
        .uid(uidPrefix + "-compact-task")
        .setParallelism(options.compactionTasksOr(writeTasks));
    return results
        .transform("riverbed: compact-commit" + table, Types.VOID, CompactionOperatorFactory.commit(options))
        .uid(uidPrefix + "-compact-commit")
        .setParallelism(1)
        .setMaxParallelism(1);
  }
}
