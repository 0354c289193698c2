package io.riverbed.flink.job;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * A {@link TableSinkBuilder} for tests of what comes before the table writer: keeps the row type
 * and options it was given and the rows (as {@code +I(...)} strings) that reach it, per name.
 */
public final class CollectingTableSink implements TableSinkBuilder {
  private static final Map<String, List<String>> ROWS = new ConcurrentHashMap<>();

  private final String name;
  private volatile RowType rowType;
  private volatile Map<String, String> options;

  public CollectingTableSink(String name) {
    this.name = name;
    ROWS.put(name, new CopyOnWriteArrayList<>());
  }

  @Override
  public DataStreamSink<?> build(DataStream<RowData> rows, RowType rowType, Map<String, String> options) {
    this.rowType = rowType;
    this.options = options;
    String key = name;
    return rows.addSink(new SinkFunction<RowData>() {
      @Override
      public void invoke(RowData value, Context context) {
        ROWS.get(key).add(value.toString());
      }
    }).name("collect");
  }

  public List<String> rows() {
    return List.copyOf(ROWS.get(name));
  }

  public RowType rowType() {
    return rowType;
  }

  public Map<String, String> options() {
    return options;
  }
}
