package io.riverbed.it.flink;

import io.riverbed.format.testing.Await;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.QueryKind;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import io.riverbed.it.spark.RiverbedSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Spark queries through Riverbed's DataSource, one after another on a thread of its own, while a
 * writer changes the table. Each answer is kept with its query and the completed instants listed
 * just before the query was planned and just after its rows were collected, so a check can tell
 * which instants were the latest while it ran. The first exception ends the loop and is kept.
 */
final class ReaderLoop implements Runnable {
  /**
   * One query's rows (without the layout-dependent meta columns), the completed instants before
   * and after it, and whether a write job ran the whole time.
   */
  record Answer(int number, Query query, List<TimelineInstant> before, List<TimelineInstant> after, Rows rows,
      boolean whileWriting) {
    @Override
    public String toString() {
      return "answer " + number + " (" + query + ", " + rows.size() + " rows)";
    }
  }

  private final Path table;
  private final List<QueryKind> rotation;
  private final List<Answer> answers = new ArrayList<>();
  /** Equal answers share one {@link Rows}: most queries see an instant another query saw. */
  private final Map<Rows, Rows> distinct = new HashMap<>();
  private volatile boolean stopped;
  private volatile boolean writing;
  private volatile long lastStartedAt = Long.MIN_VALUE;
  private volatile AssertionError failure;

  /** A loop over {@code table} that asks the query kinds of {@code rotation} in turn. */
  ReaderLoop(Path table, List<QueryKind> rotation) {
    this.table = table;
    this.rotation = List.copyOf(rotation);
  }

  @Override
  public void run() {
    Query query = null;
    try {
      Await.await("a first completed commit in " + table, Duration.ofMinutes(5))
          .guardedBy(() -> {
            if (stopped) {
              throw new IllegalStateException("stopped before a first commit in " + table);
            }
          })
          .until(() -> Files.isDirectory(table.resolve(".hoodie")) && !TimelineInstant.completedWrites(table).isEmpty());
      for (int n = 0; !stopped; n++) {
        List<TimelineInstant> before = TimelineInstant.completed(table);
        query = query(rotation.get(n % rotation.size()), before);
        boolean writingAtStart = writing;
        long start = System.nanoTime();
        Rows rows = SparkOracle.canonicalRows(RiverbedSource.load(RiverbedSource.CLASS_NAME, table, query)
            .drop(Rows.PHYSICAL_META_COLUMNS.toArray(String[]::new)));
        List<TimelineInstant> after = TimelineInstant.completed(table);
        answers.add(new Answer(n, query, before, after, distinct.computeIfAbsent(rows, r -> r), writingAtStart && writing));
        lastStartedAt = start;
      }
    } catch (Throwable e) {
      failure = new AssertionError("query " + (query == null ? "" : query + " ") + "of " + table + " failed after "
          + answers.size() + " answers: " + e, e);
    }
  }

  /**
   * The query of {@code kind} to ask now; an incremental one starts after the middle one of the
   * completed writes (a snapshot while there are fewer than two).
   */
  private static Query query(QueryKind kind, List<TimelineInstant> completed) {
    List<TimelineInstant> writes = completed.stream().filter(TimelineInstant::isWrite).toList();
    return switch (kind) {
      case SNAPSHOT -> Query.snapshot();
      case READ_OPTIMIZED -> Query.readOptimized();
      case INCREMENTAL -> writes.size() < 2 ? Query.snapshot() : Query.incremental(writes.get((writes.size() - 1) / 2).time());
      case TIME_TRAVEL -> throw new IllegalArgumentException("the loop reads the latest table, not " + kind);
    };
  }

  /** Whether a write job is running now; answers asked and finished while it is are counted as overlapping it. */
  void writing(boolean running) {
    this.writing = running;
  }

  /** Waits until an answer is complete whose query started after {@code nanoTime}; fails if the loop failed. */
  void awaitAnswerStartedAfter(long nanoTime, Duration timeout) throws InterruptedException {
    Await.await("an answer from a query of " + table + " started after the write job ended", timeout)
        .guardedBy(this::rethrowFailure)
        .until(() -> lastStartedAt - nanoTime > 0);
  }

  void stop() {
    stopped = true;
  }

  /** Throws what ended the loop, if anything did. */
  void rethrowFailure() {
    AssertionError f = failure;
    if (f != null) {
      throw f;
    }
  }

  /** The answers, oldest first; read after the loop's thread has ended. */
  List<Answer> answers() {
    return List.copyOf(answers);
  }
}
