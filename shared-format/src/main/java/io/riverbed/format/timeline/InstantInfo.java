package io.riverbed.format.timeline;

import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** An instant named in rollback and restore records ({@code HoodieInstantInfo}): time and action word. */
public record InstantInfo(String commitTime, String action) {

  public InstantInfo {
    Objects.requireNonNull(commitTime, "commitTime");
    Objects.requireNonNull(action, "action");
  }

  public static InstantInfo of(Instant instant) {
    return new InstantInfo(instant.time(), instant.action().word());
  }

  public GenericRecord toRecord() {
    return toRecord(TimelineSchemas.INSTANT_INFO);
  }

  /** As a record of {@code schema}: the {@code HoodieInstantInfo} schema of the file it goes into. */
  GenericRecord toRecord(Schema schema) {
    var r = new GenericData.Record(schema);
    r.put("commitTime", commitTime);
    r.put("action", action);
    return r;
  }

  public static InstantInfo fromRecord(GenericRecord r) {
    return new InstantInfo(AvroValues.string(r.get("commitTime")), AvroValues.string(r.get("action")));
  }
}
