package io.riverbed.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.index.RocksDbIndexSettings;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.api.common.time.Time;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.runtime.client.JobExecutionException;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Test data: a generated change stream, the last-writer-wins model of it, and jobs that write it.
 * Public for the tests of every stage's package.
 */
public final class WriterFixtures {
  public static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("uuid", DataTypes.STRING().notNull()),
      DataTypes.FIELD("name", DataTypes.STRING()),
      DataTypes.FIELD("ts", DataTypes.BIGINT().notNull()),
      DataTypes.FIELD("region", DataTypes.STRING()),
      DataTypes.FIELD("country", DataTypes.STRING()),
      DataTypes.FIELD("city", DataTypes.STRING()),
      DataTypes.FIELD("_hoodie_is_deleted", DataTypes.BOOLEAN())).getLogicalType();

  private static final String[][] PLACES = {
      {"eu", "fr", "paris"}, {"eu", "fr", "lyon"}, {"eu", "de", "berlin"}, {"us", "ca", "sf"},
      {"us", "ca", "la"}, {"us", "ny", "nyc"}, {"asia", "jp", "tokyo"}, {"asia", "in", "pune"}};

  /** One change: an upsert of key at place with ts, or a delete (by RowKind or by _hoodie_is_deleted). */
  public record Change(String key, String name, long ts, int place, boolean delete, boolean deleteByFlag) {
    public RowData row() {
      String[] p = PLACES[place];
      GenericRowData row = GenericRowData.of(StringData.fromString(key), StringData.fromString(name), ts,
          StringData.fromString(p[0]), StringData.fromString(p[1]), StringData.fromString(p[2]), deleteByFlag);
      if (delete && !deleteByFlag) {
        row.setRowKind(RowKind.DELETE);
      }
      return row;
    }

    public String partition() {
      return String.join("/", PLACES[place]);
    }
  }

  /**
   * {@code total} changes in {@code chunks} chunks: inserts of new keys, {@code updateShare}
   * updates of earlier keys with shuffled ordering values (smaller or larger than the stored one),
   * {@code deleteShare} deletes (ordering value above every earlier one of the key; a deleted key
   * is not touched again) and {@code moveShare} updates that move a key to another partition (with
   * a larger ordering value).
   */
  public static List<List<Change>> changes(long seed, int total, int chunks, double updateShare, double deleteShare,
      double moveShare) {
    Random random = new Random(seed);
    List<String> live = new ArrayList<>();
    Map<String, long[]> state = new HashMap<>(); // key -> {max ts, place}
    List<List<Change>> out = new ArrayList<>();
    int perChunk = total / chunks;
    int n = 0;
    for (int c = 0; c < chunks; c++) {
      List<Change> chunk = new ArrayList<>();
      for (int i = 0; i < perChunk; i++, n++) {
        double r = random.nextDouble();
        if (!live.isEmpty() && r < deleteShare) {
          String key = live.remove(random.nextInt(live.size()));
          long[] s = state.get(key);
          s[0] += 1 + random.nextInt(5);
          chunk.add(new Change(key, "deleted-" + n, s[0], (int) s[1], true, random.nextBoolean()));
        } else if (!live.isEmpty() && r < deleteShare + moveShare) {
          String key = live.get(random.nextInt(live.size()));
          long[] s = state.get(key);
          s[0] += 1 + random.nextInt(5);
          s[1] = (s[1] + 1 + random.nextInt(PLACES.length - 1)) % PLACES.length;
          chunk.add(new Change(key, "moved-" + n, s[0], (int) s[1], false, false));
        } else if (!live.isEmpty() && r < deleteShare + moveShare + updateShare) {
          String key = live.get(random.nextInt(live.size()));
          long[] s = state.get(key);
          long ts = Math.max(0, s[0] - 50 + random.nextInt(100));
          s[0] = Math.max(s[0], ts);
          chunk.add(new Change(key, "update-" + n, ts, (int) s[1], false, false));
        } else {
          String key = String.format("key-%07d", n);
          int place = random.nextInt(PLACES.length);
          long ts = 1000 + random.nextInt(1000);
          live.add(key);
          state.put(key, new long[] {ts, place});
          chunk.add(new Change(key, "insert-" + n, ts, place, false, false));
        }
      }
      out.add(chunk);
    }
    return out;
  }

  /** key → "name|ts|partition" of the rows the table must hold: the larger ts wins, ties go to the later change. */
  public static Map<String, String> expected(List<List<Change>> chunks) {
    Map<String, Change> winners = new HashMap<>();
    Map<String, Boolean> deleted = new HashMap<>();
    for (List<Change> chunk : chunks) {
      for (Change c : chunk) {
        Change current = winners.get(c.key());
        if (current == null || c.ts() >= current.ts()) {
          winners.put(c.key(), c);
          deleted.put(c.key(), c.delete());
        }
      }
    }
    Map<String, String> out = new TreeMap<>();
    winners.forEach((k, c) -> {
      if (!deleted.get(k)) {
        out.put(k, c.name() + "|" + c.ts() + "|" + c.partition());
      }
    });
    return out;
  }

  /**
   * The table's snapshot equals the model of {@code chunks}; a failure names the keys missing, not
   * expected or different (with every change of each in the stream, by chunk) and the timeline, so
   * a rare failure under load can be told apart from another without a rerun.
   */
  public static void assertTableHolds(Table table, List<List<Change>> chunks) {
    Map<String, String> actual = read(table);
    Map<String, String> model = expected(chunks);
    if (actual.equals(model)) {
      return;
    }
    StringBuilder why = new StringBuilder("the table's rows differ from every change, once: ");
    List<String> differing = new ArrayList<>();
    model.forEach((key, row) -> {
      if (!row.equals(actual.get(key))) {
        differing.add(key);
      }
    });
    actual.keySet().stream().filter(k -> !model.containsKey(k)).forEach(differing::add);
    why.append(differing.size()).append(" keys (of ").append(model.size()).append(" expected, ").append(actual.size())
        .append(" read)");
    for (String key : differing.stream().sorted().limit(10).toList()) {
      why.append("\n  ").append(key).append(": read ").append(actual.get(key)).append(", expected ")
          .append(model.get(key)).append("; changes:");
      for (int c = 0; c < chunks.size(); c++) {
        for (Change change : chunks.get(c)) {
          if (change.key().equals(key)) {
            why.append(" [chunk ").append(c).append(' ').append(change.name()).append(" ts=").append(change.ts())
                .append(' ').append(change.partition()).append(change.delete() ? " delete" : "").append(']');
          }
        }
      }
    }
    why.append("\ntimeline: ").append(table.timelineStore().load().instants());
    throw new AssertionError(why.toString());
  }

  public static List<List<RowData>> rows(List<List<Change>> chunks) {
    List<List<RowData>> out = new ArrayList<>();
    for (List<Change> chunk : chunks) {
      out.add(chunk.stream().map(Change::row).toList());
    }
    return out;
  }

  /** The table's snapshot as key → "name|ts|partition"; fails on a key read twice. */
  public static Map<String, String> read(Table table) {
    return read(table, QuerySpec.snapshot());
  }

  /** The result of {@code spec} (a snapshot, or a snapshot as of an instant) as key → "name|ts|partition". */
  public static Map<String, String> read(Table table, QuerySpec spec) {
    List<GenericRecord> records = TableReads.read(table.reload(), spec);
    Map<String, String> out = new TreeMap<>();
    for (GenericRecord r : records) {
      String key = r.get("uuid").toString();
      String value = r.get("name") + "|" + r.get("ts") + "|" + r.get("region") + "/" + r.get("country") + "/"
          + r.get("city");
      String previous = out.put(key, value);
      assertThat(previous).as("key %s read twice: %s and %s", key, previous, value).isNull();
    }
    return out;
  }

  public static Map<String, String> options(Path dir, String tableType) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("path", dir.resolve("table").toString());
    o.put("hoodie.table.name", "trips");
    o.put("table.type", tableType);
    o.put("hoodie.datasource.write.recordkey.field", "uuid");
    o.put("hoodie.datasource.write.partitionpath.field", "region,country,city");
    o.put("hoodie.datasource.write.precombine.field", "ts");
    return o;
  }

  public static StreamExecutionEnvironment env(int parallelism, int restarts) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(parallelism);
    env.enableCheckpointing(50);
    env.getCheckpointConfig().setMinPauseBetweenCheckpoints(10);
    env.getConfig().disableGenericTypes();
    if (restarts > 0) {
      env.setRestartStrategy(RestartStrategies.fixedDelayRestart(restarts, Time.milliseconds(50)));
    } else {
      env.setRestartStrategy(RestartStrategies.noRestart());
    }
    return env;
  }

  /**
   * The state backend as a user picks RocksDB ({@code state.backend.type: rocksdb}), with the
   * settings Riverbed adds ({@link RocksDbIndexSettings}); checkpoints
   * retained in {@code checkpoints}, and the job restored from {@code restore} if given.
   */
  public static Consumer<StreamExecutionEnvironment> rocksDb(Path checkpoints, Optional<String> restore) {
    return rocksDb(checkpoints, restore, Map.of());
  }

  /** As {@link #rocksDb(Path, Optional)}, with the user's own Flink settings {@code userSettings} set first. */
  public static Consumer<StreamExecutionEnvironment> rocksDb(Path checkpoints, Optional<String> restore,
      Map<String, String> userSettings) {
    return env -> {
      var conf = Configuration.fromMap(userSettings);
      conf.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
      RocksDbIndexSettings.apply(conf);
      conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
      conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
      conf.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
          ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
      restore.ifPresent(path -> conf.set(StateRecoveryOptions.SAVEPOINT_PATH, path));
      env.configure(conf);
    };
  }

  /** Writes {@code chunks} with a job of {@code parallelism}, one chunk per checkpoint. */
  public static JobExecutionResult write(String name, List<List<Change>> chunks, Map<String, String> options,
      int parallelism, int restarts, int idleCheckpoints) throws Exception {
    return write(name, chunks, options, parallelism, restarts, idleCheckpoints, env -> {});
  }

  /** As {@link #write(String, List, Map, int, int, int)}, with {@code tune} applied to the environment. */
  public static JobExecutionResult write(String name, List<List<Change>> chunks, Map<String, String> options,
      int parallelism, int restarts, int idleCheckpoints, Consumer<StreamExecutionEnvironment> tune) throws Exception {
    StreamExecutionEnvironment env = env(parallelism, restarts);
    tune.accept(env);
    ChunkedSource.register(name, rows(chunks));
    var stream = env.addSource(new ChunkedSource(name, idleCheckpoints), "chunks", InternalTypeInfo.of(ROW_TYPE))
        .setParallelism(1);
    RiverbedSink.forRowData(ROW_TYPE, options).sinkTo(stream);
    try {
      return env.execute(name);
    } catch (JobExecutionException e) {
      // the one-line summary of a failed test shows this message: name the root cause in it
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      throw new JobExecutionException(e.getJobID(), "job " + name + " failed: " + root, e);
    }
  }

  public static Table table(Map<String, String> options) {
    return FlinkTables.open(FlinkWriteOptions.fromMap(options));
  }

  /** No requested/inflight write instant is left on the timeline. */
  public static void assertNoPendingWrites(Table table) {
    var timeline = table.timelineStore().load();
    assertThat(timeline.commitsTimeline().pending().instants()).as("pending write instants").isEmpty();
  }

  public static int completedWrites(Table table) {
    return table.timelineStore().load().commitsTimeline().completed().size();
  }
}
