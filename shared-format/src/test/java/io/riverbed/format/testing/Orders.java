package io.riverbed.format.testing;

import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.TimelineTimezone;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.WriteRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The small orders table of the engine modules' tests: key {@code id}, ordering field {@code ts},
 * partitioned by {@code dt} over two days, the event-time payload, UTC instants. A round upserts keys
 * k0..k5 with {@code name = r<round>} and ordering value {@code round}, so every file group gets a new
 * slice, or a new log file on MERGE_ON_READ.
 */
public final class Orders {
  public static final Schema SCHEMA = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
      .requiredString("id")
      .optionalString("name")
      .requiredLong("ts")
      .requiredString("dt")
      .endRecord();
  public static final List<String> DAYS = List.of("2024-01-01", "2024-01-02");
  public static final int KEYS = 6;

  private Orders() {}

  /** The config of a new orders table of {@code type}. */
  public static TableConfig config(TableType type) {
    return TableConfig.builder("orders").type(type)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
        .payloadClass(PayloadMergeRule.EVENT_TIME.payloadClass())
        .timelineTimezone(TimelineTimezone.UTC)
        .createSchema(SCHEMA.toString())
        .build();
  }

  /** The records of round {@code round}, keyed by the table's key generator. */
  public static List<WriteRecord> round(TableConfig table, int round) {
    RecordKeyer keyer = RecordKeyer.forTable(table);
    List<WriteRecord> batch = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      GenericRecord r = new GenericData.Record(SCHEMA);
      r.put("id", "k" + k);
      r.put("name", "r" + round);
      r.put("ts", (long) round);
      r.put("dt", DAYS.get(k % 2));
      batch.add(keyer.toWriteRecord(r));
    }
    return batch;
  }
}
