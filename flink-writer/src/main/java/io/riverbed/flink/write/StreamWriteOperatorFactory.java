package io.riverbed.flink.write;

import io.riverbed.flink.commit.WriteCoordinator;
import io.riverbed.flink.sink.FlinkWriteOptions;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.CoordinatedOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Creates the {@link StreamWriteOperator}s and their {@link WriteCoordinator}. Public for
 * {@code RiverbedSink}, which puts the writer into the topology.
 */
public final class StreamWriteOperatorFactory extends AbstractStreamOperatorFactory<byte[]>
    implements CoordinatedOperatorFactory<byte[]>, OneInputStreamOperatorFactory<RowData, byte[]> {
  private static final long serialVersionUID = 1L;

  private final FlinkWriteOptions options;
  private final RowType dataType;
  private final String schemaJson;
  private final boolean addsColumns;

  public StreamWriteOperatorFactory(FlinkWriteOptions options, RowType dataType, String schemaJson) {
    this(options, dataType, schemaJson, false);
  }

  /**
   * @param addsColumns the rows end with a new-fields column ({@code RiverbedSink#withNewFields}), not
   *     part of {@code schemaJson}, whose fields the writers add to the table as columns
   */
  public StreamWriteOperatorFactory(FlinkWriteOptions options, RowType dataType, String schemaJson,
      boolean addsColumns) {
    this.options = options;
    this.dataType = dataType;
    this.schemaJson = schemaJson;
    this.addsColumns = addsColumns;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T extends StreamOperator<byte[]>> T createStreamOperator(StreamOperatorParameters<byte[]> parameters) {
    StreamWriteOperator operator = new StreamWriteOperator(options, dataType, schemaJson, addsColumns);
    operator.setProcessingTimeService(parameters.getProcessingTimeService());
    operator.setup(parameters.getContainingTask(), parameters.getStreamConfig(), parameters.getOutput());
    OperatorID id = parameters.getStreamConfig().getOperatorID();
    operator.setOperatorEventGateway(parameters.getOperatorEventDispatcher().getOperatorEventGateway(id));
    return (T) operator;
  }

  @Override
  public OperatorCoordinator.Provider getCoordinatorProvider(String operatorName, OperatorID operatorId) {
    return new Provider(operatorId, options, schemaJson, addsColumns);
  }

  @Override
  public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
    return StreamWriteOperator.class;
  }

  /** Not Flink's RecreateOnReset provider: its wrapper does not pass coordination requests on. */
  private static final class Provider implements OperatorCoordinator.Provider {
    private static final long serialVersionUID = 1L;
    private final OperatorID operatorId;
    private final FlinkWriteOptions options;
    private final String schemaJson;
    private final boolean addsColumns;

    Provider(OperatorID operatorId, FlinkWriteOptions options, String schemaJson, boolean addsColumns) {
      this.operatorId = operatorId;
      this.options = options;
      this.schemaJson = schemaJson;
      this.addsColumns = addsColumns;
    }

    @Override
    public OperatorID getOperatorId() {
      return operatorId;
    }

    @Override
    public OperatorCoordinator create(OperatorCoordinator.Context context) {
      return new WriteCoordinator(context, options, schemaJson, addsColumns);
    }
  }
}
