package io.riverbed.it.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import io.riverbed.it.spark.RiverbedSource;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, two engines updating the same keys: Riverbed's Flink write job (child JVM) streams
 * upserts over a fixed key set into a MERGE_ON_READ table with the bucket index while this JVM's
 * Spark, round after round, upserts and deletes keys of that same set through Riverbed's Spark
 * writer; every writer with {@code hoodie.write.concurrency.mode=optimistic_concurrency_control}.
 *
 * <p>The final table is fixed whatever the commit order, because the table orders by {@code ts}
 * (Flink's EventTime payload): Flink's values are even and rise along the stream; Spark writes odd
 * values near the stream's progress (estimated from the time; so a Spark write may land after
 * Flink changes it must win against and before ones it must lose to), below the key's last value
 * in the stream, and, for the other half of its keys, values above the whole stream. A Spark delete carries a value
 * above the stream and its key is re-written by the next round, except the deletes of the last
 * round, which runs after the stream. So each key must hold the write with the largest {@code ts}
 * among the stream's and the committed Spark upserts, once, and the last round's deleted keys must
 * be absent. A Spark write that loses a conflict fails naming it, and is retried (on a loaded
 * machine a round may lose to the stream's commits until the stream ends; then it must win).
 */
class TwoWritersSameKeysTest {
  static final int KEYS = 48;
  static final int CHANGES = 3_000;
  /** Records per second the job's rate limit allows; its one file-reading task gets half. */
  static final int STREAM_RATE = 60;
  static final long ABOVE_THE_STREAM = 1_000_000_000_000L;
  static final int MIN_ROUNDS = 4;
  static final int MAX_ROUNDS = 24;

  @TempDir static Path work;

  /** One change a Spark round writes: an upsert or a delete of {@code key}. */
  record SparkChange(String key, long ts, double fare, boolean delete) {
  }

  @Test
  void flinkAndSparkUpdatingTheSameKeysConcurrentlyLeaveEveryKeyOnceWithItsLatestWrite() throws Exception {
    Path table = work.resolve("same-keys");
    FlinkTrips trips = FlinkTrips.upserts(20_261_203L, KEYS, CHANGES);
    Path input = work.resolve("input");
    trips.writeChunks(input, KEYS, CHANGES);
    Path schema = FlinkTrips.writeSchema(work.resolve("trip.avsc"));
    long start = System.nanoTime();
    WriteJobProcess.run(work.resolve("jobs"), WriteJobProcess.HANG_LIMIT,
        ConcurrentWriters.flinkJobArgs(input.resolve("chunk-00000.jsonl"), schema, table, 400, "BUCKET"));

    Map<String, ObjectNode> firstRecord = new LinkedHashMap<>();
    trips.changes().subList(0, KEYS).forEach(c -> firstRecord.put(c.get("uuid").asText(), c));
    List<String> keys = List.copyOf(firstRecord.keySet());
    Map<String, Long> lastStreamTs = new HashMap<>();
    trips.changes().forEach(c -> lastStreamTs.merge(c.get("uuid").asText(), c.get("ts").asLong(), Math::max));
    StructType rowType = RiverbedSource.load(RiverbedSource.CLASS_NAME, table, Query.snapshot())
        .drop(Rows.META_COLUMNS.toArray(String[]::new)).schema();

    long streamStart = System.nanoTime();
    CompletableFuture<Void> stream = CompletableFuture.runAsync(() -> WriteJobProcess.run(work.resolve("jobs"),
        WriteJobProcess.HANG_LIMIT, ConcurrentWriters.flinkJobArgs(input.resolve("chunk-00001.jsonl"), schema, table, STREAM_RATE, "BUCKET")));

    List<SparkChange> committed = new ArrayList<>();
    List<String> conflicts = new ArrayList<>();
    int roundsWhileStreaming = 0;
    int committedWhileStreaming = 0;
    String deletedLastRound = null;
    int round = 1;
    for (; round <= MIN_ROUNDS || (!stream.isDone() && round <= MAX_ROUNDS); round++) {
      boolean streaming = !stream.isDone();
      long streamProgress = KEYS + (long) ((System.nanoTime() - streamStart) / 1e9 * STREAM_RATE / 2);
      String deleted = keys.get((round * 7) % KEYS);
      List<SparkChange> changes = new ArrayList<>();
      for (int k = 0; k < KEYS; k++) {
        String key = keys.get(k);
        if (key.equals(deleted)) {
          changes.add(new SparkChange(key, ABOVE_THE_STREAM + round, 0, true));
        } else if (key.equals(deletedLastRound) || (k + round) % 2 == 0) {
          boolean above = key.equals(deletedLastRound) || (k / 2 + round) % 2 == 0;
          long ts = above ? ABOVE_THE_STREAM + round
              : Math.min(2 * streamProgress + 1 + 2L * (k % 5), lastStreamTs.get(key) - 1);
          changes.add(new SparkChange(key, ts, -(round * 1_000.0 + k), false));
        }
      }
      writeRetrying(changes, firstRecord, rowType, table, conflicts, round, () -> !stream.isDone());
      committed.addAll(changes);
      deletedLastRound = deleted;
      if (streaming) {
        roundsWhileStreaming++;
      }
      if (!stream.isDone()) {
        committedWhileStreaming++;
      }
    }
    stream.get(WriteJobProcess.HANG_LIMIT.toMinutes() + 1, TimeUnit.MINUTES);

    Set<String> finalDeletes = new TreeSet<>(List.of(keys.get(1), keys.get(KEYS / 2), keys.get(KEYS - 1)));
    finalDeletes.remove(deletedLastRound);
    long lastTs = ABOVE_THE_STREAM + round;
    List<SparkChange> last = new ArrayList<>();
    last.add(new SparkChange(deletedLastRound, lastTs, -(round * 1_000.0), false));
    finalDeletes.forEach(key -> last.add(new SparkChange(key, lastTs, 0, true)));
    writeRetrying(last, firstRecord, rowType, table, conflicts, round, () -> false);
    committed.addAll(last);
    double seconds = (System.nanoTime() - start) / 1e9;

    Map<String, String> expected = expected(trips, committed, finalDeletes);
    Rows hudi = SparkOracle.snapshot(table);
    Map<String, Integer> rowsPerKey = new HashMap<>();
    hudi.nodes().forEach(n -> rowsPerKey.merge(n.get("_hoodie_record_key").asText(), 1, Integer::sum));
    assertThat(rowsPerKey).as("rows per key (Hudi 0.15)").allSatisfy((key, n) -> assertThat(n).as(key).isEqualTo(1));
    assertThat(tsAndFare(hudi)).as("each key's ts|fare (Hudi 0.15) vs the largest ts written and committed")
        .isEqualTo(expected);
    SparkOracle.readWith(RiverbedSource.CLASS_NAME, table, Query.snapshot()).assertSameAs(hudi, "Riverbed's snapshot vs Hudi 0.15's");

    List<TimelineInstant> completed = TimelineInstant.completed(table);
    long sparkWinners = expected.values().stream().filter(v -> v.contains("|-")).count();
    System.out.printf(Locale.ROOT, "TWO WRITERS, SAME KEYS: %d Flink changes over %d keys, %d Spark rounds (%d started and %d "
            + "committed while the stream ran), %d Spark commits lost a conflict and were retried, %d of %d live keys hold a Spark write, "
            + "%d completed instants; %.1f s, load average %.1f%nconflicts: %s%n", KEYS + CHANGES, KEYS, round,
        roundsWhileStreaming, committedWhileStreaming, conflicts.size(), sparkWinners, expected.size(), completed.size(), seconds,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), conflicts);
    assertThat(roundsWhileStreaming).as("Spark rounds written while the Flink job streamed").isPositive();
    assertThat(sparkWinners).as("live keys whose last write is Spark's").isPositive().isLessThan(expected.size());
    assertThat(conflicts).as("every lost conflict names the file group and the other instant")
        .allSatisfy(m -> assertThat(m).contains("file group").contains("was also written by"));
  }

  @Test
  void aFlinkJobBesideOtherWritersWithTheStateIndexIsRefusedAtStart() throws Exception {
    Path table = work.resolve("state-index");
    Path input = work.resolve("state-index-input");
    FlinkTrips.upserts(7L, 4, 0).writeChunks(input, 4, 1);
    Path schema = FlinkTrips.writeSchema(work.resolve("trip.avsc"));
    assertThatThrownBy(() -> WriteJobProcess.run(work.resolve("jobs"), WriteJobProcess.HANG_LIMIT,
        ConcurrentWriters.flinkJobArgs(input.resolve("chunk-00000.jsonl"), schema, table, 400, "FLINK_STATE")))
        .hasMessageContaining("hoodie.write.concurrency.mode=optimistic_concurrency_control needs index.type=BUCKET");
    assertThat(table.resolve(".hoodie").toFile().exists()).as("a table was created").isFalse();
  }

  /** Per live key, {@code ts|fare} of its write with the largest {@code ts}: the stream's or a committed Spark upsert. */
  private static Map<String, String> expected(FlinkTrips trips, List<SparkChange> spark, Set<String> finalDeletes) {
    Map<String, Long> maxTs = new HashMap<>();
    Map<String, String> out = new TreeMap<>();
    for (ObjectNode c : trips.changes()) {
      offer(maxTs, out, c.get("uuid").asText(), c.get("ts").asLong(), c.get("fare").asDouble());
    }
    for (SparkChange c : spark) {
      if (!c.delete()) {
        offer(maxTs, out, c.key(), c.ts(), c.fare());
      }
    }
    out.keySet().removeAll(finalDeletes);
    return out;
  }

  private static void offer(Map<String, Long> maxTs, Map<String, String> out, String key, long ts, double fare) {
    if (ts > maxTs.getOrDefault(key, Long.MIN_VALUE)) {
      maxTs.put(key, ts);
      out.put(key, ts + "|" + fare);
    }
  }

  private static Map<String, String> tsAndFare(Rows rows) {
    Map<String, String> out = new TreeMap<>();
    rows.nodes().forEach(n -> out.put(n.get("uuid").asText(), n.get("ts").asLong() + "|" + n.get("fare").asDouble()));
    return out;
  }

  /** Writes one round's changes as a Spark upsert, each row the key's first record with the change's ts, fare, delete flag. */
  private static void writeRetrying(List<SparkChange> changes, Map<String, ObjectNode> firstRecord, StructType rowType,
      Path table, List<String> conflicts, int round, BooleanSupplier flinkJobRuns) {
    List<String> json = changes.stream().map(c -> {
      ObjectNode row = firstRecord.get(c.key()).deepCopy();
      row.put("ts", c.ts());
      row.put("fare", c.fare());
      row.put("_hoodie_is_deleted", c.delete());
      return row.toString();
    }).toList();
    var rows = SparkOracle.spark().read().schema(rowType).json(SparkOracle.spark().createDataset(json, Encoders.STRING()))
        .repartition(2);
    ConcurrentWriters.sparkUpsertRetrying(rows, table, conflicts, "round " + round, flinkJobRuns);
  }
}
