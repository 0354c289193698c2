package io.riverbed.flink;

import io.riverbed.format.table.Table;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

/**
 * Where does this key live? Keyed by record key (or by partition + key when the index is not
 * global), with the Flink-state index: {@code ValueState(partition, fileId)} per key.
 *
 * <ul>
 *   <li>upsert of a known key in the same partition: routed to its file group;
 *   <li>upsert of a known key whose partition changed (global index): a delete routed to the old
 *       file group, then an insert into a file group of the new partition;
 *   <li>upsert of a new key: packed into a small file group of its partition ({@link FileGroupPacker});
 *   <li>delete of a known key: routed to its file group (in the partition the key lives in), and
 *       the key is forgotten; delete of an unknown key: dropped (there is nothing to delete);
 *   <li>{@code write.operation=insert}: no lookup and no state, every row is packed as a new key.
 * </ul>
 *
 * A job that starts without restored state on a table with data gets its index from the
 * {@link IndexBootstrapOperator} through {@link BucketAssignOperator}, which runs this function.
 */
final class BucketAssignFunction extends KeyedProcessFunction<String, RowData, RowData> {
  private static final long serialVersionUID = 1L;

  private final FlinkWriteOptions options;
  private final int dataArity;
  private transient ValueState<Tuple2<String, String>> location;
  private transient FileGroupPacker packer;

  BucketAssignFunction(FlinkWriteOptions options, RowType dataType) {
    this.options = options;
    this.dataArity = dataType.getFieldCount();
  }

  @Override
  public void open(OpenContext openContext) {
    location = getRuntimeContext().getState(
        new ValueStateDescriptor<>("riverbed-index-location", Types.TUPLE(Types.STRING, Types.STRING)));
    var task = getRuntimeContext().getTaskInfo();
    packer = new FileGroupPacker(this::tableIfExists, options.writeOptions(), task.getIndexOfThisSubtask(),
        task.getNumberOfParallelSubtasks());
  }

  /** Index bootstrap: the current key lives in file group {@code fileId} of {@code partition}. */
  void index(String partition, String fileId) throws java.io.IOException {
    location.update(Tuple2.of(partition, fileId));
  }

  String tablePath() {
    return options.path();
  }

  private Table tableIfExists() {
    var fs = FlinkTables.fileSystem(options);
    var path = new org.apache.hadoop.fs.Path(options.path());
    return Table.exists(fs, path) ? Table.open(fs, path) : null;
  }

  @Override
  public void processElement(RowData row, Context ctx, Collector<RowData> out) throws Exception {
    String partition = WriteEnvelope.partition(row);
    byte op = WriteEnvelope.op(row);
    if (options.operation() == FlinkWriteOptions.Operation.INSERT) {
      out.collect(WriteEnvelope.route(row, op, partition, packer.assign(partition), dataArity));
      return;
    }
    Tuple2<String, String> known = location.value();
    if (op == WriteEnvelope.DELETE) {
      if (known != null) {
        out.collect(WriteEnvelope.route(row, WriteEnvelope.DELETE, known.f0, known.f1, dataArity));
        location.clear();
      }
      return;
    }
    if (known != null && known.f0.equals(partition)) {
      out.collect(WriteEnvelope.route(row, WriteEnvelope.UPSERT, partition, known.f1, dataArity));
      return;
    }
    if (known != null) {
      out.collect(WriteEnvelope.route(row, WriteEnvelope.DELETE, known.f0, known.f1, dataArity));
    }
    String fileId = packer.assign(partition);
    location.update(Tuple2.of(partition, fileId));
    out.collect(WriteEnvelope.route(row, WriteEnvelope.UPSERT, partition, fileId, dataArity));
  }
}
