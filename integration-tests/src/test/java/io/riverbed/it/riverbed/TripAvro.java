package io.riverbed.it.riverbed;

import io.riverbed.it.scenario.Trip;
import java.time.temporal.ChronoUnit;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** The trips schema as the Avro record Riverbed's core writes, named as Hudi names table records. */
public final class TripAvro {
  private TripAvro() {}

  public static Schema schema(String tableName) {
    Schema rider = SchemaBuilder.record("rider").namespace("hoodie." + tableName + "." + tableName + "_record").fields()
        .requiredString("id").optionalString("name").endRecord();
    return SchemaBuilder.record(tableName + "_record").namespace("hoodie." + tableName).fields()
        .requiredString("uuid")
        .requiredString("driver")
        .name("rider").type(rider).noDefault()
        .requiredLong("ts")
        .requiredDouble("fare")
        .requiredInt("passengers")
        .requiredBoolean("is_paid")
        .name("ride_date").type(LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT))).noDefault()
        .name("pickup_time").type(LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG))).noDefault()
        .optionalString("notes")
        .requiredString("region")
        .requiredString("country")
        .requiredString("city")
        .endRecord();
  }

  public static GenericRecord toRecord(Schema schema, Trip t) {
    GenericRecord rider = new GenericData.Record(schema.getField("rider").schema());
    rider.put("id", t.riderId());
    rider.put("name", t.riderName());
    GenericRecord r = new GenericData.Record(schema);
    r.put("uuid", t.uuid());
    r.put("driver", t.driver());
    r.put("rider", rider);
    r.put("ts", t.ts());
    r.put("fare", t.fare());
    r.put("passengers", t.passengers());
    r.put("is_paid", t.paid());
    r.put("ride_date", (int) t.rideDate().toEpochDay());
    r.put("pickup_time", ChronoUnit.MICROS.between(java.time.Instant.EPOCH, t.pickupTime()));
    r.put("notes", t.notes());
    r.put("region", t.region());
    r.put("country", t.country());
    r.put("city", t.city());
    return r;
  }
}
