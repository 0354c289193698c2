package io.riverbed.it.flink;

import io.riverbed.it.spark.RiverbedSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The two writers of the concurrent-writer tests, as docs/CONCURRENT_WRITERS.md sets them up: a
 * Flink write job and Spark upserts on one MERGE_ON_READ table, each with
 * {@code optimistic_concurrency_control} and the bucket index of {@link #BUCKETS} buckets.
 */
final class ConcurrentWriters {
  static final String BUCKETS = "4";

  private ConcurrentWriters() {
  }

  /** The write job's flags: the trips of {@code input} into {@code table} at {@code rate} records/s, index {@code index}. */
  static List<String> flinkJobArgs(Path input, Path schema, Path table, int rate, String index) {
    List<String> args = new ArrayList<>(FlinkTrips.jobFlags(input, schema, table, "MERGE_ON_READ", "500ms"));
    args.addAll(List.of("--parallelism", "2", "--set", "write.rate.limit=" + rate,
        "--set", "hoodie.write.concurrency.mode=optimistic_concurrency_control",
        "--set", "index.type=" + index, "--set", "hoodie.bucket.index.num.buckets=" + BUCKETS));
    return args;
  }

  /**
   * Upserts {@code rows} (trips) into {@code table} through Riverbed's Spark writer; a write that
   * loses a conflict is retried, its conflict message added to {@code conflicts} under {@code what}.
   * While {@code otherWriterRuns} (the Flink job, committing every checkpoint) any number of attempts
   * may lose, the more the slower the machine; an attempt started after it ended has no one to
   * conflict with, so its conflict fails the test.
   */
  static void sparkUpsertRetrying(Dataset<Row> rows, Path table, List<String> conflicts, String what,
      BooleanSupplier otherWriterRuns) {
    for (int attempt = 1; ; attempt++) {
      boolean otherWriterRan = otherWriterRuns.getAsBoolean();
      try {
        rows.write().format(RiverbedSource.CLASS_NAME)
            .option("hoodie.datasource.write.operation", "upsert")
            .option("hoodie.datasource.write.recordkey.field", "uuid")
            .option("hoodie.datasource.write.partitionpath.field", String.join(",", FlinkTrips.PARTITION_FIELDS))
            .option("hoodie.datasource.write.precombine.field", "ts")
            .option("hoodie.upsert.shuffle.parallelism", "2")
            .option("hoodie.write.concurrency.mode", "optimistic_concurrency_control")
            .option("hoodie.index.type", "BUCKET")
            .option("hoodie.bucket.index.num.buckets", BUCKETS)
            .mode("append").save(table.toUri().toString());
        return;
      } catch (RuntimeException e) {
        String conflict = conflictOf(e);
        if (conflict == null || !otherWriterRan) {
          throw e;
        }
        conflicts.add(what + " attempt " + attempt + ": " + conflict);
      }
    }
  }

  private static String conflictOf(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getClass().getName().equals("io.riverbed.format.CommitConflictException")) {
        return t.getMessage();
      }
    }
    return null;
  }
}
