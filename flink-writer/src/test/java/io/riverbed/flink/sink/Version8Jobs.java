package io.riverbed.flink.sink;

import io.riverbed.flink.sink.WriterFixtures.Change;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.savepoint.Savepoint;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CleanMetadata;
import io.riverbed.format.timeline.Instant;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Riverbed's Flink writer on a table of version 8 ({@code hoodie.write.table.version=8}): two runs of a
 * {@link RiverbedSink} job (parallelism 2, a checkpoint per chunk) over a change stream with inserts,
 * updates that win and lose on {@code ts}, deletes (by row kind and by {@code _hoodie_is_deleted}) and
 * partition moves. The first run fails at four named points and recovers (a failover of the writers and
 * of the coordinator's commit; on MERGE_ON_READ also a compaction task); MERGE_ON_READ compacts every two
 * delta commits while it writes; both runs clean retaining {@value #RETAIN_COMMITS} commits, and the
 * second run's last chunk waits for a completed clean so every table has one. Used by
 * {@code Version8WriteJobTest} and, through {@link #main}, by the integration tests that have Apache
 * Hudi 1.0.2 read the tables.
 */
public final class Version8Jobs {
  static final int RETAIN_COMMITS = 4;
  private static final int CHUNKS = 10;

  private Version8Jobs() {
  }

  /** The job's options for a version 8 table of {@code type} at {@code table}. */
  public static Map<String, String> options(Path table, String type) {
    var o = WriterFixtures.options(table.getParent(), type);
    o.put("path", table.toString());
    o.put("hoodie.write.table.version", "8");
    o.put(FlinkWriteOptions.BATCH_SIZE, "0.05");
    o.put(CleanOptions.FLINK_RETAIN_COMMITS, Integer.toString(RETAIN_COMMITS));
    o.put(FlinkWriteOptions.CLEAN_ASYNC, "true");
    // the archived timeline of version 8 is not written (COMPATIBILITY.md)
    o.put(FlinkWriteOptions.ARCHIVE_AUTOMATIC, "false");
    if (type.equals("MERGE_ON_READ")) {
      o.put(FlinkWriteOptions.COMPACTION_ASYNC, "true");
      o.put(FlinkWriteOptions.COMPACTION_DELTA_COMMITS, "2");
      o.put(FlinkWriteOptions.COMPACTION_TASKS, "2");
    }
    return o;
  }

  /** The two runs' change streams of {@link #write}, for {@code seed}. */
  public static List<List<List<Change>>> streams(long seed) {
    List<List<Change>> all = WriterFixtures.changes(seed, 4000, 2 * CHUNKS, 0.4, 0.03, 0.02);
    return List.of(all.subList(0, CHUNKS), all.subList(CHUNKS, 2 * CHUNKS));
  }

  /**
   * What {@link #write} left: the last-writer-wins models (key → "name|ts|partition") after both runs
   * and after the first, and the savepoint taken between them (the first run's last completed commit).
   */
  public record Written(Map<String, String> expected, Map<String, String> expectedAtSavepoint, String savepoint) {
  }

  /**
   * Writes the table in two runs (the first with injected failures, see the class comment), with a
   * savepoint ({@link Savepoint}) of the first run's last completed commit between them, so the
   * second run's cleans must keep its files.
   */
  public static Written write(String name, Path table, String type, long seed) throws Exception {
    var options = options(table, type);
    var streams = streams(seed);
    FaultInjection.reset();
    try {
      FaultInjection.arm(FaultInjection.WRITER_DURING_FLUSH, 4);
      FaultInjection.arm(FaultInjection.WRITER_AFTER_FLUSH_BEFORE_BARRIER, 9);
      FaultInjection.arm(FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT, 3);
      FaultInjection.arm(FaultInjection.COORDINATOR_DURING_COMMIT, 5);
      if (type.equals("MERGE_ON_READ")) {
        FaultInjection.arm(FaultInjection.COMPACTOR_DURING_COMPACTION, 1);
      }
      WriterFixtures.write(name + "-run1", streams.get(0), options, 2, 20, 1);
      requireFired(name);
    } finally {
      FaultInjection.reset();
    }
    Table written = WriterFixtures.table(options);
    String savepoint = written.timelineStore().load().commitsTimeline().completed().last().orElseThrow().time();
    Savepoint.of(written, savepoint).user("riverbed").comments("between the runs").execute();
    String second = name + "-run2";
    ChunkedSource.holdBefore(second, CHUNKS - 1, () -> !completedCleans(WriterFixtures.table(options)).isEmpty());
    WriterFixtures.write(second, streams.get(1), options, 2, 0, 1);
    List<List<Change>> all = new ArrayList<>(streams.get(0));
    all.addAll(streams.get(1));
    return new Written(WriterFixtures.expected(all), WriterFixtures.expected(streams.get(0)), savepoint);
  }

  private static void requireFired(String name) {
    for (String point : List.of(FaultInjection.WRITER_DURING_FLUSH, FaultInjection.COORDINATOR_AFTER_CHECKPOINT_BEFORE_COMMIT,
        FaultInjection.COORDINATOR_DURING_COMMIT)) {
      if (FaultInjection.fired(point) == 0) {
        throw new IllegalStateException(name + ": the failure at " + point + " was never injected");
      }
    }
  }

  /** The table's completed cleans, oldest first. */
  public static List<CleanMetadata> completedCleans(Table table) {
    var store = table.timelineStore();
    List<CleanMetadata> out = new ArrayList<>();
    for (Instant clean : store.load().ofAction(Action.CLEAN).completed().instants()) {
      out.add(CleanMetadata.fromBytes(store.read(clean), store.pathOf(clean).toString()));
    }
    return out;
  }

  /**
   * Writes the version 8 tables {@code mor} and {@code cow} under {@code args[0]} and, beside each, its
   * models as lines {@code key|name|ts|partition} ({@code <table>.expected}, and as of the savepoint
   * {@code <table>.expected-at-savepoint}) and the savepoint's time ({@code <table>.savepoint}).
   */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Files.createDirectories(dir);
    // StreamExecutionEnvironment.getExecutionEnvironment() is a local one in this JVM, so the injected
    // failures reach its tasks and coordinator
    for (String type : List.of("MERGE_ON_READ", "COPY_ON_WRITE")) {
      String name = type.equals("MERGE_ON_READ") ? "mor" : "cow";
      Written written = write("v8-" + name, dir.resolve(name), type, type.equals("MERGE_ON_READ") ? 81 : 82);
      writeModel(written.expected(), dir.resolve(name + ".expected"));
      writeModel(written.expectedAtSavepoint(), dir.resolve(name + ".expected-at-savepoint"));
      Files.writeString(dir.resolve(name + ".savepoint"), written.savepoint(), StandardCharsets.UTF_8);
    }
  }

  private static void writeModel(Map<String, String> model, Path file) throws java.io.IOException {
    List<String> lines = new ArrayList<>();
    model.forEach((k, v) -> lines.add(k + "|" + v));
    Files.write(file, lines, StandardCharsets.UTF_8);
  }
}
