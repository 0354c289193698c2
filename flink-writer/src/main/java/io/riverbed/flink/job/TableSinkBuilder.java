package io.riverbed.flink.job;

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

  /**
   * The Riverbed table writer. Not wired yet: the writer core lives on another branch; until it
   * is merged the job and the SQL connector build their pipelines but cannot write a table.
   */
  static TableSinkBuilder tableWriter() {
    return (rows, rowType, options) -> {
      throw new UnsupportedOperationException("the Riverbed table writer is not part of this build yet");
    };
  }
}
