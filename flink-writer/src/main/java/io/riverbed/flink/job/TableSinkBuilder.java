package io.riverbed.flink.job;

import io.riverbed.flink.sink.RiverbedSink;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * What the job and the SQL connector ask of the table writer: attach the write topology to a
 * stream of rows. Row kinds carry the operation (INSERT/UPDATE_AFTER upsert, DELETE deletes).
 * Options use Hudi's Flink names ({@code path}, {@code table.type},
 * {@code hoodie.datasource.write.recordkey.field}, ...).
 */
@FunctionalInterface
public interface TableSinkBuilder {
  DataStreamSink<?> build(DataStream<RowData> rows, RowType rowType, Map<String, String> options);

  /**
   * As {@link #build(DataStream, RowType, Map)}, with the Kafka offsets the source consumed up to
   * each checkpoint barrier ({@code KafkaOffsetsTracker}), for writers that record them with
   * their commits; others ignore them.
   */
  default DataStreamSink<?> build(DataStream<RowData> rows, Optional<DataStream<String>> kafkaOffsets, RowType rowType,
      Map<String, String> options) {
    return build(rows, rowType, options);
  }

  /**
   * As {@link #build(DataStream, Optional, RowType, Map)}, for rows that end with a new-fields
   * column the writer adds to the table as columns ({@link RiverbedSink#withNewFields}).
   *
   * @throws UnsupportedOperationException if this writer does not add columns
   */
  default DataStreamSink<?> buildAddingNewFields(DataStream<RowData> rows, Optional<DataStream<String>> kafkaOffsets,
      RowType rowType, Map<String, String> options) {
    throw new UnsupportedOperationException("this table writer does not add columns for new fields");
  }

  /** The Riverbed table writer: {@link RiverbedSink} (options read by {@code FlinkWriteOptions}). */
  static TableSinkBuilder tableWriter() {
    return new TableSinkBuilder() {
      @Override
      public DataStreamSink<?> build(DataStream<RowData> rows, RowType rowType, Map<String, String> options) {
        return RiverbedSink.forRowData(rowType, options).sinkTo(rows);
      }

      @Override
      public DataStreamSink<?> build(DataStream<RowData> rows, Optional<DataStream<String>> kafkaOffsets,
          RowType rowType, Map<String, String> options) {
        return RiverbedSink.forRowData(rowType, options).withKafkaOffsets(kafkaOffsets).sinkTo(rows);
      }

      @Override
      public DataStreamSink<?> buildAddingNewFields(DataStream<RowData> rows,
          Optional<DataStream<String>> kafkaOffsets, RowType rowType, Map<String, String> options) {
        return RiverbedSink.forRowData(rowType, options).withKafkaOffsets(kafkaOffsets).withNewFields().sinkTo(rows);
      }
    };
  }
}
