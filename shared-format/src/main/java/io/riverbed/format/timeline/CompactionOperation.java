package io.riverbed.format.timeline;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * One file group to compact ({@code HoodieCompactionOperation}).
 *
 * @param baseInstantTime base instant of the slice being compacted
 * @param deltaFilePaths log file names of the slice (plan version 2; full paths in version 1)
 * @param dataFilePath base file name, or null for a log-only slice
 * @param fileId file group id
 * @param partitionPath relative partition path
 * @param metrics strategy metrics, or null
 * @param bootstrapFilePath bootstrap source file, or null
 */
public record CompactionOperation(
    String baseInstantTime,
    List<String> deltaFilePaths,
    String dataFilePath,
    String fileId,
    String partitionPath,
    Map<String, Double> metrics,
    String bootstrapFilePath) {

  public CompactionOperation {
    deltaFilePaths = deltaFilePaths == null ? List.of() : List.copyOf(deltaFilePaths);
    metrics = metrics == null ? null : Map.copyOf(metrics);
  }

  /** An operation without metrics or bootstrap file. */
  public static CompactionOperation of(String partitionPath, String fileId, String baseInstantTime,
      String dataFileName, List<String> logFileNames) {
    return new CompactionOperation(baseInstantTime, logFileNames, dataFileName, fileId, partitionPath, null, null);
  }

  public Optional<String> dataFile() {
    return Optional.ofNullable(dataFilePath);
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.COMPACTION_OPERATION);
    r.put("baseInstantTime", baseInstantTime);
    r.put("deltaFilePaths", deltaFilePaths);
    r.put("dataFilePath", dataFilePath);
    r.put("fileId", fileId);
    r.put("partitionPath", partitionPath);
    r.put("metrics", metrics);
    r.put("bootstrapFilePath", bootstrapFilePath);
    return r;
  }

  /**
   * The operation alone as bytes (an Avro container of one {@code HoodieCompactionOperation}
   * record, as a plan file holds them), for engines that hand operations between tasks.
   */
  public byte[] toBytes() {
    return AvroTimelineFile.serialize(toRecord());
  }

  /** Reads {@link #toBytes()}'s bytes; {@code source} names them in errors. */
  public static CompactionOperation fromBytes(byte[] bytes, String source) {
    return fromRecord(AvroTimelineFile.deserializeRequired(bytes, TimelineSchemas.COMPACTION_OPERATION, source));
  }

  public static CompactionOperation fromRecord(GenericRecord r) {
    return new CompactionOperation(
        AvroValues.string(r.get("baseInstantTime")),
        AvroValues.strings(r.get("deltaFilePaths")),
        AvroValues.string(r.get("dataFilePath")),
        AvroValues.string(r.get("fileId")),
        AvroValues.string(r.get("partitionPath")),
        AvroValues.map(r.get("metrics"), AvroValues::toDouble),
        AvroValues.string(r.get("bootstrapFilePath")));
  }
}
