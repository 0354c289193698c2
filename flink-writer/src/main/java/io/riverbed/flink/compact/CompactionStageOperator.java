package io.riverbed.flink.compact;

import io.riverbed.flink.sink.FlinkTables;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.table.Table;
import io.riverbed.format.write.CompactionOptions;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;

/** What the operators of the compaction stage share: the table they compact, how, and their input's events. */
abstract class CompactionStageOperator<OUT> extends AbstractStreamOperator<OUT>
    implements OneInputStreamOperator<byte[], OUT>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  protected final FlinkWriteOptions options;
  protected transient Table table;
  protected transient CompactionOptions compactionOptions;

  CompactionStageOperator(FlinkWriteOptions options) {
    this.options = options;
  }

  @Override
  public void open() throws Exception {
    super.open();
    table = FlinkTables.open(options);
    compactionOptions = options.compactionOptions();
  }

  /** The failure for an event this operator never gets from its upstream. */
  protected IllegalArgumentException unexpected(CompactionEvent event) {
    return new IllegalArgumentException(getClass().getSimpleName() + " of table " + options.path() + " got " + event);
  }
}
