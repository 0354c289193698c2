package io.riverbed.flink.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.source.SourceFunction;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lookup join ({@code JOIN dim FOR SYSTEM_TIME AS OF p.pt}) against a {@code hudi} table that
 * another job updates: a probe that comes one refresh interval after a commit completed sees that
 * commit (an update, then a delete).
 */
class LookupJoinTest {
  private static final Duration REFRESH = Duration.ofSeconds(1);
  /** Probe keys for the running join's source; one test at a time uses it. */
  private static final BlockingQueue<String> PROBES = new LinkedBlockingQueue<>();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  /** Emits the keys the test puts into {@link #PROBES}, until cancelled. */
  private static final class Probes implements SourceFunction<String> {
    private volatile boolean running = true;

    @Override
    public void run(SourceContext<String> out) throws Exception {
      while (running) {
        String key = PROBES.poll(50, TimeUnit.MILLISECONDS);
        if (key != null) {
          synchronized (out.getCheckpointLock()) {
            out.collect(key);
          }
        }
      }
    }

    @Override
    public void cancel() {
      running = false;
    }
  }

  @Test
  void aProbeOneIntervalAfterACommitSeesIt(@TempDir Path dir) throws Exception {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(1);
    StreamTableEnvironment tables = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
    Path path = dir.resolve("dim");
    String ddl = """
        CREATE TABLE %s (id STRING, ts BIGINT, fare DOUBLE, city STRING%s, PRIMARY KEY (id) NOT ENFORCED)
        WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = 'MERGE_ON_READ', 'lookup.join.cache.ttl' = '%ds')""";
    tables.executeSql(ddl.formatted("dim_w", ", _hoodie_is_deleted BOOLEAN", path.toUri(), REFRESH.toSeconds()));
    tables.executeSql("INSERT INTO dim_w VALUES ('k1', 1, 10.0, 'x', false), ('k2', 1, 20.0, 'y', false)").await();
    tables.executeSql(ddl.formatted("dim", "", path.toUri(), REFRESH.toSeconds()));
    tables.createTemporaryView("probes", env.addSource(new Probes(), Types.STRING),
        Schema.newBuilder().columnByExpression("pt", "PROCTIME()").build());

    PROBES.clear();
    TableResult result = tables.executeSql("SELECT p.f0, d.fare FROM probes AS p "
        + "LEFT JOIN dim FOR SYSTEM_TIME AS OF p.pt AS d ON p.f0 = d.id");
    try (CloseableIterator<Row> rows = result.collect()) {
      assertThat(probe(rows, "k1")).isEqualTo("+I[k1, 10.0]");
      assertThat(probe(rows, "k3")).isEqualTo("+I[k3, null]");

      tables.executeSql("INSERT INTO dim_w VALUES ('k1', 2, 11.0, 'x', false), ('k3', 2, 30.0, 'x', false)").await();
      Thread.sleep(REFRESH.toMillis());
      assertThat(probe(rows, "k1")).isEqualTo("+I[k1, 11.0]");
      assertThat(probe(rows, "k3")).isEqualTo("+I[k3, 30.0]");

      tables.executeSql("INSERT INTO dim_w VALUES ('k1', 3, 0.0, 'x', true)").await();
      Thread.sleep(REFRESH.toMillis());
      assertThat(probe(rows, "k1")).isEqualTo("+I[k1, null]");
      assertThat(probe(rows, "k2")).isEqualTo("+I[k2, 20.0]");
    } finally {
      result.getJobClient().ifPresent(job -> job.cancel());
    }
  }

  /** Sends one probe and returns its joined row, within two minutes. */
  private static String probe(CloseableIterator<Row> rows, String key) throws Exception {
    PROBES.add(key);
    return CompletableFuture.supplyAsync(() -> rows.next().toString()).get(2, TimeUnit.MINUTES);
  }
}
