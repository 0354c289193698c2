package io.riverbed.format.timeline;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Content of a completed commit, deltacommit or replacecommit file (and of a completed
 * compaction, filed as commit): Hudi's {@code HoodieCommitMetadata} JSON, or
 * {@code HoodieReplaceCommitMetadata} when {@link #partitionToReplaceFileIds()} is non-null.
 *
 * @param partitionToWriteStats partition path to the stats of the files written there
 * @param compacted true only for compaction commits
 * @param extraMetadata string map; {@code schema} holds the writer's Avro schema (no meta fields)
 * @param operationType the write operation
 * @param partitionToReplaceFileIds replacecommit only: partition to replaced file ids; null otherwise
 */
public record CommitMetadata(
    Map<String, List<WriteStat>> partitionToWriteStats,
    boolean compacted,
    Map<String, String> extraMetadata,
    WriteOperationType operationType,
    Map<String, List<String>> partitionToReplaceFileIds) {

  /** Key of the writer schema in {@link #extraMetadata()}. */
  public static final String SCHEMA_KEY = "schema";

  public CommitMetadata {
    partitionToWriteStats = copyOfLists(Objects.requireNonNullElse(partitionToWriteStats, Map.of()));
    extraMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(
        Objects.requireNonNullElse(extraMetadata, Map.of())));
    operationType = Objects.requireNonNullElse(operationType, WriteOperationType.UNKNOWN);
    partitionToReplaceFileIds = partitionToReplaceFileIds == null ? null : copyOfLists(partitionToReplaceFileIds);
  }

  /** What an empty timeline file deserializes to. */
  public static CommitMetadata empty() {
    return new CommitMetadata(Map.of(), false, Map.of(), WriteOperationType.UNKNOWN, null);
  }

  public static Builder builder(WriteOperationType operationType) {
    return new Builder(operationType);
  }

  /**
   * Parses a timeline file's commit metadata in either encoding: JSON (table version 6) or the Avro
   * container Hudi 1.x writes (table version 8). Empty or blank bytes give {@link #empty()}.
   *
   * @param source names the file in errors
   */
  public static CommitMetadata parse(byte[] bytes, String source) {
    return CommitMetadataAvro.isAvro(bytes) ? CommitMetadataAvro.read(bytes, source) : CommitMetadataJson.read(bytes, source);
  }

  /** Parses commit metadata JSON; empty or blank bytes give {@link #empty()}. */
  public static CommitMetadata fromJson(byte[] json, String source) {
    return CommitMetadataJson.read(json, source);
  }

  /** Pretty-printed JSON as Hudi 0.15 writes it. */
  public String toJson() {
    return CommitMetadataJson.write(this);
  }

  /** Hudi 1.x's Avro container of this metadata, as a layout-2 timeline (table version 8) stores it. */
  public byte[] toAvroBytes() {
    return CommitMetadataAvro.write(this);
  }

  public byte[] toJsonBytes() {
    return toJson().getBytes(StandardCharsets.UTF_8);
  }

  public boolean isReplace() {
    return partitionToReplaceFileIds != null;
  }

  /** The writer schema from {@code extraMetadata.schema}, if present and non-empty. */
  public Optional<String> schema() {
    return Optional.ofNullable(extraMetadata.get(SCHEMA_KEY)).filter(s -> !s.isEmpty());
  }

  /** All write stats, partition by partition. */
  public List<WriteStat> writeStats() {
    var all = new ArrayList<WriteStat>();
    partitionToWriteStats.values().forEach(all::addAll);
    return all;
  }

  /** Relative paths of all files written, in stat order, without duplicates. */
  public List<String> writtenPaths() {
    var paths = new LinkedHashSet<String>();
    for (WriteStat stat : writeStats()) {
      if (stat.path() != null && !stat.path().isEmpty()) {
        paths.add(stat.path());
      }
    }
    return List.copyOf(paths);
  }

  /** Per partition, the relative paths of the files written there. */
  public Map<String, List<String>> writtenPathsByPartition() {
    var result = new LinkedHashMap<String, List<String>>();
    partitionToWriteStats.forEach((partition, stats) -> result.put(partition, stats.stream()
        .map(WriteStat::path).filter(p -> p != null && !p.isEmpty()).distinct().toList()));
    return result;
  }

  /** Per partition, the file ids written there (a file id may have several stats). */
  public Map<String, Set<String>> fileIdsByPartition() {
    var result = new LinkedHashMap<String, Set<String>>();
    partitionToWriteStats.forEach((partition, stats) -> {
      var ids = new LinkedHashSet<String>();
      stats.stream().map(WriteStat::fileId).filter(id -> id != null && !id.isEmpty()).forEach(ids::add);
      result.put(partition, Collections.unmodifiableSet(ids));
    });
    return result;
  }

  /** Replacecommit: partition to file ids replaced as of this instant; empty for other commits. */
  public Map<String, List<String>> replacedFileIds() {
    return partitionToReplaceFileIds == null ? Map.of() : partitionToReplaceFileIds;
  }

  private static <T> Map<String, List<T>> copyOfLists(Map<String, List<T>> map) {
    var copy = new LinkedHashMap<String, List<T>>();
    map.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    return Collections.unmodifiableMap(copy);
  }

  /** Collects stats per partition (in insertion order), extra metadata and replaced file ids. */
  public static final class Builder {
    private final WriteOperationType operationType;
    private final Map<String, List<WriteStat>> stats = new LinkedHashMap<>();
    private final Map<String, String> extra = new LinkedHashMap<>();
    private Map<String, List<String>> replaced;
    private boolean compacted;

    private Builder(WriteOperationType operationType) {
      this.operationType = Objects.requireNonNull(operationType);
      this.compacted = operationType == WriteOperationType.COMPACT;
      if (operationType.isReplace()) {
        replaced = new LinkedHashMap<>();
      }
    }

    /** Adds a stat under its {@link WriteStat#partitionPath()}. */
    public Builder addWriteStat(WriteStat stat) {
      stats.computeIfAbsent(stat.partitionPath(), p -> new ArrayList<>()).add(stat);
      return this;
    }

    public Builder addWriteStats(Iterable<WriteStat> writeStats) {
      writeStats.forEach(this::addWriteStat);
      return this;
    }

    public Builder schema(String avroSchemaJson) {
      extra.put(SCHEMA_KEY, avroSchemaJson);
      return this;
    }

    public Builder extraMetadata(String key, String value) {
      extra.put(key, value);
      return this;
    }

    public Builder compacted(boolean value) {
      compacted = value;
      return this;
    }

    /** Marks this as replace metadata even for an operation not normally written as replacecommit. */
    public Builder replace() {
      if (replaced == null) {
        replaced = new LinkedHashMap<>();
      }
      return this;
    }

    public Builder addReplacedFileId(String partitionPath, String fileId) {
      replace();
      replaced.computeIfAbsent(partitionPath, p -> new ArrayList<>()).add(fileId);
      return this;
    }

    /**
     * Adds the file ids replaced in one partition; a partition with none is still listed (with an
     * empty array), as Hudi lists a replaced partition that has no file groups.
     */
    public Builder addReplacedFileIds(String partitionPath, Collection<String> fileIds) {
      replace();
      replaced.computeIfAbsent(partitionPath, p -> new ArrayList<>()).addAll(fileIds);
      return this;
    }

    public CommitMetadata build() {
      return new CommitMetadata(stats, compacted, extra, operationType, replaced);
    }
  }
}
