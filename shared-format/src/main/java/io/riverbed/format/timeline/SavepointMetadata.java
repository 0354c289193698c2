package io.riverbed.format.timeline;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Content of a completed {@code T.savepoint} ({@code HoodieSavepointMetadata}): the data files a
 * savepoint pins, which cleaning must keep.
 *
 * @param savepointedBy who made it (may be empty)
 * @param savepointedAt when: milliseconds since the epoch, as Hudi 0.15 writes it
 *     ({@code System.currentTimeMillis()})
 * @param comments why (may be empty)
 * @param dataFilesByPartition per partition path, the pinned file names
 * @param version Hudi 0.15 writes 1
 */
public record SavepointMetadata(
    String savepointedBy, long savepointedAt, String comments, Map<String, List<String>> dataFilesByPartition,
    int version) {

  public static final int LATEST_VERSION = 1;

  public SavepointMetadata {
    var copy = new LinkedHashMap<String, List<String>>();
    if (dataFilesByPartition != null) {
      dataFilesByPartition.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    }
    dataFilesByPartition = Collections.unmodifiableMap(copy);
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.SAVEPOINT_METADATA);
    r.put("savepointedBy", savepointedBy);
    r.put("savepointedAt", savepointedAt);
    r.put("comments", comments);
    var partitions = new LinkedHashMap<String, GenericRecord>();
    dataFilesByPartition.forEach((partition, files) -> {
      var p = new GenericData.Record(TimelineSchemas.SAVEPOINT_PARTITION_METADATA);
      p.put("partitionPath", partition);
      p.put("savepointDataFile", files);
      partitions.put(partition, p);
    });
    r.put("partitionMetadata", partitions);
    r.put("version", version);
    return r;
  }

  public static SavepointMetadata fromRecord(GenericRecord r) {
    return new SavepointMetadata(
        AvroValues.string(r.get("savepointedBy")),
        AvroValues.toLong(r.get("savepointedAt")),
        AvroValues.string(r.get("comments")),
        AvroValues.map(r.get("partitionMetadata"), o -> AvroValues.strings(((GenericRecord) o).get("savepointDataFile"))),
        AvroValues.intOr(r.get("version"), LATEST_VERSION));
  }

  public byte[] toBytes() {
    return AvroTimelineFile.serialize(toRecord());
  }

  public static SavepointMetadata fromBytes(byte[] bytes, String source) {
    return fromRecord(AvroTimelineFile.deserializeRequired(bytes, TimelineSchemas.SAVEPOINT_METADATA, source));
  }
}
