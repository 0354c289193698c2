package io.riverbed.format.timeline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;

/**
 * Content of {@code T.clean.requested} and {@code T.clean.inflight} ({@code HoodieCleanerPlan}):
 * which files a clean deletes, decided once so that a crashed clean is finished from its plan.
 *
 * @param earliestInstantToRetain the oldest write instant whose files stay readable; null when
 *     the policy keeps versions, not instants
 * @param lastCompletedCommitTimestamp the newest completed commit when the plan was made, or ""
 * @param policy Hudi's cleaning policy name
 * @param filesToBeDeletedPerPartition version 1 plans: file names per partition; empty in version 2
 * @param version 2 is what Hudi 0.15 writes
 * @param filePathsToBeDeletedPerPartition version 2 plans: absolute paths per partition
 * @param partitionsToBeDeleted partitions whose folder goes too; may be empty
 * @param extraMetadata Hudi keeps {@code savepointed_timestamps} here; may be empty
 */
public record CleanerPlan(
    ActionInstant earliestInstantToRetain,
    String lastCompletedCommitTimestamp,
    String policy,
    Map<String, List<String>> filesToBeDeletedPerPartition,
    int version,
    Map<String, List<CleanFileInfo>> filePathsToBeDeletedPerPartition,
    List<String> partitionsToBeDeleted,
    Map<String, String> extraMetadata) {

  /** Hudi's {@code CleanPlanner.LATEST_CLEAN_PLAN_VERSION}. */
  public static final int LATEST_VERSION = 2;

  /** The {@code extraMetadata} key listing the savepoint times the plan respected. */
  public static final String SAVEPOINTED_TIMESTAMPS = "savepointed_timestamps";

  public CleanerPlan {
    lastCompletedCommitTimestamp = lastCompletedCommitTimestamp == null ? "" : lastCompletedCommitTimestamp;
    filesToBeDeletedPerPartition = copy(filesToBeDeletedPerPartition);
    filePathsToBeDeletedPerPartition = copy(filePathsToBeDeletedPerPartition);
    partitionsToBeDeleted = partitionsToBeDeleted == null ? List.of() : List.copyOf(partitionsToBeDeleted);
    extraMetadata = extraMetadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extraMetadata));
  }

  /** A version-2 plan. */
  public static CleanerPlan of(ActionInstant earliestInstantToRetain, String lastCompletedCommitTimestamp,
      String policy, Map<String, List<CleanFileInfo>> filesPerPartition, Map<String, String> extraMetadata) {
    return of(earliestInstantToRetain, lastCompletedCommitTimestamp, policy, filesPerPartition, List.of(), extraMetadata);
  }

  /** A plan of the latest version that also deletes the folders of {@code partitionsToBeDeleted}. */
  public static CleanerPlan of(ActionInstant earliestInstantToRetain, String lastCompletedCommitTimestamp,
      String policy, Map<String, List<CleanFileInfo>> filesPerPartition, List<String> partitionsToBeDeleted,
      Map<String, String> extraMetadata) {
    return new CleanerPlan(earliestInstantToRetain, lastCompletedCommitTimestamp, policy, Map.of(), LATEST_VERSION,
        filesPerPartition, partitionsToBeDeleted, extraMetadata);
  }

  /**
   * The files to delete per partition, whatever the plan version: version 1 plans name files
   * relative to their partition folder under {@code basePath}.
   */
  public Map<String, List<CleanFileInfo>> filesToDelete(Path basePath) {
    Map<String, List<CleanFileInfo>> out = new LinkedHashMap<>(filePathsToBeDeletedPerPartition);
    filesToBeDeletedPerPartition.forEach((partition, names) -> {
      if (!out.containsKey(partition)) {
        Path folder = partition.isEmpty() ? basePath : new Path(basePath, partition);
        out.put(partition, names.stream().map(n -> CleanFileInfo.of(new Path(folder, n).toString())).toList());
      }
    });
    return out;
  }

  /** Number of files the plan deletes. */
  public int fileCount() {
    return filePathsToBeDeletedPerPartition.values().stream().mapToInt(List::size).sum()
        + filesToBeDeletedPerPartition.entrySet().stream()
            .filter(e -> !filePathsToBeDeletedPerPartition.containsKey(e.getKey()))
            .mapToInt(e -> e.getValue().size()).sum();
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.CLEANER_PLAN);
    r.put("earliestInstantToRetain", earliestInstantToRetain == null ? null : earliestInstantToRetain.toRecord());
    r.put("lastCompletedCommitTimestamp", lastCompletedCommitTimestamp);
    r.put("policy", policy);
    r.put("filesToBeDeletedPerPartition", filesToBeDeletedPerPartition);
    r.put("version", version);
    var paths = new LinkedHashMap<String, List<GenericRecord>>();
    filePathsToBeDeletedPerPartition.forEach((k, v) -> paths.put(k, v.stream().map(CleanFileInfo::toRecord).toList()));
    r.put("filePathsToBeDeletedPerPartition", paths);
    r.put("partitionsToBeDeleted", partitionsToBeDeleted);
    r.put("extraMetadata", extraMetadata);
    return r;
  }

  public static CleanerPlan fromRecord(GenericRecord r) {
    Object earliest = r.get("earliestInstantToRetain");
    return new CleanerPlan(
        earliest == null ? null : ActionInstant.fromRecord((GenericRecord) earliest),
        AvroValues.string(r.get("lastCompletedCommitTimestamp")),
        AvroValues.string(r.get("policy")),
        AvroValues.map(r.get("filesToBeDeletedPerPartition"), AvroValues::strings),
        AvroValues.intOr(r.get("version"), 1),
        AvroValues.map(r.get("filePathsToBeDeletedPerPartition"),
            o -> AvroValues.list(o, f -> CleanFileInfo.fromRecord((GenericRecord) f))),
        AvroValues.strings(r.get("partitionsToBeDeleted")),
        AvroValues.map(r.get("extraMetadata"), AvroValues::string));
  }

  public byte[] toBytes() {
    return AvroTimelineFile.serialize(toRecord());
  }

  public static CleanerPlan fromBytes(byte[] bytes, String source) {
    return fromRecord(AvroTimelineFile.deserializeRequired(bytes, TimelineSchemas.CLEANER_PLAN, source));
  }

  private static <T> Map<String, List<T>> copy(Map<String, List<T>> map) {
    if (map == null) {
      return Map.of();
    }
    var out = new LinkedHashMap<String, List<T>>();
    map.forEach((k, v) -> out.put(k, v == null ? List.of() : List.copyOf(new ArrayList<>(v))));
    return Collections.unmodifiableMap(out);
  }
}
