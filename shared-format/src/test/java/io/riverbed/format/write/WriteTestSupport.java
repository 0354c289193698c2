package io.riverbed.format.write;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** A small orders table, record builders, and a test-only snapshot reader that merges each slice. */
final class WriteTestSupport {
  static final Schema SCHEMA = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
      .requiredString("id")
      .optionalString("name")
      .requiredLong("ts")
      .requiredString("dt")
      .optionalBoolean("_hoodie_is_deleted")
      .endRecord();

  private WriteTestSupport() {}

  static Table createTable(java.nio.file.Path dir, TableType type) throws IOException {
    return createTable(dir, type, TableConfig.VERSION_6);
  }

  /** A table of {@code tableVersion} (6 or 8) with {@link #SCHEMA}. */
  static Table createTable(java.nio.file.Path dir, TableType type, int tableVersion) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    TableConfig config = TableConfig.builder("orders").type(type).tableVersion(tableVersion)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
        .payloadClass(PayloadMergeRule.EVENT_TIME.payloadClass())
        .createSchema(SCHEMA.toString())
        .build();
    return Table.create(fs, new Path(dir.toUri().toString(), "orders"), config);
  }

  static GenericRecord order(String id, String name, long ts, String dt) {
    var r = new GenericData.Record(SCHEMA);
    r.put("id", id);
    r.put("name", name);
    r.put("ts", ts);
    r.put("dt", dt);
    return r;
  }

  static WriteRecord upsert(String id, String name, long ts, String dt) {
    return RecordKeyer.forTable(tableConfigStub()).toWriteRecord(order(id, name, ts, dt));
  }

  private static TableConfig tableConfigStub() {
    return TableConfig.builder("orders").recordKeyFields(List.of("id")).partitionFields(List.of("dt"))
        .precombineField("ts").build();
  }

  static Timeline timeline(Table table) {
    return table.timelineStore().load();
  }

  /** Rows of a snapshot query at the latest completed instant, by record key. */
  static Map<String, GenericRecord> snapshot(Table table) {
    Map<String, GenericRecord> rows = new TreeMap<>();
    for (GenericRecord r : TableReads.read(table, QuerySpec.snapshot())) {
      rows.put(r.get(MetaFields.RECORD_KEY).toString(), r);
    }
    return rows;
  }

  /** {@code key -> name@ts} of a snapshot, for compact assertions. */
  static Map<String, String> namesAndTs(Table table) {
    Map<String, String> out = new TreeMap<>();
    snapshot(table).forEach((k, r) -> out.put(k, r.get("name") + "@" + r.get("ts")));
    return out;
  }
}
