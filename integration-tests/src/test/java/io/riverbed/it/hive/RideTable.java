package io.riverbed.it.hive;

import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.TimelineTimezone;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * A small rides table written by Riverbed's core, with a column of every kind Hive reads
 * (decimal, timestamp, date, array, map, struct, a nullable string), key {@code id}, ordering
 * field {@code ts}, partitioned by {@code city}. {@link #writeWithLogs} leaves updates and deletes
 * in log files on MERGE_ON_READ (rewritten base files on COPY_ON_WRITE); {@link #compactAndUpsert}
 * compacts them and then writes one more upsert.
 */
final class RideTable {
  static final Schema FARE = LogicalTypes.decimal(10, 2).addToSchema(Schema.createFixed("fare", null, "hoodie.rides", 5));
  static final Schema AT = LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
  static final Schema DAY = LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
  static final Schema RIDER = SchemaBuilder.record("rider").namespace("hoodie.rides").fields()
      .optionalString("name").requiredInt("rating").endRecord();
  static final Schema SCHEMA = SchemaBuilder.record("rides_record").namespace("hoodie.rides").fields()
      .requiredString("id")
      .requiredLong("ts")
      .name("fare").type(FARE).noDefault()
      .name("tags").type().array().items().stringType().noDefault()
      .name("attrs").type().map().values().stringType().noDefault()
      .name("rider").type(RIDER).noDefault()
      .name("day").type(DAY).noDefault()
      .name("at").type(AT).noDefault()
      .optionalString("note")
      .requiredString("city")
      .endRecord();
  static final List<String> CITIES = List.of("paris", "tokyo", "lima");

  final Table table;
  private final SingleTaskEngine engine;
  private final RecordKeyer keyer;

  private RideTable(Table table) {
    this.table = table;
    this.engine = new SingleTaskEngine(table, SCHEMA, WriteOptions.defaults());
    this.keyer = RecordKeyer.forTable(table.config());
  }

  static RideTable create(Path dir, String name, TableType type) throws Exception {
    TableConfig config = TableConfig.builder(name).type(type)
        .recordKeyFields(List.of("id")).partitionFields(List.of("city")).precombineField("ts")
        .payloadClass(PayloadMergeRule.EVENT_TIME.payloadClass())
        .timelineTimezone(TimelineTimezone.UTC)
        .createSchema(SCHEMA.toString())
        .build();
    return new RideTable(Table.create(FileSystem.getLocal(new Configuration()),
        new org.apache.hadoop.fs.Path(dir.resolve(name).toUri()), config));
  }

  String basePath() {
    return table.basePath().toString();
  }

  /** Inserts r00..r23, then updates and new keys, deletes (one of a key only a log holds), more updates. */
  void writeWithLogs() {
    List<WriteRecord> inserts = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      inserts.add(ride(i, 1, "v1"));
    }
    engine.write(WriteOperationType.BULK_INSERT, inserts, Map.of());
    List<WriteRecord> updates = new ArrayList<>();
    for (int i : new int[] {0, 3, 4, 7, 10, 13, 16, 22}) {
      updates.add(ride(i, 2, "v2"));
    }
    updates.add(ride(24, 2, "new"));
    updates.add(ride(25, 2, "new"));
    engine.write(WriteOperationType.UPSERT, updates, Map.of());
    engine.write(WriteOperationType.DELETE, List.of(delete(1, 3), delete(2, 3), delete(24, 3)), Map.of());
    List<WriteRecord> more = new ArrayList<>();
    for (int i : new int[] {3, 5, 11, 25}) {
      more.add(ride(i, 4, "v4"));
    }
    engine.write(WriteOperationType.UPSERT, more, Map.of());
  }

  /** Compacts every file group with logs, then upserts two keys, so logs sit on the compacted slices again. */
  void compactAndUpsert() {
    String compaction = CompactionScheduler.of(table).execute().instantTime()
        .orElseThrow(() -> new IllegalStateException("no compaction scheduled on " + table.basePath()));
    CompactionRunner.of(table, compaction).execute();
    engine.write(WriteOperationType.UPSERT, List.of(ride(0, 5, "v5"), ride(9, 5, "v5")), Map.of());
  }

  private WriteRecord ride(int i, long ts, String version) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("id", String.format("r%02d", i));
    r.put("ts", ts);
    BigDecimal fare = new BigDecimal(10 + i * 7 + ts * 3).add(new BigDecimal("0.25")).setScale(2);
    r.put("fare", new Conversions.DecimalConversion().toFixed(fare, FARE, FARE.getLogicalType()));
    r.put("tags", i % 4 == 0 ? List.of() : List.of(version, "t" + (i % 3)));
    r.put("attrs", i % 5 == 0 ? Map.of() : Map.of("seat", "s" + i, "v", version));
    GenericRecord rider = new GenericData.Record(RIDER);
    rider.put("name", i % 6 == 0 ? null : "rider" + i);
    rider.put("rating", 1 + (i + (int) ts) % 5);
    r.put("rider", rider);
    r.put("day", (int) LocalDate.parse("2024-03-01").plusDays(i).toEpochDay());
    r.put("at", 1_709_251_200_000_000L + i * 3_600_123_457L + ts * 1_000_001L);
    r.put("note", i % 3 == 0 ? null : version + " note " + i);
    r.put("city", CITIES.get(i % CITIES.size()));
    return keyer.toWriteRecord(r);
  }

  private WriteRecord delete(int i, long ts) {
    return WriteRecord.delete(String.format("r%02d", i), CITIES.get(i % CITIES.size()), ts);
  }
}
