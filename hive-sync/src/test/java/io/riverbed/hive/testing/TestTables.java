package io.riverbed.hive.testing;

import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.testing.NewFileGroupCommits;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.TimelineTimezone;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * Small trip tables written with Riverbed's core writer (one new file group per partition per
 * commit), for sync tests: COPY_ON_WRITE or MERGE_ON_READ, partitioned by any fields, hive style or not.
 */
public final class TestTables {
  /** id, ts, fare, region, city, and a timestamp and a decimal so type mapping is exercised. */
  public static final Schema TRIP = SchemaBuilder.record("trip").namespace("hoodie.trips").fields()
      .requiredString("id")
      .requiredLong("ts")
      .requiredDouble("fare")
      .name("pickup").type(org.apache.avro.LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG))).noDefault()
      .name("price").type(org.apache.avro.LogicalTypes.decimal(10, 2).addToSchema(Schema.create(Schema.Type.BYTES))).noDefault()
      .requiredString("region")
      .requiredString("city")
      .endRecord();

  /** {@link #TRIP} with a nullable column added at the end (schema evolution). */
  public static final Schema TRIP_WITH_TIP = withTip();

  private TestTables() {}

  private static Schema withTip() {
    var fields = new ArrayList<Schema.Field>();
    TRIP.getFields().forEach(f -> fields.add(new Schema.Field(f, f.schema())));
    fields.add(new Schema.Field("tip", Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.DOUBLE)),
        null, Schema.Field.NULL_DEFAULT_VALUE));
    return Schema.createRecord(TRIP.getName(), null, TRIP.getNamespace(), false, fields);
  }

  /** Creates an empty table at {@code dir}. */
  public static Table create(Path dir, String name, TableType type, List<String> partitionFields, boolean hiveStyle) {
    TableConfig config = TableConfig.builder(name)
        .database("default")
        .type(type)
        .recordKeyFields(List.of("id"))
        .partitionFields(partitionFields)
        .precombineField("ts")
        .keyGeneratorClass(partitionFields.isEmpty() ? "org.apache.hudi.keygen.NonpartitionedKeyGenerator"
            : "org.apache.hudi.keygen.ComplexKeyGenerator")
        .hiveStylePartitioning(hiveStyle)
        .payloadClass(PayloadMergeRule.DEFAULT.payloadClass())
        .timelineTimezone(TimelineTimezone.UTC)
        .build();
    return Table.create(localFs(), new org.apache.hadoop.fs.Path(dir.toAbsolutePath().toUri()), config);
  }

  /** Commits {@code records} (of {@code schema}) as new file groups, one per partition; returns the instant. */
  public static String commit(Table table, Schema schema, List<GenericRecord> records) {
    return NewFileGroupCommits.commit(table, schema, records);
  }

  /** A trip of {@code schema} ({@link #TRIP} or {@link #TRIP_WITH_TIP}: tip is set when the schema has it). */
  public static GenericRecord trip(Schema schema, String id, long ts, String region, String city) {
    GenericRecord r = new GenericData.Record(schema);
    r.put("id", id);
    r.put("ts", ts);
    r.put("fare", ts * 1.5);
    r.put("pickup", 1_717_200_000_000_000L + ts);
    r.put("price", java.nio.ByteBuffer.wrap(java.math.BigInteger.valueOf(ts * 100 + 7).toByteArray()));
    r.put("region", region);
    r.put("city", city);
    if (schema.getField("tip") != null) {
      r.put("tip", ts / 10.0);
    }
    return r;
  }

  public static FileSystem localFs() {
    try {
      return FileSystem.getLocal(new Configuration());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
