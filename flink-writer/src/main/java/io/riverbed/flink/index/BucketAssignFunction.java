package io.riverbed.flink.index;

import io.riverbed.flink.sink.FlinkTables;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.record.OrderingValueCodec;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.table.Table;
import io.riverbed.format.write.FileGroupPacker;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

/**
 * Where does this key live? Keyed by record key (or by partition + key when the index is not
 * global), with the Flink-state index: an {@link IndexEntry} (partition, file id, ordering value of
 * the key's last write) per live key, and a tombstone (the delete's ordering value, kept for
 * {@code index.tombstone.retention} by state TTL) per deleted key.
 *
 * <ul>
 *   <li>with event-time ordering ({@link FlinkWriteOptions#ordersAcrossCommits}), a change whose
 *       ordering value is smaller than that of the key's last write or delete is dropped: it goes
 *       on as a {@link WriteEnvelope#STALE} row that the writer only counts (metric
 *       {@code riverbedStaleRecordsDropped});
 *   <li>upsert of a known key in the same partition: routed to its file group;
 *   <li>upsert of a known key whose partition changed (global index): a delete routed to the old
 *       file group, then an insert into a file group of the new partition;
 *   <li>upsert of a new (or deleted) key: packed into a small file group of its partition
 *       ({@link FileGroupPacker});
 *   <li>delete of a known key: routed to its file group (in the partition the key lives in), and
 *       the key becomes a tombstone; delete of an unknown key: not written (there is nothing to
 *       delete), but its tombstone is kept;
 *   <li>{@code write.operation=insert}: no lookup and no state, every row is packed as a new key.
 * </ul>
 *
 * A job that starts without restored state on a table with data gets its index (ordering values
 * and the deletes still in logs included) from the {@link IndexBootstrapOperator} through
 * {@link BucketAssignOperator}, which runs this function; the operator also moves index state of
 * the first layout ({@link LegacyIndexLocations}) into entries when it restores a checkpoint that
 * has it. With {@code index.state.ttl} an entry expires that long after the key's last write (every
 * routed upsert writes it), and the key is then new to the index.
 */
final class BucketAssignFunction extends KeyedProcessFunction<String, RowData, RowData> {
  private static final long serialVersionUID = 1L;

  static final String STALE_METRIC = "riverbedStaleRecordsDropped";

  private final FlinkWriteOptions options;
  private final int dataArity;
  /** The table once it exists; its timeline is refreshed by the packer at each partition it plans. */
  private transient Table table;
  /** The table's file system: one Hadoop configuration per task, also while the table does not exist yet. */
  private transient org.apache.hadoop.fs.FileSystem fileSystem;
  private transient ValueState<byte[]> entries;
  private transient ValueState<byte[]> tombstones;
  /**
   * False while no tombstone can be in this task's state (none restored, bootstrapped or written):
   * a new key's tombstone is then not looked up, as each access of the TTL state also runs a
   * cleanup step, which costs most when the state is nearly empty.
   */
  private transient boolean tombstonesMayExist;
  /** Whether every routed upsert rewrites the key's entry: with a TTL, so that its clock restarts. */
  private transient boolean writeEveryUpsert;
  private transient FileGroupPacker packer;
  private transient Counter staleDropped;

  BucketAssignFunction(FlinkWriteOptions options, RowType dataType) {
    this.options = options;
    this.dataArity = dataType.getFieldCount();
  }

  @Override
  public void open(OpenContext openContext) {
    var entryDescriptor =
        new ValueStateDescriptor<>("riverbed-index-entry", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    options.indexStateTtl().ifPresent(ttl -> entryDescriptor.enableTimeToLive(StateTtlConfig.newBuilder(ttl)
        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
        .build()));
    writeEveryUpsert = options.indexStateTtl().isPresent();
    entries = entryState(entryDescriptor);
    var tombstoneDescriptor =
        new ValueStateDescriptor<>("riverbed-index-tombstone", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    tombstoneDescriptor.enableTimeToLive(StateTtlConfig.newBuilder(options.tombstoneRetention())
        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
        .build());
    tombstones = getRuntimeContext().getState(tombstoneDescriptor);
    var task = getRuntimeContext().getTaskInfo();
    packer = FileGroupPacker.of(this::tableIfExists, options.writeOptions(), task.getIndexOfThisSubtask(),
        task.getNumberOfParallelSubtasks());
    staleDropped = getRuntimeContext().getMetricGroup().counter(STALE_METRIC);
  }

  /**
   * The entries' state; Flink 1.20 cannot restore it with state TTL switched on or off (the
   * serializer changes), and says so only as a serializer incompatibility: name the option instead.
   */
  private ValueState<byte[]> entryState(ValueStateDescriptor<byte[]> descriptor) {
    try {
      return getRuntimeContext().getState(descriptor);
    } catch (RuntimeException e) {
      if (org.apache.flink.util.ExceptionUtils.findThrowable(e, org.apache.flink.util.StateMigrationException.class)
          .isPresent()) {
        throw new IllegalStateException(FlinkWriteOptions.INDEX_STATE_TTL + " was switched on or off since the "
            + "checkpoint or savepoint of table " + options.path() + " was taken, and Flink cannot restore the index "
            + "state with a different TTL setting: set it back to that run's value, or start a new job without "
            + "restoring (the index bootstrap loads the keys from the table)", e);
      }
      throw e;
    }
  }

  /** Index bootstrap: the current key lives in file group {@code fileId} of {@code partition}. */
  void index(String partition, String fileId, byte[] ordering) throws java.io.IOException {
    entries.update(new IndexEntry(partition, fileId, ordering).toBytes());
  }

  /** Index bootstrap: the current key is deleted in the table's logs, by a delete ordered {@code ordering}. */
  void tombstone(byte[] ordering) throws java.io.IOException {
    if (ordering != null) {
      tombstonesMayExist = true;
      tombstones.update(ordering);
    }
  }

  /** Whether this task's state may hold tombstones; the operator keeps it in its checkpoints. */
  boolean tombstonesMayExist() {
    return tombstonesMayExist;
  }

  /** Set by the operator when the task starts: false only if no tombstone can have been restored. */
  void tombstonesMayExist(boolean may) {
    tombstonesMayExist = may;
  }

  String tablePath() {
    return options.path();
  }

  /**
   * The table, opened once it exists: the packer asks for it at every partition it meets, and a
   * Hadoop configuration per ask (XML parsing) cost a fifth of the assigner's time.
   */
  private Table tableIfExists() {
    if (table == null) {
      if (fileSystem == null) {
        fileSystem = FlinkTables.fileSystem(options);
      }
      var path = new org.apache.hadoop.fs.Path(options.path());
      if (Table.exists(fileSystem, path)) {
        table = Table.open(fileSystem, path);
      }
    }
    return table;
  }

  @Override
  public void processElement(RowData row, Context ctx, Collector<RowData> out) throws Exception {
    String partition = WriteEnvelope.partition(row);
    byte op = WriteEnvelope.op(row);
    if (options.operation() == FlinkWriteOptions.Operation.INSERT) {
      out.collect(WriteEnvelope.route(row, op, partition, packer.assign(partition), dataArity));
      return;
    }
    IndexEntry known = lookup();
    byte[] ordering = WriteEnvelope.ordering(row);
    // a key without a live entry may have a tombstone; read once (each access of the TTL state costs a cleanup step)
    byte[] tombstone = known == null && ordering != null && tombstonesMayExist ? tombstones.value() : null;
    if (ordering != null && isStale(known != null ? known.ordering() : tombstone, ordering)) {
      staleDropped.inc();
      out.collect(WriteEnvelope.stale(row, known == null ? null : known.fileId()));
      return;
    }
    if (op == WriteEnvelope.DELETE) {
      if (known != null) {
        out.collect(WriteEnvelope.route(row, WriteEnvelope.DELETE, known.partition(), known.fileId(), dataArity));
        entries.clear();
      }
      if (ordering != null) {
        tombstonesMayExist = true;
        tombstones.update(ordering);
      }
      return;
    }
    if (known != null && known.partition().equals(partition)) {
      out.collect(WriteEnvelope.route(row, WriteEnvelope.UPSERT, partition, known.fileId(), dataArity));
      if (ordering != null || writeEveryUpsert) {
        entries.update(new IndexEntry(partition, known.fileId(), ordering != null ? ordering : known.ordering()).toBytes());
      }
      return;
    }
    if (known != null) {
      out.collect(WriteEnvelope.route(row, WriteEnvelope.DELETE, known.partition(), known.fileId(), dataArity));
    } else if (tombstone != null) {
      tombstones.clear();
    }
    String fileId = packer.assign(partition);
    entries.update(new IndexEntry(partition, fileId, ordering).toBytes());
    out.collect(WriteEnvelope.route(row, WriteEnvelope.UPSERT, partition, fileId, dataArity));
  }

  /** The current key's live entry, or null. */
  private IndexEntry lookup() throws java.io.IOException {
    byte[] bytes = entries.value();
    return bytes == null ? null : IndexEntry.fromBytes(bytes);
  }

  /** True iff a change ordered {@code ordering} is older than {@code stored}, the key's last write's or kept delete's. */
  private static boolean isStale(byte[] stored, byte[] ordering) {
    return stored != null
        && OrderingValues.laterLoses(OrderingValueCodec.decode(stored), OrderingValueCodec.decode(ordering));
  }
}
