package io.riverbed.hive;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.parquet.avro.AvroSchemaConverter;
import org.apache.parquet.schema.MessageType;

/**
 * What a sync reads from the table, once: its completed commits (commit, deltacommit,
 * replacecommit — what Hudi's sync calls the active timeline), when each completed (the
 * modification time of its completed instant file, Hudi's state transition time), and the
 * storage schema: the latest committed Avro schema as Parquet, the form Hudi maps to Hive types.
 */
public final class TableState {
  private final Table table;
  private final Timeline completedCommits;
  private final Map<String, Long> completedAtMillis;
  private final MessageType storageSchema;

  private TableState(Table table, Timeline completedCommits, Map<String, Long> completedAtMillis, MessageType storageSchema) {
    this.table = table;
    this.completedCommits = completedCommits;
    this.completedAtMillis = completedAtMillis;
    this.storageSchema = storageSchema;
  }

  /**
   * Reads the timeline and schema of {@code table}.
   *
   * @throws InvalidTableException when the table has no committed schema yet (nothing to register)
   */
  public static TableState read(Table table, boolean withMetaFields) {
    // one listing: the timeline and when each instant completed
    Map<Instant, Long> modified = table.timelineStore().modificationTimes();
    Timeline active = Timeline.fromInstants(modified.keySet());
    Timeline completed = active.commitsTimeline().completed();
    Map<String, Long> completedAt = new HashMap<>();
    modified.forEach((instant, time) -> {
      if (instant.state() == State.COMPLETED) {
        completedAt.put(instant.time(), time);
      }
    });
    Schema avro = TableSchemaResolver.resolve(table, active).orElseThrow(() -> new InvalidTableException(
        "table " + table.basePath() + " has no committed schema yet: nothing to sync"));
    if (!withMetaFields) {
      avro = TableSchemas.removeMetaFields(avro);
    }
    return new TableState(table, completed, Map.copyOf(completedAt), new AvroSchemaConverter().convert(avro));
  }

  public Table table() {
    return table;
  }

  /** The latest committed schema as Parquet (what Hudi's sync calls the storage schema). */
  public MessageType storageSchema() {
    return storageSchema;
  }

  /** The last completed commit: the value of {@code last_commit_time_sync} after a sync. */
  public Optional<String> lastCommitTime() {
    return completedCommits.last().map(Instant::time);
  }

  /**
   * The latest completion time among completed commits, as an instant string in the table's
   * timeline time zone: the value of {@code last_commit_completion_time_sync}.
   */
  public Optional<String> lastCompletionTime() {
    return completedCommits.instants().stream().map(this::completionMillis).max(Long::compare).map(this::format);
  }

  /** True if {@code time} precedes the first completed commit (instants after it may be archived). */
  public boolean isBeforeTimelineStart(String time) {
    return completedCommits.first().map(f -> time.compareTo(f.time()) < 0).orElse(false);
  }

  /**
   * Relative paths of the partitions written by commits after {@code lastSynced}, plus those of
   * earlier commits that completed after {@code lastCompletion} (they finished out of order), as
   * Hudi's sync finds them: the partitions of each commit's write stats and replaced file groups.
   */
  public List<String> partitionsWrittenSince(String lastSynced, Optional<String> lastCompletion) {
    Set<String> partitions = new LinkedHashSet<>();
    for (CommitMetadata metadata : commitsSince(lastSynced, lastCompletion).values()) {
      partitions.addAll(metadata.partitionToWriteStats().keySet());
      partitions.addAll(metadata.replacedFileIds().keySet());
    }
    return List.copyOf(partitions);
  }

  /**
   * The partitions a {@code delete_partition} among the same commits dropped and no later one of them
   * wrote again, as Hudi 0.15's sync finds dropped partitions ({@code TimelineUtils.getDroppedPartitions}):
   * their metastore entries go, though their files stay until a clean.
   */
  public Set<String> partitionsDeletedSince(String lastSynced, Optional<String> lastCompletion) {
    Map<String, String> deletedAt = new HashMap<>();
    Map<String, String> writtenAt = new HashMap<>();
    commitsSince(lastSynced, lastCompletion).forEach((time, metadata) -> {
      if (metadata.operationType() == WriteOperationType.DELETE_PARTITION) {
        metadata.replacedFileIds().keySet().forEach(p -> deletedAt.put(p, time));
      } else {
        metadata.partitionToWriteStats().keySet().forEach(p -> writtenAt.put(p, time));
      }
    });
    Set<String> deleted = new LinkedHashSet<>();
    deletedAt.forEach((partition, time) -> {
      if (!partition.isEmpty() && writtenAt.getOrDefault(partition, "").compareTo(time) < 0) {
        deleted.add(partition);
      }
    });
    return deleted;
  }

  /** The metadata of each completed commit after {@code lastSynced}, or completed after {@code lastCompletion}, by time. */
  private Map<String, CommitMetadata> commitsSince(String lastSynced, Optional<String> lastCompletion) {
    TimelineStore store = table.timelineStore();
    Map<String, CommitMetadata> commits = new java.util.TreeMap<>();
    for (Instant instant : completedCommits.instants()) {
      boolean after = instant.time().compareTo(lastSynced) > 0;
      boolean hollow = !after && lastCompletion.isPresent()
          && format(completionMillis(instant)).compareTo(lastCompletion.get()) > 0;
      if (after || hollow) {
        commits.put(instant.time(), CommitMetadata.parse(store.read(instant), store.pathOf(instant).toString()));
      }
    }
    return commits;
  }

  private long completionMillis(Instant instant) {
    Long millis = completedAtMillis.get(instant.time());
    if (millis == null) {
      throw new InvalidTableException("completed instant " + instant + " of " + table.basePath() + " vanished while syncing");
    }
    return millis;
  }

  private String format(long millis) {
    return InstantTime.format(LocalDateTime.ofInstant(java.time.Instant.ofEpochMilli(millis),
        table.config().timelineTimezone().zoneId()));
  }
}
