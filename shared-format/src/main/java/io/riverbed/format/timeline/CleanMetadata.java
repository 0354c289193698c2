package io.riverbed.format.timeline;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Content of a completed {@code T.clean} ({@code HoodieCleanMetadata}). Readers use
 * {@code earliestCommitToRetain} as the lower bound of time travel, and the next clean starts its
 * incremental scan from it.
 *
 * @param startCleanTime the clean's instant time
 * @param earliestCommitToRetain the plan's earliest instant to retain, or "" if it had none
 * @param lastCompletedCommitTimestamp the plan's newest completed commit, or ""
 * @param partitionMetadata per partition path, what was deleted
 * @param version 2 is what Hudi 0.15 writes
 * @param bootstrapPartitionMetadata bootstrap source files deleted; empty for Riverbed
 * @param extraMetadata the plan's extra metadata
 */
public record CleanMetadata(
    String startCleanTime,
    long timeTakenInMillis,
    int totalFilesDeleted,
    String earliestCommitToRetain,
    String lastCompletedCommitTimestamp,
    Map<String, CleanPartitionMetadata> partitionMetadata,
    int version,
    Map<String, CleanPartitionMetadata> bootstrapPartitionMetadata,
    Map<String, String> extraMetadata) {

  /** Hudi's {@code CleanerUtils.LATEST_CLEAN_METADATA_VERSION}. */
  public static final int LATEST_VERSION = 2;

  public CleanMetadata {
    earliestCommitToRetain = earliestCommitToRetain == null ? "" : earliestCommitToRetain;
    lastCompletedCommitTimestamp = lastCompletedCommitTimestamp == null ? "" : lastCompletedCommitTimestamp;
    partitionMetadata = copy(partitionMetadata);
    bootstrapPartitionMetadata = copy(bootstrapPartitionMetadata);
    extraMetadata = extraMetadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extraMetadata));
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.CLEAN_METADATA);
    r.put("startCleanTime", startCleanTime);
    r.put("timeTakenInMillis", timeTakenInMillis);
    r.put("totalFilesDeleted", totalFilesDeleted);
    r.put("earliestCommitToRetain", earliestCommitToRetain);
    r.put("lastCompletedCommitTimestamp", lastCompletedCommitTimestamp);
    r.put("partitionMetadata", records(partitionMetadata));
    r.put("version", version);
    r.put("bootstrapPartitionMetadata", records(bootstrapPartitionMetadata));
    r.put("extraMetadata", extraMetadata);
    return r;
  }

  public static CleanMetadata fromRecord(GenericRecord r) {
    return new CleanMetadata(
        AvroValues.string(r.get("startCleanTime")),
        AvroValues.toLong(r.get("timeTakenInMillis")),
        AvroValues.intOr(r.get("totalFilesDeleted"), 0),
        AvroValues.string(r.get("earliestCommitToRetain")),
        AvroValues.string(r.get("lastCompletedCommitTimestamp")),
        AvroValues.map(r.get("partitionMetadata"), o -> CleanPartitionMetadata.fromRecord((GenericRecord) o)),
        AvroValues.intOr(r.get("version"), 1),
        AvroValues.map(r.get("bootstrapPartitionMetadata"), o -> CleanPartitionMetadata.fromRecord((GenericRecord) o)),
        AvroValues.map(r.get("extraMetadata"), AvroValues::string));
  }

  public byte[] toBytes() {
    return AvroTimelineFile.serialize(toRecord());
  }

  public static CleanMetadata fromBytes(byte[] bytes, String source) {
    return fromRecord(AvroTimelineFile.deserializeRequired(bytes, TimelineSchemas.CLEAN_METADATA, source));
  }

  private static Map<String, CleanPartitionMetadata> copy(Map<String, CleanPartitionMetadata> map) {
    return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }

  private static Map<String, GenericRecord> records(Map<String, CleanPartitionMetadata> map) {
    var out = new LinkedHashMap<String, GenericRecord>();
    map.forEach((k, v) -> out.put(k, v.toRecord()));
    return out;
  }
}
