package io.riverbed.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code riverbed-sql} runs queries as Flink's SQL client does: a {@code SELECT} prints its rows
 * (in streaming mode and after {@code SET 'execution.runtime-mode' = 'batch'}), a streaming read
 * prints its changelog until {@code --max-rows} rows, and the command line takes the client's
 * {@code -i} and {@code -f}.
 */
class SqlScriptQueriesTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @Test
  void selectsPrintTheirRowsAndAStreamingReadStopsAtMaxRows(@TempDir Path dir) throws Exception {
    String ddl = """
        CREATE TABLE trips (id STRING, ts BIGINT, city STRING, PRIMARY KEY (id) NOT ENFORCED)
        WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = 'MERGE_ON_READ');
        """.formatted(dir.resolve("trips").toUri());
    StringBuilder streaming = new StringBuilder();
    SqlScript.create(SqlScript.defaultConfiguration(Duration.ofMillis(200)), 2).run(ddl + """
        INSERT INTO trips VALUES ('a', 1, 'x'), ('b', 2, 'y'), ('c', 3, 'x');
        SELECT id, ts FROM trips /*+ OPTIONS('read.streaming.enabled' = 'true', 'read.start-commit' = 'earliest',
          'read.streaming.check-interval' = '1') */;
        """, streaming);
    List<String> streamed = streaming.toString().lines().filter(l -> !l.startsWith("Job ")).toList();
    assertThat(streamed).hasSize(4);
    assertThat(streamed.get(0)).isEqualTo("id | ts");
    assertThat(streamed.subList(1, 3)).allMatch(l -> l.matches("\\+I\\[[abc], [123]]"));
    assertThat(streamed.get(3)).isEqualTo("2 rows (--max-rows reached)");

    StringBuilder batch = new StringBuilder();
    SqlScript.create(SqlScript.defaultConfiguration(Duration.ofMillis(200)), 10).run("""
        SET 'execution.runtime-mode' = 'batch';
        """ + ddl + """
        SELECT city, COUNT(*) AS trips FROM trips GROUP BY city;
        """, batch);
    List<String> lines = batch.toString().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).isEqualTo("city | trips");
    assertThat(lines.subList(1, 3)).containsExactlyInAnyOrder("+I[x, 2]", "+I[y, 1]");
    assertThat(lines.get(3)).isEqualTo("2 rows");
  }

  @Test
  void theRuntimeModeIsSetBeforeAnythingIsDeclared() {
    SqlScript script = SqlScript.create(SqlScript.defaultConfiguration(Duration.ofSeconds(1)), 10);
    assertThatThrownBy(() -> script.run("""
        CREATE TABLE t (id STRING) WITH ('connector' = 'datagen');
        SET 'execution.runtime-mode' = 'batch';
        """, new StringBuilder()))
        .hasMessageContaining("statement on line 2 failed: 'execution.runtime-mode' can be set only before the script's "
            + "first other statement");
  }

  @Test
  void commandLineTakesTheSqlClientsInitAndFileFlags() {
    SqlScript.Arguments args = SqlScript.Arguments.parse(new String[] {"-i", "catalogs.sql", "--init", "tables.sql",
        "--parallelism", "3", "--max-rows", "10", "-f", "job.sql"});
    assertThat(args.initScripts()).containsExactly("catalogs.sql", "tables.sql");
    assertThat(args.script()).isEqualTo("job.sql");
    assertThat(args.maxRows()).isEqualTo(10);
    assertThat(args.conf().get(CoreOptions.DEFAULT_PARALLELISM)).isEqualTo(3);
    assertThat(args.conf().get(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isEqualTo(Duration.ofSeconds(10));
    assertThat(SqlScript.Arguments.parse(new String[] {"job.sql"}).script()).isEqualTo("job.sql");
    assertThatThrownBy(() -> SqlScript.Arguments.parse(new String[] {"-f", "a.sql", "b.sql"}))
        .hasMessageContaining("one SQL script only");
    assertThatThrownBy(() -> SqlScript.Arguments.parse(new String[] {"--max-rows", "0", "a.sql"}))
        .hasMessageContaining("--max-rows must be at least 1");
  }
}
