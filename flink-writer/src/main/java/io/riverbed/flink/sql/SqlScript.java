package io.riverbed.flink.sql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.TimeUtils;

/**
 * Runs a Flink SQL script statement by statement: {@code deploy/bin/riverbed-sql}. DDL takes
 * effect at once; {@code INSERT} (and {@code EXECUTE STATEMENT SET}) jobs run to completion
 * before the next statement (an unbounded source runs until stopped); query results are printed;
 * {@code SET 'key' = 'value'} changes the configuration of the jobs that follow. Checkpoints (=
 * commits) every 10 s unless {@code --checkpoint-interval} or {@code SET
 * 'execution.checkpointing.interval'} says otherwise.
 */
public final class SqlScript {
  private static final Pattern SET = Pattern.compile("(?is)SET\\s+'([^']+)'\\s*=\\s*'((?:[^']|'')*)'");
  private static final Pattern RESET = Pattern.compile("(?is)RESET\\s+'([^']+)'");

  public static final String USAGE = """
      Usage: riverbed-sql [--checkpoint-interval D] [--parallelism N] [--flink-conf key=value ...] SCRIPT.sql
        Runs the statements of SCRIPT.sql (separated by ';') on an embedded Flink cluster:
        CREATE TABLE t (...) WITH ('connector' = 'hudi', 'path' = '...', 'table.type' = 'MERGE_ON_READ', ...);
        INSERT INTO t SELECT ...;   -- runs until its job ends, then the next statement
        SET 'key' = 'value';        -- Flink or table option for the jobs that follow
      """;

  private final TableEnvironment tableEnv;

  public SqlScript(TableEnvironment tableEnv) {
    this.tableEnv = tableEnv;
  }

  /**
   * A table environment on {@link StreamExecutionEnvironment#getExecutionEnvironment(Configuration)};
   * with {@code state.backend.type=rocksdb} (here or by a later {@code SET}) the index's RocksDB
   * settings left unset are added ({@link io.riverbed.flink.index.RocksDbIndexSettings}).
   */
  public static SqlScript create(Configuration conf) {
    io.riverbed.flink.index.RocksDbIndexSettings.apply(conf);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    return new SqlScript(StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode()));
  }

  public static Configuration defaultConfiguration(Duration checkpointInterval) {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, checkpointInterval);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
    return conf;
  }

  public TableEnvironment tableEnvironment() {
    return tableEnv;
  }

  /** Runs every statement of {@code script}; fails naming the statement's line. */
  public void run(String script, Appendable out) throws IOException {
    List<SqlStatements.Statement> statements = SqlStatements.split(script);
    for (SqlStatements.Statement s : statements) {
      try {
        execute(s.sql(), out);
      } catch (RuntimeException | java.util.concurrent.ExecutionException | InterruptedException e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        throw new SqlScriptException("statement on line " + s.line() + " failed: " + message(e) + "\n  " + firstLine(s.sql()), e);
      }
    }
  }

  private void execute(String sql, Appendable out) throws IOException, java.util.concurrent.ExecutionException, InterruptedException {
    Matcher set = SET.matcher(sql);
    if (set.matches()) {
      tableEnv.getConfig().getConfiguration().setString(set.group(1), set.group(2).replace("''", "'"));
      io.riverbed.flink.index.RocksDbIndexSettings.apply(tableEnv.getConfig().getConfiguration());
      return;
    }
    Matcher reset = RESET.matcher(sql);
    if (reset.matches()) {
      tableEnv.getConfig().getConfiguration().removeKey(reset.group(1));
      return;
    }
    TableResult result = tableEnv.executeSql(sql);
    if (result.getJobClient().isPresent()) {
      out.append("Job ").append(result.getJobClient().get().getJobID().toString()).append(" started: ")
          .append(firstLine(sql)).append('\n');
      result.await();
      out.append("Job ").append(result.getJobClient().get().getJobID().toString()).append(" finished\n");
    } else if (result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT) {
      try (var rows = result.collect()) {
        rows.forEachRemaining(r -> append(out, r.toString()));
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  private static void append(Appendable out, String line) {
    try {
      out.append(line).append('\n');
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String firstLine(String sql) {
    String first = sql.strip().lines().findFirst().orElse("");
    return first.length() > 100 ? first.substring(0, 97) + "..." : first;
  }

  private static String message(Throwable e) {
    Throwable t = ExceptionUtils.stripExecutionException(e);
    StringBuilder sb = new StringBuilder(String.valueOf(t.getMessage()));
    for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
      if (c.getMessage() != null && !sb.toString().contains(c.getMessage())) {
        sb.append(": ").append(c.getMessage());
      }
    }
    return sb.toString();
  }

  /** A statement of the script failed. */
  public static final class SqlScriptException extends RuntimeException {
    SqlScriptException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  public static void main(String[] args) throws Exception {
    Duration interval = Duration.ofSeconds(10);
    Configuration extra = new Configuration();
    Integer parallelism = null;
    String file = null;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--help", "-h" -> {
            System.out.print(USAGE);
            return;
          }
          case "--checkpoint-interval" -> interval = TimeUtils.parseDuration(value(args, ++i, a));
          case "--parallelism" -> parallelism = Integer.parseInt(value(args, ++i, a));
          case "--flink-conf" -> {
            String kv = value(args, ++i, a);
            int eq = kv.indexOf('=');
            if (eq <= 0) {
              throw new IllegalArgumentException("--flink-conf takes key=value, got '" + kv + "'");
            }
            extra.setString(kv.substring(0, eq), kv.substring(eq + 1));
          }
          default -> {
            if (a.startsWith("--") || file != null) {
              throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            file = a;
          }
        }
      }
      if (file == null) {
        throw new IllegalArgumentException("missing the SQL script file");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("riverbed-sql: " + e.getMessage());
      System.err.print(USAGE);
      System.exit(2);
      return;
    }
    Configuration conf = defaultConfiguration(interval);
    if (parallelism != null) {
      conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
    }
    conf.addAll(extra);
    String script;
    try {
      script = Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      System.err.println("riverbed-sql: cannot read " + file + ": " + e.getMessage());
      System.exit(2);
      return;
    }
    try {
      create(conf).run(script, System.out);
    } catch (SqlScriptException e) {
      System.err.println("riverbed-sql: " + file + ": " + e.getMessage());
      System.exit(1);
    }
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args[i];
  }
}
