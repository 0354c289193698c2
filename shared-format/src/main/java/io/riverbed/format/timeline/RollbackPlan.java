package io.riverbed.format.timeline;

import java.util.List;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Content of {@code R.rollback.requested} ({@code HoodieRollbackPlan}).
 *
 * @param instantToRollback the instant being rolled back
 * @param requests what to delete and which log files get a rollback command block
 * @param version plan version; Hudi 0.15 writes 1
 */
public record RollbackPlan(InstantInfo instantToRollback, List<RollbackRequest> requests, int version) {

  /** Hudi's {@code LATEST_ROLLBACK_PLAN_VERSION}. */
  public static final int LATEST_VERSION = 1;

  public RollbackPlan {
    requests = requests == null ? List.of() : List.copyOf(requests);
  }

  public static RollbackPlan of(InstantInfo instantToRollback, List<RollbackRequest> requests) {
    return new RollbackPlan(instantToRollback, requests, LATEST_VERSION);
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.ROLLBACK_PLAN);
    r.put("instantToRollback", instantToRollback == null ? null : instantToRollback.toRecord());
    r.put("RollbackRequests", requests.stream().map(RollbackRequest::toRecord).toList());
    r.put("version", version);
    return r;
  }

  public static RollbackPlan fromRecord(GenericRecord r) {
    Object instant = r.get("instantToRollback");
    return new RollbackPlan(
        instant == null ? null : InstantInfo.fromRecord((GenericRecord) instant),
        AvroValues.list(r.get("RollbackRequests"), o -> RollbackRequest.fromRecord((GenericRecord) o)),
        AvroValues.intOr(r.get("version"), LATEST_VERSION));
  }

  public byte[] toBytes() {
    return AvroTimelineFile.serialize(toRecord());
  }

  public static RollbackPlan fromBytes(byte[] bytes, String source) {
    return fromRecord(AvroTimelineFile.deserializeRequired(bytes, TimelineSchemas.ROLLBACK_PLAN, source));
  }
}
