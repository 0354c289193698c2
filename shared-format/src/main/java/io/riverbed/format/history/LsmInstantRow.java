package io.riverbed.format.history;

import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineSchemas;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * One row of Hudi 1.x's LSM history ({@code HoodieLSMTimelineInstant}), as Hudi 1.0.2's
 * {@code MetadataConversionUtils.createLSMTimelineInstant} fills it: the instant's requested and
 * completion time, its completed action ({@code commit} for a compaction), the completed file's
 * bytes as {@code metadata} (version 8's Avro), and as {@code plan} the clean plan, the compaction
 * plan, or a replacecommit's requested (or, if not empty, inflight) file; version 1.
 *
 * @param instantTime the requested time
 * @param completionTime the completion time
 * @param action the completed action
 * @param metadata the completed file's bytes, or null when empty
 * @param plan the plan's bytes, or null
 */
public record LsmInstantRow(String instantTime, String completionTime, Action action, byte[] metadata, byte[] plan) {
  /** Hudi's {@code LSMTimeline.LSM_TIMELINE_INSTANT_VERSION_1}. */
  public static final int VERSION = 1;

  public LsmInstantRow {
    metadata = metadata == null || metadata.length == 0 ? null : metadata;
    plan = plan == null || plan.length == 0 ? null : plan;
  }

  /** The completed instant this row stands for. */
  public Instant instant() {
    return Instant.completed(instantTime, action);
  }

  public GenericRecord toRecord() {
    GenericRecord r = new GenericData.Record(TimelineSchemas.LSM_TIMELINE_INSTANT);
    r.put("instantTime", instantTime);
    r.put("completionTime", completionTime);
    r.put("action", action.word());
    r.put("metadata", metadata == null ? null : ByteBuffer.wrap(metadata));
    r.put("plan", plan == null ? null : ByteBuffer.wrap(plan));
    r.put("version", VERSION);
    return r;
  }

  /** The row of a record; empty for a record without time or with an action Riverbed does not know. */
  public static Optional<LsmInstantRow> fromRecord(GenericRecord r) {
    Object time = r.get("instantTime");
    Object action = r.get("action");
    if (time == null || action == null) {
      return Optional.empty();
    }
    Optional<Action> a = Action.fromWord(action.toString()).map(Action::completedAs);
    Object completion = r.get("completionTime");
    return a.map(value -> new LsmInstantRow(time.toString(), completion == null ? null : completion.toString(), value,
        bytes(r.get("metadata")), bytes(r.get("plan"))));
  }

  private static byte[] bytes(Object value) {
    if (value == null) {
      return null;
    }
    ByteBuffer buffer = ((ByteBuffer) value).duplicate();
    byte[] out = new byte[buffer.remaining()];
    buffer.get(out);
    return out;
  }
}
