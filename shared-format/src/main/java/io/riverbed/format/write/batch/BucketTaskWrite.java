package io.riverbed.format.write.batch;

import io.riverbed.format.table.Table;
import io.riverbed.format.write.BucketIndex;
import io.riverbed.format.write.TableWriter;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.commit.CommitMessage;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * One task of a batch write with Hudi's simple bucket index ({@code hoodie.index.type=BUCKET}):
 * every change goes to the file group of its key's bucket ({@link BucketIndex#bucket}, the hash the
 * Flink writer's bucket index uses), found among the partition's file groups or made for the
 * bucket, so a key written by either engine lands in the same group and no lookup is needed.
 * {@link #taskOf} sends all changes of one bucket to one task: two tasks must never each make a new
 * file group for the same bucket.
 */
public final class BucketTaskWrite {
  private BucketTaskWrite() {}

  /** The hashed key fields: {@code hashFields}, or the table's record key fields when empty. */
  public static List<String> hashFields(Table table, List<String> hashFields) {
    return hashFields.isEmpty() ? List.copyOf(table.config().recordKeyFields()) : hashFields;
  }

  /** The task, of {@code parallelism}, that writes {@code change}'s bucket. */
  public static int taskOf(EncodedChange change, List<String> hashFields, int numBuckets, int parallelism) {
    int bucket = BucketIndex.bucket(change.recordKey(), hashFields, numBuckets);
    return Math.floorMod((change.partitionPath() + '\u0000' + bucket).hashCode(), parallelism);
  }

  /**
   * Writes one task's changes into {@code instant}, each into its bucket's file group.
   *
   * @param hashFields the hashed key fields ({@link #hashFields})
   */
  public static CommitMessage write(Table table, Schema schema, WriteOptions options, List<String> hashFields,
      int numBuckets, String instant, int task, int parallelism, int attempt, Iterator<EncodedChange> changes) {
    EncodedChange.Codec codec = new EncodedChange.Codec(schema);
    TableWriter<EncodedChange> writer = TableWriter.<EncodedChange>builder(table, schema, options)
        .task(task, parallelism, attempt)
        .bufferLimitBytes(TaskWrite.BUFFER_LIMIT_BYTES)
        .routing(TableWriter.Routing.BUCKET)
        .build(() -> instant, (change, partition) -> codec.decode(change));
    while (changes.hasNext()) {
      EncodedChange change = changes.next();
      int bucket = BucketIndex.bucket(change.recordKey(), hashFields, numBuckets);
      writer.write(change.partitionPath(), Integer.toString(bucket), change, change.size());
    }
    TableWriter.Prepared prepared = writer.prepareCommit();
    return new CommitMessage(task, instant, prepared.writeStats(), prepared.staleRecords(), Optional.empty());
  }
}
