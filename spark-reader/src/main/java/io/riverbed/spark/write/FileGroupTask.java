package io.riverbed.spark.write;

import io.riverbed.format.file.NioLocalFileSystem;
import io.riverbed.format.table.Table;
import io.riverbed.format.write.batch.BatchWriteOptions;
import io.riverbed.format.write.batch.BucketTaskWrite;
import io.riverbed.format.write.batch.EncodedChange;
import io.riverbed.format.write.batch.InsertBuckets;
import io.riverbed.format.write.batch.TaskWrite;
import io.riverbed.format.write.commit.CommitMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * One Spark task of the write stage: opens the table on the executor and writes the file groups
 * routed to it with the core's {@link TaskWrite} (or, with the bucket index, {@link BucketTaskWrite}); its one output is the task's commit message, in
 * its byte form ({@link CommitMessage#toBytes}) whatever serializer the session uses.
 * Spark's partition index is the task index that names the files, its attempt number the attempt.
 */
final class FileGroupTask implements Function2<Integer, Iterator<TaskWrite.Routed>, Iterator<byte[]>> {
  private static final long serialVersionUID = 1L;

  private final String basePath;
  private final Broadcast<SerializableConfiguration> conf;
  private final String schemaJson;
  private final Map<String, String> options;
  private final String instant;
  private final int parallelism;
  private final InsertBuckets plan;

  /** @param plan where new keys go, or null to let each task place them ({@link TaskWrite#write}) */
  FileGroupTask(Table table, Broadcast<SerializableConfiguration> conf, Schema schema, BatchWriteOptions options,
      String instant, int parallelism, InsertBuckets plan) {
    this.basePath = table.basePath().toString();
    this.conf = conf;
    this.schemaJson = schema.toString();
    this.options = Map.copyOf(options.raw());
    this.instant = instant;
    this.parallelism = parallelism;
    this.plan = plan;
  }

  @Override
  public Iterator<byte[]> call(Integer task, Iterator<TaskWrite.Routed> changes) {
    Path base = new Path(basePath);
    Table table;
    try {
      table = Table.open(NioLocalFileSystem.of(base, conf.value().value()), base);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reach table " + basePath, e);
    }
    TaskContext context = TaskContext.get();
    int attempt = context == null ? 0 : context.attemptNumber();
    BatchWriteOptions write = BatchWriteOptions.fromMap(options);
    Schema schema = new Schema.Parser().parse(schemaJson);
    CommitMessage message = write.bucketIndex()
        ? BucketTaskWrite.write(table, schema, write.write(), BucketTaskWrite.hashFields(table, write.bucketHashFields()),
            write.numBuckets(), instant, task, parallelism, attempt, changesOf(changes))
        : TaskWrite.write(table, schema, write, instant, task, parallelism, attempt, plan, changes);
    return List.of(message.toBytes()).iterator();
  }

  private static Iterator<EncodedChange> changesOf(Iterator<TaskWrite.Routed> routed) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return routed.hasNext();
      }

      @Override
      public EncodedChange next() {
        return routed.next().change();
      }
    };
  }
}
