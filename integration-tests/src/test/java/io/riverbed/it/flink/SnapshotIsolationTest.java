package io.riverbed.it.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.flink.ReaderLoop.Answer;
import io.riverbed.it.oracle.QueryKind;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.TimelineInstant;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Snapshot isolation of Riverbed's Spark DataSource under a live writer: Spark queries in a loop
 * (snapshot; read_optimized on MERGE_ON_READ; incremental) while Riverbed's Flink write job, in a
 * child JVM, upserts and deletes at a paced rate ({@code write.rate.limit}) with a 250 ms
 * checkpoint interval and (MERGE_ON_READ) compacts asynchronously every 2 delta commits. The
 * stream is written by {@value #WAVES} consecutive runs; a run starts only once a query started
 * after the previous run ended has answered, so the readers see at least {@value #WAVES} distinct
 * instants however slow the machine is.
 *
 * <p>Afterwards every answer must equal, exactly (a multiset of rows, meta columns but seqno and
 * file name included), the table as of an instant that was the latest completed one at some
 * moment of its query, as Apache Hudi 0.15 reads it by time travel; read_optimized answers the
 * base files as of the latest completed compaction. No key may appear twice, no query may fail,
 * and the last instant equals the last-writer-wins model of the whole stream.
 */
class SnapshotIsolationTest {
  static final int CHANGES = 18_000;
  static final int WAVES = 3;
  static final int MIN_DISTINCT_INSTANTS = 3;
  /** Records per second of the job (one source task reads a wave's file, so it gets half): a run streams over some 16 checkpoints. */
  static final int RATE_LIMIT = 3_000;
  private static final Duration ANSWER_TIMEOUT = Duration.ofMinutes(4);

  @TempDir static Path work;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"MERGE_ON_READ", "COPY_ON_WRITE"})
  void everyAnswerOfAReaderLoopIsTheTableAsOfACompletedInstant(String type) throws Exception {
    boolean mor = type.equals("MERGE_ON_READ");
    Path dir = work.resolve(type.toLowerCase(Locale.ROOT));
    Path table = dir.resolve("table");
    FlinkTrips trips = FlinkTrips.generate(20_261_101L, CHANGES);
    List<Path> waves = trips.writeWaves(dir.resolve("input"), WAVES);
    Path schema = FlinkTrips.writeSchema(dir.resolve("trip.avsc"));

    ReaderLoop reader = new ReaderLoop(table, mor
        ? List.of(QueryKind.SNAPSHOT, QueryKind.READ_OPTIMIZED, QueryKind.SNAPSHOT, QueryKind.INCREMENTAL)
        : List.of(QueryKind.SNAPSHOT, QueryKind.SNAPSHOT, QueryKind.INCREMENTAL));
    Thread thread = new Thread(reader, "snapshot-isolation-reader-" + type);
    long start = System.nanoTime();
    thread.start();
    try {
      for (Path wave : waves) {
        List<String> args = new ArrayList<>(FlinkTrips.jobFlags(wave, schema, table, type, "250ms"));
        args.addAll(List.of("--parallelism", "2", "--set", "write.rate.limit=" + RATE_LIMIT, "--set", "write.batch.size=0.1"));
        // answers are checked against every completed instant of some 70 writes: the job must not clean them away
        args.addAll(List.of("--set", "clean.async.enabled=false", "--set", "hoodie.archive.automatic=false"));
        if (mor) {
          args.addAll(List.of("--set", "compaction.async.enabled=true", "--set", "compaction.delta_commits=2"));
        }
        reader.writing(true);
        WriteJobProcess.run(dir.resolve("jobs"), WriteJobProcess.HANG_LIMIT, args);
        reader.writing(false);
        reader.awaitAnswerStartedAfter(System.nanoTime(), ANSWER_TIMEOUT);
      }
    } finally {
      reader.stop();
      thread.join(TimeUnit.MINUTES.toMillis(5));
    }
    reader.rethrowFailure();
    double seconds = (System.nanoTime() - start) / 1e9;

    List<TimelineInstant> completed = TimelineInstant.completed(table);
    CompletedStates states = new CompletedStates(table);
    String last = completed.stream().filter(TimelineInstant::isWrite).reduce((a, b) -> b).orElseThrow().time();
    states.snapshot(last).without("_hoodie_commit_time").assertSameAs(trips.expected(),
        type + ": the last instant " + last + " (Hudi 0.15) vs the last-writer-wins model");

    List<Answer> answers = reader.answers();
    Map<QueryKind, TreeSet<String>> matched = new HashMap<>();
    for (Answer a : answers) {
      assertNoKeyTwice(a);
      matched.computeIfAbsent(a.query().kind(), k -> new TreeSet<>()).add(match(a, completed, states, mor));
    }

    List<String> compactions = compactions(completed, mor);
    List<String> compactedWhileReading = compactions(answers.get(answers.size() - 1).after(), mor);
    compactedWhileReading.removeAll(compactions(answers.get(0).before(), mor));
    long whileWriting = answers.stream().filter(Answer::whileWriting).count();
    long acrossACommit = answers.stream().filter(a -> !a.before().equals(a.after())).count();
    System.out.printf(Locale.ROOT, "SNAPSHOT ISOLATION %s: %d changes in %d runs, %d completed instants (%d compactions);"
            + " %d answers checked (%d while a job ran, %d while an instant completed: %s), distinct instants matched %s,"
            + " compactions completed while"
            + " reading %d; Hudi oracle reads %d; %.1f s, load average %.1f%n",
        type, CHANGES, WAVES, completed.size(), compactions.size(), answers.size(), whileWriting, acrossACommit,
        countByKind(answers),
        sizes(matched), compactedWhileReading.size(), states.reads(), seconds,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

    assertThat(matched.getOrDefault(QueryKind.SNAPSHOT, new TreeSet<>()))
        .as("%s: distinct instants the snapshot answers matched (the readers must overlap the commits)", type)
        .hasSizeGreaterThanOrEqualTo(MIN_DISTINCT_INSTANTS);
    if (mor) {
      assertThat(compactedWhileReading).as("%s: compactions completed while the readers read", type).isNotEmpty();
    }
  }

  /**
   * The instant whose state {@code a} equals, among those that were the latest completed one
   * while its query ran; fails naming the answer and the nearest state otherwise.
   */
  private static String match(Answer a, List<TimelineInstant> completed, CompletedStates states, boolean mor) {
    if (a.query().kind() == QueryKind.READ_OPTIMIZED) {
      Optional<String> from = last(compactions(a.before(), mor));
      String to = last(compactions(a.after(), mor)).orElse(null);
      List<Optional<String>> candidates = new ArrayList<>();
      if (from.isEmpty()) {
        candidates.add(Optional.empty());
      }
      compactions(completed, mor).stream()
          .filter(c -> from.map(f -> c.compareTo(f) >= 0).orElse(true) && to != null && c.compareTo(to) <= 0)
          .forEach(c -> candidates.add(Optional.of(c)));
      for (Optional<String> c : candidates) {
        if (states.readOptimized(c).equals(a.rows())) {
          return c.orElse("(before any compaction)");
        }
      }
      throw mismatch(a, "base files as of the compactions " + candidates, states.readOptimized(candidates.get(candidates.size() - 1)));
    }
    String from = lastWrite(a.before());
    String to = lastWrite(a.after());
    List<String> candidates = completed.stream().filter(TimelineInstant::isWrite).map(TimelineInstant::time)
        .filter(t -> t.compareTo(from) >= 0 && t.compareTo(to) <= 0).toList();
    for (String c : candidates) {
      if (states.answer(a.query(), c).equals(a.rows())) {
        return c;
      }
    }
    throw mismatch(a, "the table as of the instants " + candidates, states.answer(a.query(), to));
  }

  private static AssertionError mismatch(Answer a, String what, Rows nearest) {
    return new AssertionError(a + " equals none of " + what + " latest while it ran (before it: "
        + a.before() + ", after it: " + a.after() + "); against the last of them:\n" + a.rows().diff(nearest));
  }

  private static void assertNoKeyTwice(Answer a) {
    Map<String, Integer> counts = new HashMap<>();
    for (var row : a.rows().nodes()) {
      counts.merge(row.get("_hoodie_record_key").asText(), 1, Integer::sum);
    }
    counts.forEach((key, n) -> assertThat(n).as("%s: rows of key %s", a, key).isEqualTo(1));
  }

  /** Completed compactions: on MERGE_ON_READ a compaction completes as a {@code commit}. */
  private static List<String> compactions(List<TimelineInstant> completed, boolean mor) {
    return new ArrayList<>(completed.stream().filter(i -> mor && i.action().equals("commit"))
        .map(TimelineInstant::time).toList());
  }

  private static String lastWrite(List<TimelineInstant> completed) {
    return last(completed.stream().filter(TimelineInstant::isWrite).map(TimelineInstant::time).toList()).orElseThrow();
  }

  private static Optional<String> last(List<String> times) {
    return times.isEmpty() ? Optional.empty() : Optional.of(times.get(times.size() - 1));
  }

  private static Map<QueryKind, Long> countByKind(List<Answer> answers) {
    Map<QueryKind, Long> out = new java.util.TreeMap<>();
    answers.forEach(a -> out.merge(a.query().kind(), 1L, Long::sum));
    return out;
  }

  private static Map<QueryKind, Integer> sizes(Map<QueryKind, TreeSet<String>> matched) {
    Map<QueryKind, Integer> out = new java.util.TreeMap<>();
    matched.forEach((k, v) -> out.put(k, v.size()));
    return out;
  }
}
