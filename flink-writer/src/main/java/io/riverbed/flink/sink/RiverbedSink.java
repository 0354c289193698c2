package io.riverbed.flink.sink;

import io.riverbed.flink.commit.WriteCoordinator;
import io.riverbed.flink.compact.CompactionStage;
import io.riverbed.flink.index.BucketAssignOperator;
import io.riverbed.flink.index.IndexBootstrapOperator;
import io.riverbed.flink.index.ToRecordFunction;
import io.riverbed.flink.index.WriteEnvelope;
import io.riverbed.flink.write.RowTypeAvroConverter;
import io.riverbed.flink.write.StreamWriteOperatorFactory;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The DataStream entry point of the writer: upserts (or inserts, or deletes) a stream of
 * {@link RowData} of one row type into a Hudi table, committing on checkpoints.
 *
 * <pre>{@code
 * RiverbedSink.forRowData(rowType, Map.of("path", "/lake/trips",
 *         "hoodie.datasource.write.recordkey.field", "uuid",
 *         "hoodie.datasource.write.partitionpath.field", "city"))
 *     .sinkTo(stream);
 * }</pre>
 *
 * Topology: {@code to-record} (key, partition, operation; at the input's parallelism, forward,
 * so the order of a key's changes is kept) → {@code index-bootstrap} (chained; loads the index
 * from the table when the job starts without restored state, {@link IndexBootstrapOperator}) →
 * keyBy record key → {@code bucket-assigner} (Flink-state index) → keyBy file group → {@code stream-writer} (with
 * its {@link WriteCoordinator}) → a discarding sink; on MERGE_ON_READ with {@code compaction.async.enabled}
 * the compaction stage ({@link CompactionStage}: {@code compact-plan} → {@code compact-task} ×
 * {@code compaction.tasks} → {@code compact-commit}) comes between the writer and that sink. With
 * {@code hoodie.index.type=BUCKET} the
 * assigner is skipped and rows are keyed by (partition, bucket). Checkpointing must be enabled:
 * instants are committed when checkpoints complete. The table is created (on the client, when
 * the pipeline is built) if the path holds none. Records stay binary {@code RowData} between
 * operators, serialized by Flink's {@code RowDataSerializer}.
 */
public final class RiverbedSink {
  /** The name of the new-fields column of {@link #withNewFields}'s input rows. */
  public static final String NEW_FIELDS_COLUMN = "_rb_new_fields";

  private final RowType rowType;
  private final FlinkWriteOptions options;
  private Optional<DataStream<String>> kafkaOffsets = Optional.empty();
  private boolean newFields;

  private RiverbedSink(RowType rowType, FlinkWriteOptions options) {
    this.rowType = rowType;
    this.options = options;
  }

  /**
   * Records with each commit the Kafka offsets the input's source consumed up to the checkpoint
   * ({@code KafkaOffsetsTracker}'s side output), so a later job can start after them.
   */
  public RiverbedSink withKafkaOffsets(Optional<DataStream<String>> offsets) {
    this.kafkaOffsets = offsets;
    return this;
  }

  /**
   * Adds columns to the table, without stopping the job, for fields the input carries beyond the row
   * type: each input row has one more field, last, of type STRING, holding the JSON object of those
   * top-level fields (or null), as {@code JsonRowConverter.keepingNewFields} makes it. A field met
   * for the first time becomes a nullable column (its type inferred from its value), written from
   * that row on and recorded in the table schema by the next commit; rows written before read it as
   * null. A column is widened from BIGINT to DOUBLE when a fraction arrives; any other value that does
   * not fit its column fails the job naming the record key and field.
   */
  public RiverbedSink withNewFields() {
    this.newFields = true;
    return this;
  }

  /** The rows the sink takes: the row type, and with {@link #withNewFields} the new-fields column after it. */
  public RowType inputType() {
    return newFields ? withNewFieldsColumn(rowType) : rowType;
  }

  /** {@code rowType} with the new-fields column ({@value #NEW_FIELDS_COLUMN}, STRING) last: what {@link #withNewFields} takes. */
  public static RowType withNewFieldsColumn(RowType rowType) {
    var fields = new ArrayList<>(rowType.getFields());
    fields.add(new RowType.RowField(NEW_FIELDS_COLUMN, new VarCharType(true, VarCharType.MAX_LENGTH)));
    return new RowType(rowType.isNullable(), fields);
  }

  public static RiverbedSink forRowData(RowType rowType, Map<String, String> options) {
    return new RiverbedSink(rowType, FlinkWriteOptions.fromMap(options));
  }

  public static RiverbedSink forRowData(RowType rowType, FlinkWriteOptions options) {
    return new RiverbedSink(rowType, options);
  }

  public FlinkWriteOptions options() {
    return options;
  }

  /** The Avro schema of the table's records (no meta fields). */
  public Schema avroSchema() {
    return RowTypeAvroConverter.toAvroSchema(rowType, options.tableName());
  }

  /**
   * Adds the write to {@code input}'s job.
   *
   * @throws IllegalStateException if checkpointing is not enabled
   */
  public DataStreamSink<?> sinkTo(DataStream<RowData> input) {
    var env = input.getExecutionEnvironment();
    if (!env.getCheckpointConfig().isCheckpointingEnabled()) {
      throw new IllegalStateException("the Riverbed writer commits on checkpoints: enable checkpointing "
          + "(env.enableCheckpointing) to write table " + options.path());
    }
    Schema schema = avroSchema();
    FlinkTables.openOrCreate(options, schema);
    int defaultParallelism = env.getParallelism();
    RowType inputType = inputType();
    var envelopeType = WriteEnvelope.typeInfo(inputType);
    String uidPrefix = "riverbed-" + options.tableName();

    SingleOutputStreamOperator<RowData> records = input
        .flatMap(new ToRecordFunction(rowType, options), envelopeType)
        .name("riverbed: to-record [" + options.tableName() + "]")
        .uid(uidPrefix + "-to-record")
        .setParallelism(input.getParallelism());

    DataStream<RowData> routed;
    if (options.indexType() == FlinkWriteOptions.IndexType.BUCKET) {
      routed = records;
    } else {
      boolean global = options.keyMovesAcrossPartitions() || options.operation() == FlinkWriteOptions.Operation.INSERT;
      KeySelector<RowData, String> byKey = global ? new RecordKeySelector() : new PartitionAndKeySelector();
      int assignTasks = options.bucketAssignTasksOr(defaultParallelism);
      boolean bootstrap = options.indexBootstrapEnabled();
      DataStream<RowData> toAssign = records;
      if (options.operation() != FlinkWriteOptions.Operation.INSERT) {
        if (bootstrap && env.getCheckpointConfig().isUnalignedCheckpointsEnabled()) {
          throw new IllegalStateException("index bootstrap of table " + options.path() + " needs aligned checkpoints: "
              + "disable unaligned checkpoints, or set " + FlinkWriteOptions.INDEX_BOOTSTRAP + "=false");
        }
        // the key groups the assigner will have when the job starts without restored state (Flink's default)
        int keyGroups = env.getMaxParallelism() > 0 ? env.getMaxParallelism()
            : KeyGroupRangeAssignment.computeDefaultMaxParallelism(assignTasks);
        toAssign = records
            .transform("riverbed: index-bootstrap [" + options.tableName() + "]", envelopeType,
                new IndexBootstrapOperator(options, byKey, keyGroups))
            .uid(uidPrefix + "-index-bootstrap")
            .setParallelism(records.getParallelism());
      } else {
        bootstrap = false;
      }
      SingleOutputStreamOperator<RowData> assigned = toAssign
          .keyBy(byKey, io.riverbed.flink.index.RecordKeyType.INSTANCE)
          .transform("riverbed: bucket-assigner [" + options.tableName() + "]", envelopeType,
              new BucketAssignOperator(options, bootstrap, inputType))
          .uid(uidPrefix + "-bucket-assigner")
          .setParallelism(assignTasks);
      routed = assigned;
    }
    if (kafkaOffsets.isPresent()) {
      DataStream<RowData> offsetRows = kafkaOffsets.get()
          .map(WriteEnvelope::kafkaOffsets, envelopeType)
          .name("riverbed: kafka-offsets [" + options.tableName() + "]")
          .uid(uidPrefix + "-kafka-offsets")
          .setParallelism(kafkaOffsets.get().getParallelism());
      routed = routed.union(offsetRows);
    }
    int writeTasks = options.writeTasksOr(defaultParallelism);
    SingleOutputStreamOperator<byte[]> written = routed
        .keyBy(new FileGroupSelector(), Types.STRING)
        .transform("riverbed: stream-writer [" + options.tableName() + "]",
            PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO,
            new StreamWriteOperatorFactory(options, inputType, schema.toString(), newFields))
        .uid(uidPrefix + "-stream-writer")
        .setParallelism(writeTasks);
    if (options.runsCompactionStage()) {
      return CompactionStage.addAfter(written, options, writeTasks, uidPrefix).sinkTo(new DiscardingSink<>())
          .name("riverbed: end [" + options.tableName() + "]")
          .uid(uidPrefix + "-end")
          .setParallelism(1);
    }
    return written.sinkTo(new DiscardingSink<>())
        .name("riverbed: end [" + options.tableName() + "]")
        .uid(uidPrefix + "-end")
        .setParallelism(writeTasks);
  }

  private static final class RecordKeySelector implements KeySelector<RowData, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(RowData row) {
      return WriteEnvelope.key(row);
    }
  }

  private static final class PartitionAndKeySelector implements KeySelector<RowData, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(RowData row) {
      return WriteEnvelope.partition(row) + '\u0000' + WriteEnvelope.key(row);
    }
  }

  private static final class FileGroupSelector implements KeySelector<RowData, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(RowData row) {
      return WriteEnvelope.partition(row) + '\u0000' + WriteEnvelope.fileGroup(row);
    }
  }
}
