package io.riverbed.format.timeline;

import java.util.List;
import java.util.Objects;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Content of {@code T.restore.requested} ({@code HoodieRestorePlan}): the instants a restore rolls
 * back, in the order it rolls them back, decided once so that a crashed restore is finished from
 * its plan.
 *
 * @param instantsToRollback newest first, with the action each had on the timeline (a completed
 *     compaction is a {@code commit}, a pending one a {@code compaction})
 * @param version 2 is what Hudi 0.15 writes; version 1 plans carry no savepoint time
 * @param savepointToRestoreTimestamp the savepoint the table is restored to (null in version 1)
 */
public record RestorePlan(List<InstantInfo> instantsToRollback, int version, String savepointToRestoreTimestamp) {

  /** Hudi's {@code RestorePlanActionExecutor.LATEST_RESTORE_PLAN_VERSION}. */
  public static final int LATEST_VERSION = 2;

  public RestorePlan {
    instantsToRollback = instantsToRollback == null ? List.of() : List.copyOf(instantsToRollback);
  }

  public static RestorePlan of(List<InstantInfo> instantsToRollback, String savepointTime) {
    return new RestorePlan(instantsToRollback, LATEST_VERSION, Objects.requireNonNull(savepointTime, "savepointTime"));
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.RESTORE_PLAN);
    r.put("instantsToRollback", instantsToRollback.stream().map(i -> i.toRecord(TimelineSchemas.RESTORE_INSTANT_INFO))
        .toList());
    r.put("version", version);
    r.put("savepointToRestoreTimestamp", savepointToRestoreTimestamp);
    return r;
  }

  public static RestorePlan fromRecord(GenericRecord r) {
    return new RestorePlan(
        AvroValues.list(r.get("instantsToRollback"), o -> InstantInfo.fromRecord((GenericRecord) o)),
        AvroValues.intOr(r.get("version"), LATEST_VERSION),
        AvroValues.string(r.get("savepointToRestoreTimestamp")));
  }

  public byte[] toBytes() {
    return AvroTimelineFile.serialize(toRecord());
  }

  public static RestorePlan fromBytes(byte[] bytes, String source) {
    return fromRecord(AvroTimelineFile.deserializeRequired(bytes, TimelineSchemas.RESTORE_PLAN, source));
  }
}
