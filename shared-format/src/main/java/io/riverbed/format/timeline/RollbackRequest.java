package io.riverbed.format.timeline;

import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * What to undo in one partition or file group ({@code HoodieRollbackRequest}).
 *
 * @param partitionPath relative partition path
 * @param fileId file group id, or null
 * @param latestBaseInstant base instant of the file group's latest slice, or null
 * @param filesToBeDeleted absolute paths of files to delete
 * @param logBlocksToBeDeleted log files (absolute path) to size, whose blocks a rollback command
 *     block must cancel; null if none
 */
public record RollbackRequest(
    String partitionPath,
    String fileId,
    String latestBaseInstant,
    List<String> filesToBeDeleted,
    Map<String, Long> logBlocksToBeDeleted) {

  public RollbackRequest {
    filesToBeDeleted = filesToBeDeleted == null ? List.of() : List.copyOf(filesToBeDeleted);
    logBlocksToBeDeleted = logBlocksToBeDeleted == null ? null : Map.copyOf(logBlocksToBeDeleted);
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.ROLLBACK_REQUEST);
    r.put("partitionPath", partitionPath);
    r.put("fileId", fileId);
    r.put("latestBaseInstant", latestBaseInstant);
    r.put("filesToBeDeleted", filesToBeDeleted);
    r.put("logBlocksToBeDeleted", logBlocksToBeDeleted);
    return r;
  }

  public static RollbackRequest fromRecord(GenericRecord r) {
    return new RollbackRequest(
        AvroValues.string(r.get("partitionPath")),
        AvroValues.string(r.get("fileId")),
        AvroValues.string(r.get("latestBaseInstant")),
        AvroValues.strings(r.get("filesToBeDeleted")),
        AvroValues.map(r.get("logBlocksToBeDeleted"), AvroValues::toLong));
  }
}
