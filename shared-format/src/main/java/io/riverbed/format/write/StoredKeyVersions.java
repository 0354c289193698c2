package io.riverbed.format.write;

import io.riverbed.format.TableException;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.Split;
import io.riverbed.format.query.SplitKeyReader;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.record.OrderingValueCodec;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Timeline;
import java.io.FileNotFoundException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.avro.Schema;

/**
 * Event-time ordering across commits for a writer task that no index state serves (the bucket
 * index): the last ordering value of every key of the file groups the task writes, and a tombstone
 * for each key deleted there. A group's versions are loaded from the committed table the first time
 * the task writes the group, and kept up to date by the task's own writes (a group is written by
 * one task only). A change whose ordering value is smaller than its key's stored write or delete
 * ({@link OrderingValues#laterLoses}) is dropped and counted: once written to a later log block or
 * base file, no Hudi reader could undo it. Tombstones are kept for {@code tombstoneRetention}
 * after the delete, then forgotten (the key is new again).
 *
 * <p>Memory: one entry per key of the task's file groups.
 */
public final class StoredKeyVersions {
  /** A key's last change in its file group: its ordering value, and when it was deleted if it was. */
  public record Version(Comparable<?> orderingValue, boolean deleted, long deletedAtMillis) {}

  /**
   * Where the engine keeps tombstones across task restarts (its checkpointed state): a
   * copy-on-write merge leaves no trace of a delete in the files, and compaction removes delete
   * blocks, so the table alone cannot tell a restarted task which keys were deleted.
   */
  public interface TombstoneStore {
    /** The tombstones kept for {@code id}: record key → version with {@code deleted} set. */
    Map<String, Version> tombstones(FileGroupId id);

    void deleted(FileGroupId id, String recordKey, Comparable<?> orderingValue, long atMillis);

    void revived(FileGroupId id, String recordKey);

    /** No store: tombstones last as long as the task (and, for merge-on-read, as the delete blocks). */
    TombstoneStore NONE = new TombstoneStore() {
      @Override
      public Map<String, Version> tombstones(FileGroupId id) {
        return Map.of();
      }

      @Override
      public void deleted(FileGroupId id, String recordKey, Comparable<?> orderingValue, long atMillis) {}

      @Override
      public void revived(FileGroupId id, String recordKey) {}
    };
  }

  private record Tombstone(String recordKey, long deletedAtMillis) {}

  private final Function<FileGroupId, Map<String, Version>> loader;
  private final TombstoneStore store;
  private final Duration tombstoneRetention;
  private final LongSupplier clock;
  private final Map<FileGroupId, Map<String, Version>> groups = new HashMap<>();
  private final Map<FileGroupId, ArrayDeque<Tombstone>> tombstones = new HashMap<>();
  private long stale;

  StoredKeyVersions(Function<FileGroupId, Map<String, Version>> loader, TombstoneStore store,
      Duration tombstoneRetention, LongSupplier clock) {
    this.loader = loader;
    this.store = store;
    this.tombstoneRetention = tombstoneRetention;
    this.clock = clock;
  }

  /**
   * Versions loaded from {@code table}'s latest committed slices and the tombstones {@code store}
   * kept, with the wall clock for tombstone retention.
   */
  public static StoredKeyVersions of(Table table, ReadSettings settings, TombstoneStore store,
      Duration tombstoneRetention) {
    return new StoredKeyVersions(new TableLoader(table, settings, System::currentTimeMillis), store,
        tombstoneRetention, System::currentTimeMillis);
  }

  /**
   * The changes of {@code records} (in arrival order, for file group {@code id}) that are not
   * older than their key's stored version; the stored versions then hold the survivors.
   */
  public List<WriteRecord> admit(FileGroupId id, List<WriteRecord> records) {
    Map<String, Version> versions = groups.computeIfAbsent(id, this::load);
    long now = clock.getAsLong();
    expireTombstones(id, versions, now);
    List<WriteRecord> admitted = new ArrayList<>(records.size());
    for (WriteRecord record : records) {
      Version stored = versions.get(record.recordKey());
      Comparable<?> incoming = OrderingValueCodec.normalize(record.orderingValue());
      if (stored != null && OrderingValues.laterLoses(stored.orderingValue(), incoming)) {
        stale++;
        continue;
      }
      admitted.add(record);
      if (record.isDelete()) {
        versions.put(record.recordKey(), new Version(incoming, true, now));
        tombstones.computeIfAbsent(id, k -> new ArrayDeque<>()).add(new Tombstone(record.recordKey(), now));
        store.deleted(id, record.recordKey(), incoming, now);
      } else {
        versions.put(record.recordKey(), new Version(incoming, false, 0));
        if (stored != null && stored.deleted()) {
          store.revived(id, record.recordKey());
        }
      }
    }
    return admitted;
  }

  /** Changes dropped so far because their key's stored version was newer. */
  public long staleCount() {
    return stale;
  }

  private Map<String, Version> load(FileGroupId id) {
    Map<String, Version> versions = loader.apply(id);
    store.tombstones(id).forEach(versions::putIfAbsent);
    ArrayDeque<Tombstone> queue = new ArrayDeque<>();
    versions.forEach((key, v) -> {
      if (v.deleted()) {
        queue.add(new Tombstone(key, v.deletedAtMillis()));
      }
    });
    tombstones.put(id, queue);
    return versions;
  }

  private void expireTombstones(FileGroupId id, Map<String, Version> versions, long now) {
    ArrayDeque<Tombstone> queue = tombstones.get(id);
    long horizon = now - tombstoneRetention.toMillis();
    while (queue != null && !queue.isEmpty() && queue.peek().deletedAtMillis() < horizon) {
      Tombstone t = queue.poll();
      Version v = versions.get(t.recordKey());
      if (v != null && v.deleted() && v.deletedAtMillis() == t.deletedAtMillis()) {
        versions.remove(t.recordKey());
      }
    }
  }

  /**
   * Loads a group's versions from its latest committed merged slice; the partition's view is
   * read once and read again if a slice's files have gone (a compaction and a clean since).
   * Tombstones found in logs count as deleted at load time.
   */
  private static final class TableLoader implements Function<FileGroupId, Map<String, Version>> {
    private final Table table;
    private final ReadSettings settings;
    private final LongSupplier clock;
    private final Map<String, Map<FileGroupId, Split>> partitions = new HashMap<>();
    private Timeline timeline;
    private Optional<Schema> schema;

    TableLoader(Table table, ReadSettings settings, LongSupplier clock) {
      this.table = table;
      this.settings = settings;
      this.clock = clock;
    }

    @Override
    public Map<String, Version> apply(FileGroupId id) {
      try {
        return read(id);
      } catch (TableException e) {
        if (!(rootCause(e) instanceof FileNotFoundException)) {
          throw e;
        }
        timeline = null;
        partitions.clear();
        return read(id);
      }
    }

    private Map<String, Version> read(FileGroupId id) {
      if (timeline == null) {
        timeline = table.refreshTimeline();
        schema = TableSchemaResolver.resolve(table, timeline);
      }
      Map<String, Version> versions = new HashMap<>();
      if (schema.isEmpty()) {
        return versions;
      }
      Split split = partitions.computeIfAbsent(id.partitionPath(), p -> {
        Map<FileGroupId, Split> splits = new HashMap<>();
        var view = FileSystemViewLoader.load(table, timeline, List.of(p));
        view.defaultQueryInstant().ifPresent(q -> {
          for (FileSlice slice : view.latestMergedSlices(q)) {
            splits.put(slice.fileGroupId(), new Split(slice, q, Optional.empty()));
          }
        });
        return splits;
      }).get(id);
      if (split == null) {
        return versions;
      }
      QueryPlan plan = new QueryPlan(table, timeline, schema, Optional.of(split.latestInstant()), Optional.empty(),
          List.of(split));
      long now = clock.getAsLong();
      SplitKeyReader.of(plan, settings).forEachVersion(split, (key, ordering, deleted) ->
          versions.put(key, new Version(ordering, deleted, deleted ? now : 0)));
      return versions;
    }

    private static Throwable rootCause(Throwable t) {
      while (t.getCause() != null && t.getCause() != t) {
        t = t.getCause();
      }
      return t;
    }
  }
}
