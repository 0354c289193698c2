package io.riverbed.format.timeline;

import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * What a rollback did in one partition ({@code HoodieRollbackPartitionMetadata}).
 *
 * @param rollbackLogFiles log files (absolute path) holding the new rollback command blocks, to size; or null
 * @param logFilesFromFailedCommit log files the rolled-back instant wrote, to size; or null
 */
public record RollbackPartitionMetadata(
    String partitionPath,
    List<String> successDeleteFiles,
    List<String> failedDeleteFiles,
    Map<String, Long> rollbackLogFiles,
    Map<String, Long> logFilesFromFailedCommit) {

  public RollbackPartitionMetadata {
    successDeleteFiles = successDeleteFiles == null ? List.of() : List.copyOf(successDeleteFiles);
    failedDeleteFiles = failedDeleteFiles == null ? List.of() : List.copyOf(failedDeleteFiles);
    rollbackLogFiles = rollbackLogFiles == null ? null : Map.copyOf(rollbackLogFiles);
    logFilesFromFailedCommit = logFilesFromFailedCommit == null ? null : Map.copyOf(logFilesFromFailedCommit);
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.ROLLBACK_PARTITION_METADATA);
    r.put("partitionPath", partitionPath);
    r.put("successDeleteFiles", successDeleteFiles);
    r.put("failedDeleteFiles", failedDeleteFiles);
    r.put("rollbackLogFiles", rollbackLogFiles);
    r.put("logFilesFromFailedCommit", logFilesFromFailedCommit);
    return r;
  }

  public static RollbackPartitionMetadata fromRecord(GenericRecord r) {
    return new RollbackPartitionMetadata(
        AvroValues.string(r.get("partitionPath")),
        AvroValues.strings(r.get("successDeleteFiles")),
        AvroValues.strings(r.get("failedDeleteFiles")),
        AvroValues.map(r.get("rollbackLogFiles"), AvroValues::toLong),
        AvroValues.map(r.get("logFilesFromFailedCommit"), AvroValues::toLong));
  }
}
