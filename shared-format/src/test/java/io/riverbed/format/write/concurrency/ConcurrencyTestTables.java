package io.riverbed.format.write.concurrency;

import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import java.io.IOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** A small MERGE_ON_READ orders table in a local folder. */
final class ConcurrencyTestTables {
  static final Schema SCHEMA = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
      .requiredString("id")
      .requiredLong("ts")
      .requiredString("dt")
      .endRecord();

  private ConcurrencyTestTables() {}

  static Table create(java.nio.file.Path dir) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    TableConfig config = TableConfig.builder("orders").type(TableType.MERGE_ON_READ)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
        .payloadClass(PayloadMergeRule.EVENT_TIME.payloadClass())
        .createSchema(SCHEMA.toString())
        .build();
    return Table.create(fs, new Path(dir.toUri().toString(), "orders"), config);
  }
}
