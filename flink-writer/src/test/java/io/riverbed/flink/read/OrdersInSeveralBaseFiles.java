package io.riverbed.flink.read;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.NewFileGroupCommits;
import io.riverbed.format.testing.Orders;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * A COPY_ON_WRITE orders table whose rows lie in several base files by {@code ts}: row {@code i}
 * (of {@value #ROWS}) has key {@code k<i>}, {@code ts = i}, day {@code i % 2}, and {@code name}
 * {@code n<i>} (two digits) or null for every fourth row. Rows are committed {@value #ROWS_PER_COMMIT}
 * at a time as new file groups, so each commit adds one base file per day holding a {@code ts} range
 * of its own.
 */
final class OrdersInSeveralBaseFiles {
  static final int ROWS = 40;
  static final int ROWS_PER_COMMIT = 10;

  private OrdersInSeveralBaseFiles() {}

  /** Writes the table under {@code dir}. */
  static TableToRead write(Path dir) throws Exception {
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(dir.resolve("orders").toUri());
    Table table = Table.create(base.getFileSystem(new org.apache.hadoop.conf.Configuration()), base,
        Orders.config(TableType.COPY_ON_WRITE));
    for (int commit = 0; commit < ROWS / ROWS_PER_COMMIT; commit++) {
      List<GenericRecord> records = new ArrayList<>();
      for (int i = commit * ROWS_PER_COMMIT; i < (commit + 1) * ROWS_PER_COMMIT; i++) {
        GenericRecord r = new GenericData.Record(Orders.SCHEMA);
        r.put("id", "k" + i);
        r.put("name", name(i));
        r.put("ts", (long) i);
        r.put("dt", Orders.DAYS.get(i % 2));
        records.add(r);
      }
      NewFileGroupCommits.commit(table, Orders.SCHEMA, records);
    }
    return new TableToRead(base.toString(), Map.of());
  }

  /** The name of row {@code i}: null for every fourth row. */
  static String name(int i) {
    return i % 4 == 0 ? null : "n%02d".formatted(i);
  }
}
