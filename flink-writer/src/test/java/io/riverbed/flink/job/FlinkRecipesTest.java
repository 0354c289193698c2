package io.riverbed.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import io.riverbed.flink.sql.SqlScript;
import io.riverbed.flink.sql.SqlStatements;
import io.riverbed.format.table.TableConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Flink session recipes of {@code deploy/flink} and their page hold what Flink 1.20 and the
 * job accept: config.yaml sets only Flink options with valid values; every {@code flink run} /
 * {@code flink-run.sh} command passes flags the job's parser takes and {@code -D} options Flink
 * knows; the SQL client script plans its INSERT through the real 'kafka', 'json' and 'hudi'
 * factories, creating the table it describes.
 */
class FlinkRecipesTest {
  static final Path FLINK = Path.of("..", "deploy", "flink");
  static final Path PAGE = Path.of("..", "docs", "clusters", "FLINK_SESSIONS.md");
  /**
   * -D options of Flink modules this class path lacks (flink-yarn's YarnConfigOptions,
   * flink-kubernetes' KubernetesConfigOptions), as Flink's CLI docs give them for session targets.
   */
  static final Set<String> SESSION_TARGET_KEYS = Set.of("yarn.application.id", "kubernetes.cluster-id");
  static FlinkConfigKeys keys;

  @BeforeAll
  static void scanFlinkOptions() {
    keys = FlinkConfigKeys.scan();
  }

  @Test
  void configYamlSetsOnlyFlinkOptionsWithValidValues() throws Exception {
    JsonNode conf = FlinkDeploymentCheck.YAML.readTree(FLINK.resolve("config.yaml").toFile());
    List<String> problems = new ArrayList<>();
    conf.fields().forEachRemaining(e -> keys.problem(e.getKey(), e.getValue().asText()).ifPresent(problems::add));
    assertThat(problems).isEmpty();
    assertThat(conf.path("execution.checkpointing.dir").asText()).startsWith("s3a://");
    assertThat(conf.path("fs.allowed-fallback-filesystems").asText()).isEqualTo("s3a");
  }

  @Test
  void everyFlinkRunCommandPassesFlagsTheJobAccepts() {
    List<RecipeCommands.Command> commands = new ArrayList<>();
    commands.addAll(RecipeCommands.find(FlinkDeploymentCheck.read(FLINK.resolve("flink-run.sh"))));
    commands.addAll(RecipeCommands.find(FlinkDeploymentCheck.read(PAGE)));
    assertThat(commands).as("commands in flink-run.sh and " + PAGE).hasSizeGreaterThanOrEqualTo(5);
    assertThat(commands).anyMatch(RecipeCommands.Command::isFlinkRunScript).anyMatch(c -> !c.isFlinkRunScript());
    for (RecipeCommands.Command c : commands) {
      List<String> flags = c.isFlinkRunScript() ? scriptFlags(c) : flinkRunFlags(c);
      assertThatCode(() -> WriteJobArguments.parse(flags.toArray(String[]::new)))
          .as("line %d: %s", c.line(), String.join(" ", c.words())).doesNotThrowAnyException();
    }
  }

  private static List<String> scriptFlags(RecipeCommands.Command c) {
    assertThat(c.words().get(1)).as("target, line %d", c.line()).isIn("standalone", "yarn-session", "kubernetes-session");
    return c.words().subList(3, c.words().size());
  }

  /** The words after the jar; the {@code -D} options before it are checked against Flink's options. */
  private static List<String> flinkRunFlags(RecipeCommands.Command c) {
    List<String> w = c.words();
    int i = w.indexOf("run") + 1;
    while (i < w.size() && w.get(i).startsWith("-")) {
      String option = w.get(i);
      if (option.startsWith("-D")) {
        String kv = option.substring(2);
        String key = kv.substring(0, kv.indexOf('='));
        if (!SESSION_TARGET_KEYS.contains(key)) {
          assertThat(keys.problem(key, kv.substring(kv.indexOf('=') + 1))).as("line %d: %s", c.line(), option).isEmpty();
        }
        i++;
      } else if (Set.of("-t", "-m", "-p", "-c", "-s", "--target", "--jobmanager", "--parallelism", "--class").contains(option)) {
        i += 2;
      } else {
        assertThat(option).as("line %d: a flink run option", c.line()).isIn("-d", "--detached", "-n", "--allowNonRestoredState");
        i++;
      }
    }
    assertThat(w.get(i)).as("line %d: the job jar", c.line()).containsAnyOf("-job.jar", "JOB_JAR");
    return w.subList(i + 1, w.size());
  }

  @Test
  void sqlClientScriptPlansItsInsertThroughTheRealFactories(@TempDir Path dir) throws Exception {
    TableEnvironment tableEnv = SqlScript.create(new Configuration(), Long.MAX_VALUE).tableEnvironment();
    Path table = dir.resolve("trips_sql");
    String insert = null;
    for (SqlStatements.Statement s : SqlStatements.split(FlinkDeploymentCheck.read(FLINK.resolve("trips.sql")))) {
      String sql = s.sql().strip();
      if (sql.startsWith("ADD JAR")) {
        assertThat(sql).matches("ADD JAR '[^']*riverbed-flink-writer-[^']*-job\\.jar'");
      } else if (sql.startsWith("SET")) {
        var set = java.util.regex.Pattern.compile("SET '([^']+)' = '([^']*)'").matcher(sql);
        assertThat(set.matches()).as(sql).isTrue();
        assertThat(keys.problem(set.group(1), set.group(2))).isEmpty();
        tableEnv.getConfig().getConfiguration().setString(set.group(1), set.group(2));
      } else if (sql.startsWith("CREATE TABLE")) {
        // The table goes to a local folder instead of the recipe's s3a:// path: planning creates it.
        tableEnv.executeSql(sql.replaceAll("'path' = '[^']*'", "'path' = '" + table.toUri() + "'"));
      } else {
        assertThat(sql).startsWith("INSERT INTO");
        insert = sql;
      }
    }
    assertThat(insert).isNotNull();
    // The JSON execution plan translates the INSERT into Flink operators: the connector's sink builds them.
    assertThat(tableEnv.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN)).contains("riverbed: to-record [trips]");
    TableConfig created = TableConfig.read(
        org.apache.hadoop.fs.FileSystem.getLocal(new org.apache.hadoop.conf.Configuration()),
        new org.apache.hadoop.fs.Path(table.toUri().toString(), ".hoodie"));
    assertThat(Map.of("type", created.type().name(), "key", String.join(",", created.recordKeyFields()),
        "partitions", String.join(",", created.partitionFields())))
        .containsEntry("type", "MERGE_ON_READ").containsEntry("key", "uuid").containsEntry("partitions", "region,country,city");
    assertThat(Files.exists(table.resolve(".hoodie"))).isTrue();
  }
}
