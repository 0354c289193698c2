package io.riverbed.spark.write;

import io.riverbed.format.write.batch.InsertBuckets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.Partitioner;

/**
 * Sends each change, keyed by its file id, to the write task of its file group: every group an
 * insert plan gives new keys to a task of its own (in plan order, as Hudi's upsert partitioner
 * gives each bucket a partition), every other group by the hash of its file id.
 */
final class FileGroupPartitioner extends Partitioner {
  private static final long serialVersionUID = 1L;

  private final Map<String, Integer> planned = new HashMap<>();
  private final int partitions;

  FileGroupPartitioner(InsertBuckets plan, int tasks) {
    for (List<String> ids : plan.fileIds().values()) {
      ids.forEach(id -> planned.putIfAbsent(id, planned.size()));
    }
    this.partitions = Math.max(tasks, planned.size());
  }

  @Override
  public int numPartitions() {
    return partitions;
  }

  @Override
  public int getPartition(Object fileId) {
    Integer slot = planned.get(fileId);
    return slot != null ? slot : Math.floorMod(fileId.hashCode(), partitions);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FileGroupPartitioner p && p.partitions == partitions && p.planned.equals(planned);
  }

  @Override
  public int hashCode() {
    return 31 * partitions + planned.hashCode();
  }
}
