package io.riverbed.it.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hudi's Flink quick start (its DDL, inserts and queries) as SQL scripts, run by Flink's own SQL
 * client ({@code flink-sql-client}, embedded, on Flink's jars plus flink-writer's job jar, as a
 * Flink distribution with the jar in lib/ has them) and by {@code riverbed-sql} with the same flags: both
 * print the quick start's rows, and a streaming read of the table prints each inserted row once.
 */
class FlinkSqlClientRunsScriptsTest {
  static final String SQL_CLIENT = "org.apache.flink.table.client.SqlClient";
  static final String RIVERBED_SQL = "io.riverbed.flink.sql.SqlScript";
  /** Rows of Hudi's Flink quick start: ts, uuid, rider, driver, fare, city. */
  static final List<String> QUICKSTART_ROWS = List.of(
      "1695159649087, 334e26e9-8355-45cc-97c6-c31daf0df330, rider-A, driver-K, 19.1, san_francisco",
      "1695091554788, e96c4396-3fad-413a-a942-4cb36106d721, rider-C, driver-M, 27.7, san_francisco",
      "1695046462179, 9909a8b1-2d15-4d3d-8ec9-efc48c536a00, rider-D, driver-L, 33.9, san_francisco",
      "1695516137016, e3cf430c-889d-4015-bc98-59bdce1e530c, rider-F, driver-P, 34.15, sao_paulo",
      "1695115999911, c8abbe79-8d89-47ea-b4ce-4d224bae5bfa, rider-J, driver-T, 17.85, chennai");

  @TempDir static Path work;

  @Test
  void flinksSqlClientAndRiverbedSqlRunTheQuickStartScripts() throws Exception {
    Path table = work.resolve("hudi_table");
    Path ddl = write("ddl.sql", """
        SET 'table.dml-sync' = 'true';
        SET 'sql-client.execution.result-mode' = 'tableau';
        SET 'sql-client.display.max-column-width' = '40';
        CREATE TABLE hudi_table (
            ts BIGINT,
            uuid VARCHAR(40) PRIMARY KEY NOT ENFORCED,
            rider VARCHAR(20),
            driver VARCHAR(20),
            fare DOUBLE,
            city VARCHAR(20)
        )
        PARTITIONED BY (`city`)
        WITH (
          'connector' = 'hudi',
          'path' = '%s',
          'table.type' = 'MERGE_ON_READ'
        );
        """.formatted(table.toUri()));
    Path queries = write("queries.sql", """
        INSERT INTO hudi_table
        VALUES
        (1695159649087,'334e26e9-8355-45cc-97c6-c31daf0df330','rider-A','driver-K',19.10,'san_francisco'),
        (1695091554788,'e96c4396-3fad-413a-a942-4cb36106d721','rider-C','driver-M',27.70 ,'san_francisco'),
        (1695046462179,'9909a8b1-2d15-4d3d-8ec9-efc48c536a00','rider-D','driver-L',33.90 ,'san_francisco'),
        (1695516137016,'e3cf430c-889d-4015-bc98-59bdce1e530c','rider-F','driver-P',34.15,'sao_paulo'),
        (1695115999911,'c8abbe79-8d89-47ea-b4ce-4d224bae5bfa','rider-J','driver-T',17.85,'chennai');
        SELECT * FROM hudi_table;
        """);
    Path stream = write("stream.sql", """
        SELECT * FROM hudi_table /*+ OPTIONS('read.streaming.enabled' = 'true', 'read.start-commit' = 'earliest',
          'read.streaming.check-interval' = '1') */;
        """);
    Path conf = Files.createDirectories(work.resolve("flink-conf"));
    Files.writeString(conf.resolve("config.yaml"), """
        execution:
          target: local
          checkpointing:
            interval: 1s
        parallelism:
          default: 1
        """);

    String client = run("sql-client", sqlClientClasspath(), SQL_CLIENT, conf,
        List.of("embedded", "-i", ddl.toString(), "-f", queries.toString()));
    List<String> clientRows = client.lines().filter(l -> l.startsWith("| +I |"))
        .map(l -> Arrays.stream(l.split("\\|")).skip(2).map(String::trim).collect(Collectors.joining(", "))).toList();
    assertThat(clientRows).as("Flink SQL client's SELECT:\n" + client).containsExactlyInAnyOrderElementsOf(QUICKSTART_ROWS);

    String ours = run("riverbed-sql", WriteJobProcess.classpath(), RIVERBED_SQL, conf,
        List.of("-i", ddl.toString(), "-f", queries.toString()));
    assertThat(plusRows(ours)).as("riverbed-sql's SELECT:\n" + ours).containsExactlyInAnyOrderElementsOf(QUICKSTART_ROWS);

    String streamed = run("riverbed-sql-stream", WriteJobProcess.classpath(), RIVERBED_SQL, conf,
        List.of("-i", ddl.toString(), "--max-rows", "5", "-f", stream.toString()));
    assertThat(plusRows(streamed)).as("riverbed-sql's streaming read:\n" + streamed)
        .containsExactlyInAnyOrderElementsOf(QUICKSTART_ROWS);
  }

  private static List<String> plusRows(String output) {
    return output.lines().filter(l -> l.startsWith("+I[")).map(l -> l.substring(3, l.length() - 1)).toList();
  }

  private static Path write(String name, String text) throws IOException {
    return Files.writeString(work.resolve(name), text);
  }

  /**
   * The SQL client's jars (as a distribution's opt/ has them), Flink's, flink-json (in a
   * distribution's lib/; the client's gateway encodes results with it) and Riverbed's job jar.
   */
  private static String sqlClientClasspath() throws IOException {
    Path dir = Path.of("target", "flink-sql-client");
    String flinkJson = Arrays.stream(WriteJobProcess.classpathFile("test").split(File.pathSeparator))
        .filter(jar -> Path.of(jar).getFileName().toString().startsWith("flink-json-")).findFirst().orElseThrow();
    try (Stream<Path> jars = Files.list(dir)) {
      return jars.map(Path::toString).sorted().collect(Collectors.joining(File.pathSeparator))
          + File.pathSeparator + flinkJson + File.pathSeparator + JobJarTest.locateJobJar()
          + File.pathSeparator + JobJarTest.flinkOnlyClasspath();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir.toAbsolutePath() + " (copied by the build)", e);
    }
  }

  private static String run(String name, String classpath, String main, Path conf, List<String> args) throws IOException {
    Path dir = Files.createDirectories(work.resolve(name));
    Path log = Files.createTempFile(dir, name + "-", ".log");
    List<String> command = new ArrayList<>(WriteJobProcess.command(classpath, dir, main, args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("FLINK_CONF_DIR", conf.toString());
    builder.environment().put("HOME", dir.toString());
    return WriteJobProcess.awaitExit(builder.start(), dir, log, WriteJobProcess.HANG_LIMIT, args);
  }
}
