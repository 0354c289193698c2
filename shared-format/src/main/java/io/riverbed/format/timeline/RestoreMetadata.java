package io.riverbed.format.timeline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Content of a completed {@code T.restore} ({@code HoodieRestoreMetadata}): what the restore rolled
 * back.
 *
 * @param startRestoreTime the restore's instant time
 * @param instantsToRollback times of the instants it rolled back, in the order it did
 * @param rollbacks per rolled-back instant time, its rollback's metadata (Hudi keeps a list of one)
 * @param version Hudi 0.15 writes 1
 * @param restoreInstantInfo the rolled-back instants with their actions, in the same order
 */
public record RestoreMetadata(
    String startRestoreTime,
    long timeTakenInMillis,
    List<String> instantsToRollback,
    Map<String, List<RollbackMetadata>> rollbacks,
    int version,
    List<InstantInfo> restoreInstantInfo) {

  public static final int LATEST_VERSION = 1;

  public RestoreMetadata {
    Objects.requireNonNull(startRestoreTime, "startRestoreTime");
    instantsToRollback = instantsToRollback == null ? List.of() : List.copyOf(instantsToRollback);
    var copy = new LinkedHashMap<String, List<RollbackMetadata>>();
    if (rollbacks != null) {
      rollbacks.forEach((k, v) -> copy.put(k, Collections.unmodifiableList(new ArrayList<>(v))));
    }
    rollbacks = Collections.unmodifiableMap(copy);
    restoreInstantInfo = restoreInstantInfo == null ? List.of() : List.copyOf(restoreInstantInfo);
  }

  /** Files the restore's rollbacks deleted, over every rolled-back instant. */
  public int totalFilesDeleted() {
    return rollbacks.values().stream().flatMap(List::stream).filter(Objects::nonNull)
        .mapToInt(RollbackMetadata::totalFilesDeleted).sum();
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.RESTORE_METADATA);
    r.put("startRestoreTime", startRestoreTime);
    r.put("timeTakenInMillis", timeTakenInMillis);
    r.put("instantsToRollback", instantsToRollback);
    var perInstant = new LinkedHashMap<String, List<GenericRecord>>();
    rollbacks.forEach((k, v) -> perInstant.put(k, v.stream().map(m -> m == null ? null : m.toRecord()).toList()));
    r.put("hoodieRestoreMetadata", perInstant);
    r.put("version", version);
    r.put("restoreInstantInfo", restoreInstantInfo.stream()
        .map(i -> i.toRecord(TimelineSchemas.RESTORE_METADATA_INSTANT_INFO)).toList());
    return r;
  }

  public static RestoreMetadata fromRecord(GenericRecord r) {
    return new RestoreMetadata(
        AvroValues.string(r.get("startRestoreTime")),
        AvroValues.toLong(r.get("timeTakenInMillis")),
        AvroValues.strings(r.get("instantsToRollback")),
        AvroValues.map(r.get("hoodieRestoreMetadata"), o -> AvroValues.list(o,
            m -> m == null ? null : RollbackMetadata.fromRecord((GenericRecord) m))),
        AvroValues.intOr(r.get("version"), LATEST_VERSION),
        AvroValues.list(r.get("restoreInstantInfo"), o -> InstantInfo.fromRecord((GenericRecord) o)));
  }

  public byte[] toBytes() {
    return AvroTimelineFile.serialize(toRecord());
  }

  public static RestoreMetadata fromBytes(byte[] bytes, String source) {
    return fromRecord(AvroTimelineFile.deserializeRequired(bytes, TimelineSchemas.RESTORE_METADATA, source));
  }
}
