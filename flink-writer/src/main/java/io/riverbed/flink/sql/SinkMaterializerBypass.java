package io.riverbed.flink.sql;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.operators.sink.SinkUpsertMaterializer;

/**
 * Takes the planner's upsert materializer off the input of a {@code hudi} sink. The planner puts
 * one before a sink with a primary key whenever it cannot prove the input's upsert key is that
 * key (a changelog from {@code fromChangelogStream}, a source without a key); it only passes a
 * DELETE whose whole row it saw earlier in the same job, so deletes of keys an earlier job wrote,
 * or deletes carrying other non-key values, never reach the writer. The writer merges by record
 * key itself and needs no materializer.
 */
final class SinkMaterializerBypass {
  private SinkMaterializerBypass() {}

  /** The stream the materializer reads if {@code stream} is its output; else {@code stream}. */
  @SuppressWarnings("unchecked")
  static DataStream<RowData> upstreamOf(DataStream<RowData> stream) {
    Transformation<RowData> transformation = stream.getTransformation();
    if (transformation instanceof OneInputTransformation<?, ?> oneInput
        && oneInput.getOperatorFactory() instanceof SimpleOperatorFactory<?> factory
        && factory.getOperator() instanceof SinkUpsertMaterializer) {
      return new DataStream<>(stream.getExecutionEnvironment(),
          (Transformation<RowData>) oneInput.getInputs().get(0));
    }
    return stream;
  }
}
