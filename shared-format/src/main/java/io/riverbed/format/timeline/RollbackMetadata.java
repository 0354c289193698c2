package io.riverbed.format.timeline;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Content of a completed {@code R.rollback} ({@code HoodieRollbackMetadata}).
 *
 * @param startRollbackTime the rollback's instant time
 * @param commitsRollback times of the rolled-back instants
 * @param partitionMetadata per partition path, what was deleted and appended
 * @param version Hudi 0.15 writes 1
 * @param instantsRollback the rolled-back instants with their actions
 */
public record RollbackMetadata(
    String startRollbackTime,
    long timeTakenInMillis,
    int totalFilesDeleted,
    List<String> commitsRollback,
    Map<String, RollbackPartitionMetadata> partitionMetadata,
    int version,
    List<InstantInfo> instantsRollback) {

  public static final int LATEST_VERSION = 1;

  public RollbackMetadata {
    commitsRollback = commitsRollback == null ? List.of() : List.copyOf(commitsRollback);
    partitionMetadata = partitionMetadata == null ? Map.of()
        : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(partitionMetadata));
    instantsRollback = instantsRollback == null ? List.of() : List.copyOf(instantsRollback);
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.ROLLBACK_METADATA);
    r.put("startRollbackTime", startRollbackTime);
    r.put("timeTakenInMillis", timeTakenInMillis);
    r.put("totalFilesDeleted", totalFilesDeleted);
    r.put("commitsRollback", commitsRollback);
    var partitions = new LinkedHashMap<String, GenericRecord>();
    partitionMetadata.forEach((k, v) -> partitions.put(k, v.toRecord()));
    r.put("partitionMetadata", partitions);
    r.put("version", version);
    r.put("instantsRollback", instantsRollback.stream().map(InstantInfo::toRecord).toList());
    return r;
  }

  public static RollbackMetadata fromRecord(GenericRecord r) {
    return new RollbackMetadata(
        AvroValues.string(r.get("startRollbackTime")),
        AvroValues.toLong(r.get("timeTakenInMillis")),
        AvroValues.intOr(r.get("totalFilesDeleted"), 0),
        AvroValues.strings(r.get("commitsRollback")),
        AvroValues.map(r.get("partitionMetadata"), o -> RollbackPartitionMetadata.fromRecord((GenericRecord) o)),
        AvroValues.intOr(r.get("version"), LATEST_VERSION),
        AvroValues.list(r.get("instantsRollback"), o -> InstantInfo.fromRecord((GenericRecord) o)));
  }

  public byte[] toBytes() {
    return AvroTimelineFile.serialize(toRecord());
  }

  public static RollbackMetadata fromBytes(byte[] bytes, String source) {
    return fromRecord(AvroTimelineFile.deserializeRequired(bytes, TimelineSchemas.ROLLBACK_METADATA, source));
  }
}
