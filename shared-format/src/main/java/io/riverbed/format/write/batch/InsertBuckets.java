package io.riverbed.format.write.batch;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.write.SmallFileGroups;
import io.riverbed.format.write.WriteOptions;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a batch insert or upsert puts the keys the table does not hold, planned once for the whole
 * write from how many new keys each partition gets, as Hudi 0.15's Spark upsert partitioner does:
 * the partition's small file groups first ({@link SmallFileGroups}), each up to its room, then as
 * many new file groups as the rest needs at {@link SmallFileGroups#recordsPerNewFile}, sharing it
 * evenly; a key goes to a bucket by the hash of its record key, in proportion to the buckets'
 * shares. One plan for all tasks means a partition's new keys fill its small groups before they
 * open new ones, whichever task they reach (the streaming {@link io.riverbed.format.write.FileGroupPacker}
 * splits small groups among its tasks instead).
 */
public final class InsertBuckets implements Serializable {
  private static final long serialVersionUID = 1L;

  /** A partition's buckets in order, each with the number of new keys up to and including it. */
  private static final class Buckets implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String[] fileIds;
    private final long[] cumulative;

    Buckets(String[] fileIds, long[] cumulative) {
      this.fileIds = fileIds;
      this.cumulative = cumulative;
    }
  }

  private final Map<String, Buckets> byPartition;

  private InsertBuckets(Map<String, Buckets> byPartition) {
    this.byPartition = byPartition;
  }

  /**
   * The plan for {@code newKeys} (partition path to how many keys the table does not hold), placed
   * as {@link TaskWrite.Placement#UPSERT} places them: COPY_ON_WRITE tops up every small base-only
   * group, MERGE_ON_READ only the {@code morCandidates} smallest base-only groups of a partition.
   *
   * @param table the table, or null while it has no committed write (every key opens new groups)
   */
  public static InsertBuckets plan(Table table, WriteOptions options, int morCandidates, Map<String, Long> newKeys) {
    Map<String, Buckets> out = new HashMap<>();
    List<String> partitions = newKeys.entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey)
        .sorted().toList();
    if (partitions.isEmpty()) {
      return new InsertBuckets(out);
    }
    FileSystemView view = table == null ? null : FileSystemViewLoader.load(table, table.refreshTimeline(), partitions);
    int limit = table != null && table.type() == TableType.MERGE_ON_READ ? morCandidates : Integer.MAX_VALUE;
    long perNewFile = SmallFileGroups.recordsPerNewFile(options);
    for (String partition : partitions) {
      long remaining = newKeys.get(partition);
      List<String> ids = new ArrayList<>();
      List<Long> shares = new ArrayList<>();
      if (view != null) {
        for (SmallFileGroups.Candidate small : SmallFileGroups.of(view, partition, options, true, limit)) {
          if (remaining == 0) {
            break;
          }
          long share = Math.min(remaining, small.roomRecords());
          ids.add(small.fileId());
          shares.add(share);
          remaining -= share;
        }
      }
      if (remaining > 0) {
        long groups = (remaining + perNewFile - 1) / perNewFile;
        for (long g = 0; g < groups; g++) {
          long share = remaining / groups + (g < remaining % groups ? 1 : 0);
          ids.add(FileNames.newFileId());
          shares.add(share);
        }
      }
      long[] cumulative = new long[shares.size()];
      long sum = 0;
      for (int i = 0; i < cumulative.length; i++) {
        sum += shares.get(i);
        cumulative[i] = sum;
      }
      out.put(partition, new Buckets(ids.toArray(String[]::new), cumulative));
    }
    return new InsertBuckets(out);
  }

  /**
   * The file group a new key of {@code partition} goes to.
   *
   * @throws IllegalArgumentException if the plan counted no new key in {@code partition}
   */
  public String fileIdOf(String partition, String recordKey) {
    Buckets buckets = byPartition.get(partition);
    if (buckets == null) {
      throw new IllegalArgumentException("the write's plan has no new keys in partition '" + partition
          + "', so it cannot place record key '" + recordKey + "'");
    }
    long total = buckets.cumulative[buckets.cumulative.length - 1];
    long point = Math.floorMod(spread(recordKey.hashCode()), total);
    int at = Arrays.binarySearch(buckets.cumulative, point + 1);
    return buckets.fileIds[at >= 0 ? at : -at - 1];
  }

  /** Whether the plan gives {@code group} new keys (a small group topped up, or a new one). */
  public boolean tookNewKeys(FileGroupId group) {
    Buckets buckets = byPartition.get(group.partitionPath());
    return buckets != null && Arrays.asList(buckets.fileIds).contains(group.fileId());
  }

  /** Every file group the plan gives new keys, by partition in partition order, each in plan order. */
  public Map<String, List<String>> fileIds() {
    Map<String, List<String>> out = new TreeMap<>();
    byPartition.forEach((partition, buckets) -> out.put(partition, List.of(buckets.fileIds)));
    return out;
  }

  /** A 64-bit finalizer (MurmurHash3's fmix64) so that similar keys land far apart. */
  private static long spread(long h) {
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb93fe1a85ec3L;
    h ^= h >>> 33;
    return h;
  }
}
