package io.riverbed.format.testing;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** A new {@link Orders} table in one day's partition, written one commit per call, for tests. */
public final class OrderWrites {
  public static final String DAY = Orders.DAYS.get(0);

  private final Table table;
  private final SingleTaskEngine engine;
  private final RecordKeyer keyer;

  private OrderWrites(Table table) {
    this.table = table;
    this.engine = new SingleTaskEngine(table, Orders.SCHEMA, WriteOptions.fromMap(Map.of()));
    this.keyer = RecordKeyer.forTable(table.config());
  }

  /** Creates the table {@code orders} in {@code dir}. */
  public static OrderWrites create(java.nio.file.Path dir, TableType type) {
    try {
      return new OrderWrites(Table.create(FileSystem.getLocal(new Configuration()),
          new Path(dir.toUri().toString(), "orders"), Orders.config(type)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Table table() {
    return table;
  }

  /** Upserts the orders as one commit; returns its instant. */
  public String upsert(GenericRecord... orders) {
    return write(WriteOperationType.UPSERT, Arrays.stream(orders).map(keyer::toWriteRecord).toArray(WriteRecord[]::new));
  }

  /** Writes the records as one commit of {@code operation}; returns its instant. */
  public String write(WriteOperationType operation, WriteRecord... records) {
    return engine.write(operation, List.of(records), Map.of());
  }

  /** Deletes the keys of {@link #DAY} as one commit; returns its instant. */
  public String delete(String... keys) {
    return write(WriteOperationType.DELETE, Arrays.stream(keys).map(k -> WriteRecord.delete(k, DAY, 0))
        .toArray(WriteRecord[]::new));
  }

  /** An order of {@link #DAY}. */
  public static GenericRecord order(String id, String name, long ts) {
    GenericRecord r = new GenericData.Record(Orders.SCHEMA);
    r.put("id", id);
    r.put("name", name);
    r.put("ts", ts);
    r.put("dt", DAY);
    return r;
  }
}
