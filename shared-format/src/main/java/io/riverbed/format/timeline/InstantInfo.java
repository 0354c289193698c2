package io.riverbed.format.timeline;

import java.util.Objects;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** An instant named in rollback records ({@code HoodieInstantInfo}): time and action word. */
public record InstantInfo(String commitTime, String action) {

  public InstantInfo {
    Objects.requireNonNull(commitTime, "commitTime");
    Objects.requireNonNull(action, "action");
  }

  public static InstantInfo of(Instant instant) {
    return new InstantInfo(instant.time(), instant.action().word());
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.INSTANT_INFO);
    r.put("commitTime", commitTime);
    r.put("action", action);
    return r;
  }

  public static InstantInfo fromRecord(GenericRecord r) {
    return new InstantInfo(AvroValues.string(r.get("commitTime")), AvroValues.string(r.get("action")));
  }
}
