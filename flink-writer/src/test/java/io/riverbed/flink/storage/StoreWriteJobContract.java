package io.riverbed.flink.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.ChunkedSource;
import io.riverbed.flink.sink.RiverbedSink;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.timeline.TimelineStore;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.api.common.time.Time;
import org.apache.flink.runtime.state.storage.FileSystemCheckpointStorage;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.util.MiniClusterWithClientResource;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Flink writer on a non-local Hadoop file system: a streaming job writes a merge-on-read table
 * on the store and keeps its checkpoints there too (every state handle a file: no inline state).
 * The job fails once mid-stream and restarts from a checkpoint read back from the store; the table
 * then holds exactly the expected rows, read back with the core. Store and MiniCluster start once
 * per class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StoreWriteJobContract {
  static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("uuid", DataTypes.STRING().notNull()),
      DataTypes.FIELD("name", DataTypes.STRING()),
      DataTypes.FIELD("ts", DataTypes.BIGINT().notNull()),
      DataTypes.FIELD("region", DataTypes.STRING())).getLogicalType();
  private static final String[] REGIONS = {"eu", "us", "asia"};

  private MiniClusterWithClientResource cluster;

  abstract void startStore(Path dir) throws Exception;

  abstract void stopStore() throws Exception;

  abstract String uri(String path);

  /** What a Hadoop client of the store needs in its configuration. */
  abstract Map<String, String> hadoopSettings();

  /** What Flink's own file systems need to reach the store (for checkpoints). */
  abstract Map<String, String> flinkSettings();

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    startStore(dir);
    var conf = new org.apache.flink.configuration.Configuration();
    flinkSettings().forEach(conf::setString);
    conf.setString("io.tmp.dirs", dir.resolve("flink-tmp").toString());
    cluster = new MiniClusterWithClientResource(new MiniClusterResourceConfiguration.Builder()
        .setConfiguration(conf).setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());
    cluster.before();
    // The cluster shares this JVM: Flink's file systems (checkpoint storage) read this configuration.
    org.apache.flink.core.fs.FileSystem.initialize(conf, null);
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (cluster != null) {
        cluster.after();
      }
    } finally {
      stopStore();
    }
  }

  @Test
  void streamingWriteWithCheckpointsOnTheStoreRestartsFromThemAndEqualsTheModel() throws Exception {
    String name = getClass().getSimpleName();
    List<List<RowData>> chunks = chunks();
    ChunkedSource.register(name, chunks);
    String tablePath = uri("warehouse/flink_trips");
    String checkpoints = uri("checkpoints/" + name);

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(100);
    env.getCheckpointConfig().setMinPauseBetweenCheckpoints(20);
    // Threshold 0: every piece of state is a file under the checkpoint directory, none inline in _metadata.
    env.getCheckpointConfig().setCheckpointStorage(new FileSystemCheckpointStorage(URI.create(checkpoints), 0));
    // One restart: the injected failure. Any other failure (e.g. a race on the store) fails the job.
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, Time.milliseconds(100)));
    var stream = env.addSource(ChunkedSource.failingOnceAfter(name, 1), "paced", InternalTypeInfo.of(ROW_TYPE)).setParallelism(1);
    Map<String, String> options = new LinkedHashMap<>();
    options.put("path", tablePath);
    options.put("hoodie.table.name", "flink_trips");
    options.put("table.type", "MERGE_ON_READ");
    options.put("hoodie.datasource.write.recordkey.field", "uuid");
    options.put("hoodie.datasource.write.partitionpath.field", "region");
    options.put("hoodie.datasource.write.precombine.field", "ts");
    hadoopSettings().forEach((k, v) -> options.put("hadoop." + k, v));
    RiverbedSink.forRowData(ROW_TYPE, options).sinkTo(stream);
    long start = System.nanoTime();
    JobExecutionResult result = env.execute(name);
    System.out.printf("STORAGE %s: job ran in %.1f s%n", name, (System.nanoTime() - start) / 1e9);

    assertThat(ChunkedSource.restoredPosition(name)).as("the job restarted from a checkpoint on the store").isNotNull()
        .isGreaterThanOrEqualTo(1);
    Configuration conf = new Configuration();
    hadoopSettings().forEach(conf::set);
    try (FileSystem fs = FileSystem.newInstance(URI.create(tablePath), conf)) {
      Table table = Table.open(fs, new org.apache.hadoop.fs.Path(tablePath));
      assertThat(snapshot(table)).isEqualTo(expected(chunks));
      var timeline = TimelineStore.at(table.fs(), table.metaPath()).load();
      assertThat(timeline.commitsTimeline().pending().instants()).as("pending write instants").isEmpty();
      assertThat(timeline.commitsTimeline().completed().size()).isBetween(chunks.size(), chunks.size() + 1);
      List<String> jobs = new ArrayList<>();
      for (FileStatus s : fs.listStatus(new org.apache.hadoop.fs.Path(checkpoints))) {
        jobs.add(s.getPath().getName());
      }
      assertThat(jobs).as("checkpoint folders on the store").contains(result.getJobID().toString());
    }
  }

  /** 4 chunks: 300 inserts; 100 updates and 20 inserts; 80 deletes (by RowKind) and 50 updates; 60 updates (some stale, some re-inserting deleted keys). */
  private static List<List<RowData>> chunks() {
    List<List<RowData>> out = new ArrayList<>();
    List<RowData> c0 = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      c0.add(row(i, "insert", 1_000));
    }
    out.add(c0);
    List<RowData> c1 = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      c1.add(row(i * 3, "update-1", 2_000));
    }
    for (int i = 300; i < 320; i++) {
      c1.add(row(i, "insert", 2_000));
    }
    out.add(c1);
    List<RowData> c2 = new ArrayList<>();
    for (int i = 0; i < 80; i++) {
      RowData delete = row(i * 3 + 1, "delete", 3_000);
      delete.setRowKind(RowKind.DELETE);
      c2.add(delete);
    }
    for (int i = 0; i < 50; i++) {
      c2.add(row(i * 5 + 2, "update-2", 3_000));
    }
    out.add(c2);
    List<RowData> c3 = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      // Stale (smaller ts, must lose) only on live keys: after a delete, any later version is an insert.
      boolean stale = i % 4 == 0 && (i * 4) % 3 != 1;
      c3.add(row(i * 4, stale ? "stale" : "update-3", stale ? 500 : 4_000));
    }
    out.add(c3);
    return out;
  }

  private static GenericRowData row(int key, String name, long ts) {
    return GenericRowData.of(StringData.fromString(String.format("key-%04d", key)), StringData.fromString(name + "-" + key),
        ts, StringData.fromString(REGIONS[key % REGIONS.length]));
  }

  /** key → "name|ts|region": the larger ts wins (ties to the later change), deletes remove. */
  private static Map<String, String> expected(List<List<RowData>> chunks) {
    Map<String, RowData> winners = new TreeMap<>();
    for (List<RowData> chunk : chunks) {
      for (RowData r : chunk) {
        String key = r.getString(0).toString();
        RowData current = winners.get(key);
        if (current == null || r.getLong(2) >= current.getLong(2)) {
          winners.put(key, r);
        }
      }
    }
    Map<String, String> out = new TreeMap<>();
    winners.forEach((k, r) -> {
      if (r.getRowKind() != RowKind.DELETE) {
        out.put(k, r.getString(1) + "|" + r.getLong(2) + "|" + r.getString(3));
      }
    });
    return out;
  }

  private static Map<String, String> snapshot(Table table) {
    Map<String, String> out = new TreeMap<>();
    for (GenericRecord r : TableReads.read(table, QuerySpec.snapshot())) {
      String previous = out.put(r.get("uuid").toString(), r.get("name") + "|" + r.get("ts") + "|" + r.get("region"));
      assertThat(previous).as("key %s read twice", r.get("uuid")).isNull();
    }
    return out;
  }
}
