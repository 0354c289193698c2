package io.riverbed.flink.job;

import io.riverbed.flink.RiverbedSink;
import java.util.Map;
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

  /** The Riverbed table writer: {@link RiverbedSink} (options read by {@code FlinkWriteOptions}). */
  static TableSinkBuilder tableWriter() {
    return (rows, rowType, options) -> RiverbedSink.forRowData(rowType, options).sinkTo(rows);
  }
}
