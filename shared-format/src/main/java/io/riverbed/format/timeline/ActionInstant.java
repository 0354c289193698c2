package io.riverbed.format.timeline;

import java.util.Objects;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * An instant as clean plans name it ({@code HoodieActionInstant}): time, action word and state
 * name ({@code REQUESTED}, {@code INFLIGHT}, {@code COMPLETED}, Hudi's enum names).
 */
public record ActionInstant(String timestamp, String action, String state) {

  public ActionInstant {
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(state, "state");
  }

  public static ActionInstant of(Instant instant) {
    return new ActionInstant(instant.time(), instant.action().word(), instant.state().name());
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.ACTION_INSTANT);
    r.put("timestamp", timestamp);
    r.put("action", action);
    r.put("state", state);
    return r;
  }

  public static ActionInstant fromRecord(GenericRecord r) {
    return new ActionInstant(AvroValues.string(r.get("timestamp")), AvroValues.string(r.get("action")),
        AvroValues.string(r.get("state")));
  }
}
