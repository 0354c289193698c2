package io.riverbed.it.flink;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import io.riverbed.it.spark.RiverbedSource;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, two engines on one table: Riverbed's Flink write job, in a child JVM, streams trips into a
 * MERGE_ON_READ table with the bucket index while this JVM's Spark runs repeated upserts and deletes
 * into the same table through Riverbed's Spark writer, every writer with
 * {@code hoodie.write.concurrency.mode=optimistic_concurrency_control}. Spark's keys are its own
 * ({@code spark-*}, in one partition, spread over the same buckets the stream writes), so a Spark
 * commit that overlaps a Flink commit's file groups loses the conflict, is named and retried.
 * Afterwards the table, as Apache Hudi 0.15 reads it, holds no key twice, the Flink keys equal the
 * last-writer-wins model of the whole stream (no Flink commit lost) and the Spark keys equal the
 * model of the Spark rounds that committed.
 */
class TwoWritersOneTableTest {
  static final int CHANGES = 6_000;
  static final int SPARK_KEYS = 12;
  static final int ROUNDS = 4;
  static final long SPARK_TS = 4_000_000_000_000L;
  /** Records per second of the second run (one source task reads the file: it gets half), so it streams for some 100 s. */
  static final int STREAM_RATE = 60;

  @TempDir static Path work;

  @Test
  void aFlinkStreamAndConcurrentSparkUpsertsAndDeletesLoseNoUpdateAndDuplicateNoKey() throws Exception {
    Path table = work.resolve("table");
    FlinkTrips trips = FlinkTrips.generate(20_261_202L, CHANGES);
    List<Path> waves = trips.writeWaves(work.resolve("input"), 2);
    Path schema = FlinkTrips.writeSchema(work.resolve("trip.avsc"));
    long start = System.nanoTime();
    WriteJobProcess.run(work.resolve("jobs"), WriteJobProcess.HANG_LIMIT, flinkArgs(waves.get(0), schema, table, 400));

    Dataset<Row> template = RiverbedSource.load(RiverbedSource.CLASS_NAME, table, Query.snapshot())
        .drop(Rows.META_COLUMNS.toArray(String[]::new)).limit(1).cache();
    CompletableFuture<Void> stream = CompletableFuture.runAsync(() ->
        WriteJobProcess.run(work.resolve("jobs"), WriteJobProcess.HANG_LIMIT,
            flinkArgs(waves.get(1), schema, table, STREAM_RATE)));

    Map<String, Long> model = new TreeMap<>();
    List<String> conflicts = new ArrayList<>();
    int startedWhileStreaming = 0;
    int committedWhileStreaming = 0;
    int rounds = 0;
    for (int round = 1; round <= ROUNDS || (!stream.isDone() && round <= 4 * ROUNDS); round++) {
      String deleted = "spark-" + (round % SPARK_KEYS);
      Dataset<Row> upserts = changes(template, round, false).filter(col("uuid").notEqual(deleted));
      Dataset<Row> deletes = changes(template, round, true).filter(col("uuid").equalTo(deleted));
      boolean streaming = !stream.isDone();
      ConcurrentWriters.sparkUpsertRetrying(upserts.union(deletes), table, conflicts, "round " + round, () -> !stream.isDone());
      for (int k = 0; k < SPARK_KEYS; k++) {
        model.put("spark-" + k, (long) round);
      }
      model.remove(deleted);
      rounds++;
      if (streaming) {
        startedWhileStreaming++;
      }
      if (!stream.isDone()) {
        committedWhileStreaming++;
      }
    }
    stream.get(WriteJobProcess.HANG_LIMIT.toMinutes() + 1, TimeUnit.MINUTES);
    double seconds = (System.nanoTime() - start) / 1e9;

    Rows hudi = SparkOracle.snapshot(table);
    Map<String, Integer> rowsPerKey = new HashMap<>();
    hudi.nodes().forEach(n -> rowsPerKey.merge(n.get("_hoodie_record_key").asText(), 1, Integer::sum));
    assertThat(rowsPerKey).as("rows per key (Hudi 0.15)").allSatisfy((key, n) -> assertThat(n).as(key).isEqualTo(1));

    Map<String, Long> spark = new TreeMap<>();
    hudi.nodes().stream().filter(n -> n.get("uuid").asText().startsWith("spark-"))
        .forEach(n -> spark.put(n.get("uuid").asText(), n.get("ts").asLong() - SPARK_TS));
    assertThat(spark).as("the Spark keys (Hudi 0.15) vs the committed Spark rounds").isEqualTo(model);

    List<TimelineInstant> completed = TimelineInstant.completed(table);
    String last = completed.stream().filter(TimelineInstant::isWrite).reduce((a, b) -> b).orElseThrow().time();
    new CompletedStates(table).snapshot(last).filter(n -> !n.get("uuid").asText().startsWith("spark-"))
        .without("_hoodie_commit_time")
        .assertSameAs(trips.expected(), "the Flink keys as of " + last + " (Hudi 0.15) vs the stream's model");

    System.out.printf(Locale.ROOT, "TWO WRITERS: %d Flink changes in 2 runs, %d Spark rounds (%d started and %d committed while the stream ran), "
            + "%d Spark commits lost a conflict and were retried, %d completed instants; %.1f s, load average %.1f%n"
            + "conflicts: %s%n", CHANGES, rounds, startedWhileStreaming, committedWhileStreaming, conflicts.size(), completed.size(), seconds,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), conflicts);
    assertThat(startedWhileStreaming).as("Spark rounds written while the Flink job streamed").isPositive();
    assertThat(conflicts).as("every lost conflict names the file group and the other instant")
        .allSatisfy(m -> assertThat(m).contains("file group").contains("was also written by"));
  }

  private static List<String> flinkArgs(Path wave, Path schema, Path table, int rate) {
    return ConcurrentWriters.flinkJobArgs(wave, schema, table, rate, "BUCKET");
  }

  /** Spark's keys {@code spark-0..}, as the template row with the round as ts offset and fare. */
  private static Dataset<Row> changes(Dataset<Row> template, int round, boolean delete) {
    Dataset<Row> keys = SparkOracle.spark().range(SPARK_KEYS).withColumnRenamed("id", "k");
    List<Column> columns = new ArrayList<>();
    for (String c : template.columns()) {
      columns.add(switch (c) {
        case "uuid" -> concat(lit("spark-"), col("k").cast("string")).as(c);
        case "ts" -> lit(SPARK_TS + round).as(c);
        case "fare" -> lit((double) round).as(c);
        case "_hoodie_is_deleted" -> lit(delete).as(c);
        default -> col(c);
      });
    }
    return template.crossJoin(keys).select(columns.toArray(Column[]::new));
  }
}
