package io.riverbed.format.timeline;

import java.util.List;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * What a clean did in one partition ({@code HoodieCleanPartitionMetadata}). Hudi 0.15 records
 * file names here, not paths.
 *
 * @param deletePathPatterns every file the plan named
 * @param successDeleteFiles files this clean deleted
 * @param failedDeleteFiles files already gone when the clean ran (a resumed clean)
 * @param isPartitionDeleted true if the partition folder was deleted; may be null
 */
public record CleanPartitionMetadata(
    String partitionPath,
    String policy,
    List<String> deletePathPatterns,
    List<String> successDeleteFiles,
    List<String> failedDeleteFiles,
    Boolean isPartitionDeleted) {

  public CleanPartitionMetadata {
    deletePathPatterns = deletePathPatterns == null ? List.of() : List.copyOf(deletePathPatterns);
    successDeleteFiles = successDeleteFiles == null ? List.of() : List.copyOf(successDeleteFiles);
    failedDeleteFiles = failedDeleteFiles == null ? List.of() : List.copyOf(failedDeleteFiles);
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.CLEAN_PARTITION_METADATA);
    r.put("partitionPath", partitionPath);
    r.put("policy", policy);
    r.put("deletePathPatterns", deletePathPatterns);
    r.put("successDeleteFiles", successDeleteFiles);
    r.put("failedDeleteFiles", failedDeleteFiles);
    r.put("isPartitionDeleted", isPartitionDeleted);
    return r;
  }

  public static CleanPartitionMetadata fromRecord(GenericRecord r) {
    return new CleanPartitionMetadata(
        AvroValues.string(r.get("partitionPath")),
        AvroValues.string(r.get("policy")),
        AvroValues.strings(r.get("deletePathPatterns")),
        AvroValues.strings(r.get("successDeleteFiles")),
        AvroValues.strings(r.get("failedDeleteFiles")),
        (Boolean) r.get("isPartitionDeleted"));
  }
}
