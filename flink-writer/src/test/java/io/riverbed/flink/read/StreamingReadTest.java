package io.riverbed.flink.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.consumer.ConsumerRegistry;
import io.riverbed.format.table.Table;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming {@code SELECT}s of {@code hudi} tables ({@code read.streaming.enabled}) while another
 * job's commits land: each commit's inserts, updates and deletes arrive as a changelog, in commit
 * order per key, from the start the options ask for.
 */
class StreamingReadTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

  private static StreamTableEnvironment writes;
  private static StreamTableEnvironment reads;

  @BeforeAll
  static void environments() {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    StreamExecutionEnvironment writeEnv = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    writeEnv.setParallelism(1);
    writes = StreamTableEnvironment.create(writeEnv, EnvironmentSettings.inStreamingMode());
    StreamExecutionEnvironment readEnv = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    readEnv.setParallelism(2);
    reads = StreamTableEnvironment.create(readEnv, EnvironmentSettings.inStreamingMode());
  }

  private static String ddl(String name, Path path, String type, String extraColumns, String extraOptions) {
    return """
        CREATE TABLE %s (id STRING, ts BIGINT, fare DOUBLE, city STRING%s, PRIMARY KEY (id) NOT ENFORCED)
        PARTITIONED BY (city)
        WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = '%s', 'read.tasks' = '2'%s)"""
        .formatted(name, extraColumns, path.toUri(), type, extraOptions);
  }

  private static void write(String sql) throws Exception {
    writes.executeSql(sql).await();
  }

  /** Reads {@code n} rows of a running query's changelog, failing if they do not come within two minutes. */
  private static List<String> take(CloseableIterator<Row> rows, int n) throws Exception {
    return takeUntil(rows, out -> out.size() == n);
  }

  /** Reads a running query's changelog up to and with {@code last}, within two minutes. */
  private static List<String> takeUntil(CloseableIterator<Row> rows, String last) throws Exception {
    return takeUntil(rows, out -> out.get(out.size() - 1).equals(last));
  }

  private static List<String> takeUntil(CloseableIterator<Row> rows, Predicate<List<String>> done) throws Exception {
    return CompletableFuture.supplyAsync(() -> {
      List<String> out = new ArrayList<>();
      while ((out.isEmpty() || !done.test(out)) && rows.hasNext()) {
        out.add(rows.next().toString());
      }
      return out;
    }).get(2, TimeUnit.MINUTES);
  }

  @Test
  void mergeOnReadChangesArriveAsAChangelogFromTheEarliestCommit(@TempDir Path dir) throws Exception {
    Path path = dir.resolve("trips");
    writes.executeSql(ddl("trips_w", path, "MERGE_ON_READ", ", _hoodie_is_deleted BOOLEAN", ""));
    write("INSERT INTO trips_w (id, ts, fare, city) VALUES ('a', 1, 10.0, 'x'), ('b', 1, 20.0, 'y')");
    reads.executeSql(ddl("trips", path, "MERGE_ON_READ", "",
        ", 'read.streaming.enabled' = 'true', 'read.start-commit' = 'earliest', 'read.streaming.check-interval' = '1'"));

    TableResult result = reads.executeSql("SELECT * FROM trips");
    try (CloseableIterator<Row> rows = result.collect()) {
      assertThat(take(rows, 2)).containsExactlyInAnyOrder("+I[a, 1, 10.0, x]", "+I[b, 1, 20.0, y]");

      write("INSERT INTO trips_w (id, ts, fare, city) VALUES ('a', 2, 11.0, 'x'), ('c', 2, 30.0, 'x')");
      assertThat(take(rows, 3)).containsExactlyInAnyOrder("-U[a, 1, 10.0, x]", "+U[a, 2, 11.0, x]", "+I[c, 2, 30.0, x]");

      write("INSERT INTO trips_w VALUES ('b', 3, 0.0, 'y', true)");
      assertThat(take(rows, 1)).containsExactly("-D[b, 1, 20.0, y]");

      write("INSERT INTO trips_w (id, ts, fare, city) VALUES ('a', 4, 12.0, 'x')");
      write("INSERT INTO trips_w (id, ts, fare, city) VALUES ('a', 5, 13.0, 'x')");
      List<String> last = takeUntil(rows, "+U[a, 5, 13.0, x]");
      assertThat(last).as("a key's changes in commit order, one look at the timeline or two")
          .isIn(List.of("-U[a, 2, 11.0, x]", "+U[a, 5, 13.0, x]"),
              List.of("-U[a, 2, 11.0, x]", "+U[a, 4, 12.0, x]", "-U[a, 4, 12.0, x]", "+U[a, 5, 13.0, x]"));
    } finally {
      result.getJobClient().ifPresent(job -> job.cancel());
    }
  }

  @Test
  void withoutAStartCommitOnlyLaterCommitsArriveAndTheConsumerIsRecorded(@TempDir Path dir) throws Exception {
    Path path = dir.resolve("later");
    writes.executeSql(ddl("later_w", path, "COPY_ON_WRITE", "", ""));
    write("INSERT INTO later_w VALUES ('a', 1, 10.0, 'x'), ('b', 1, 20.0, 'y')");
    reads.executeSql(ddl("later", path, "COPY_ON_WRITE", "",
        ", 'read.streaming.enabled' = 'true', 'read.streaming.check-interval' = '1', 'consumer-id' = 'trips-job'"));

    TableResult result = reads.executeSql("SELECT id, fare FROM later");
    try (CloseableIterator<Row> rows = result.collect()) {
      Table table = Table.open(new org.apache.hadoop.fs.Path(path.toUri()).getFileSystem(new org.apache.hadoop.conf.Configuration()),
          new org.apache.hadoop.fs.Path(path.toUri()));
      String firstCommit = table.refreshTimeline().completed().last().orElseThrow().time();
      awaitConsumer(table, "trips-job");
      write("INSERT INTO later_w VALUES ('b', 2, 21.0, 'y'), ('c', 2, 30.0, 'x')");
      assertThat(take(rows, 2)).containsExactlyInAnyOrder("+I[b, 21.0]", "+I[c, 30.0]");
      assertThat(ConsumerRegistry.of(table).get("trips-job").orElseThrow().position()).isGreaterThanOrEqualTo(firstCommit);
    } finally {
      result.getJobClient().ifPresent(job -> job.cancel());
    }
  }

  private static void awaitConsumer(Table table, String id) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (ConsumerRegistry.of(table).get(id).isEmpty()) {
      assertThat(System.nanoTime()).as("consumer %s recorded within two minutes", id).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  @Test
  void aStreamingReadNeedsAPrimaryKey(@TempDir Path dir) throws Exception {
    Path path = dir.resolve("keyless");
    writes.executeSql(ddl("keyless_w", path, "MERGE_ON_READ", "", ""));
    write("INSERT INTO keyless_w VALUES ('a', 1, 10.0, 'x')");
    reads.executeSql(ddl("keyless", path, "MERGE_ON_READ", "", ", 'read.streaming.enabled' = 'true'")
        .replace(", PRIMARY KEY (id) NOT ENFORCED", ""));
    assertThatThrownBy(() -> reads.executeSql("SELECT * FROM keyless"))
        .rootCause().hasMessageContaining("needs the table's record key declared as PRIMARY KEY");
  }
}
