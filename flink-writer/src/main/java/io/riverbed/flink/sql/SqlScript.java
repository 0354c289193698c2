package io.riverbed.flink.sql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
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
 * Runs a Flink SQL script statement by statement: {@code deploy/bin/riverbed-sql}, with the Flink
 * SQL client's {@code -i} (init scripts first) and {@code -f} flags. DDL takes effect at once;
 * {@code INSERT} (and {@code EXECUTE STATEMENT SET}) jobs run to completion before the next
 * statement (an unbounded source runs until stopped); a query's rows are printed as they come, a
 * streaming query's changelog until it is cancelled or has printed {@code --max-rows} rows;
 * {@code SET 'key' = 'value'} changes the configuration of the jobs that follow ({@code
 * 'execution.runtime-mode'}, as Flink fixes it per session, only before any other statement). Checkpoints (=
 * commits) every 10 s unless {@code --checkpoint-interval} or {@code SET
 * 'execution.checkpointing.interval'} says otherwise.
 */
public final class SqlScript {
  private static final Pattern SET = Pattern.compile("(?is)SET\\s+'([^']+)'\\s*=\\s*'((?:[^']|'')*)'");
  private static final Pattern RESET = Pattern.compile("(?is)RESET\\s+'([^']+)'");
  private static final Pattern QUERY = Pattern.compile("(?is)\\s*(?:(?:--[^\\n]*\\n|/\\*.*?\\*/)\\s*)*(SELECT|WITH|VALUES|\\()\\b.*");

  public static final String USAGE = """
      Usage: riverbed-sql [-i INIT.sql ...] [--checkpoint-interval D] [--parallelism N] [--max-rows N]
                          [--flink-conf key=value ...] [-f] SCRIPT.sql
        Runs the statements of the -i scripts, then of SCRIPT.sql (separated by ';'), on an embedded Flink cluster:
        CREATE TABLE t (...) WITH ('connector' = 'hudi', 'path' = '...', 'table.type' = 'MERGE_ON_READ', ...);
        INSERT INTO t SELECT ...;   -- runs until its job ends, then the next statement
        SELECT * FROM t;            -- prints the rows (a streaming read: its changelog, until --max-rows rows)
        SET 'key' = 'value';        -- Flink or table option for the jobs that follow
      """;

  private TableEnvironment tableEnv;
  private final long maxRows;
  /** The configuration {@link #tableEnv} was made from, to make it again in another runtime mode; null if given. */
  private final Configuration conf;
  private boolean declared;

  public SqlScript(TableEnvironment tableEnv) {
    this(tableEnv, Long.MAX_VALUE, null);
  }

  private SqlScript(TableEnvironment tableEnv, long maxRows, Configuration conf) {
    this.tableEnv = tableEnv;
    this.maxRows = maxRows;
    this.conf = conf;
  }

  /**
   * A table environment on {@link StreamExecutionEnvironment#getExecutionEnvironment(Configuration)},
   * in the runtime mode {@code conf} sets (streaming by default); with {@code state.backend.type=rocksdb}
   * (here or by a later {@code SET}) the index's RocksDB settings left unset are added
   * ({@link io.riverbed.flink.index.RocksDbIndexSettings}).
   *
   * @param maxRows rows a query prints at most before its job is cancelled
   */
  public static SqlScript create(Configuration conf, long maxRows) {
    return new SqlScript(tableEnvironment(conf), maxRows, new Configuration(conf));
  }

  private static TableEnvironment tableEnvironment(Configuration conf) {
    io.riverbed.flink.index.RocksDbIndexSettings.apply(conf);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    boolean batch = conf.get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.BATCH;
    return StreamTableEnvironment.create(env, batch ? EnvironmentSettings.inBatchMode() : EnvironmentSettings.inStreamingMode());
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
      String value = set.group(2).replace("''", "'");
      if (set.group(1).equals(ExecutionOptions.RUNTIME_MODE.key())) {
        switchRuntimeMode(value);
      } else {
        tableEnv.getConfig().getConfiguration().setString(set.group(1), value);
        io.riverbed.flink.index.RocksDbIndexSettings.apply(tableEnv.getConfig().getConfiguration());
      }
      return;
    }
    declared = true;
    Matcher reset = RESET.matcher(sql);
    if (reset.matches()) {
      tableEnv.getConfig().getConfiguration().removeKey(reset.group(1));
      return;
    }
    TableResult result = tableEnv.executeSql(sql);
    if (QUERY.matcher(sql).matches() && result.getJobClient().isPresent()) {
      printRows(result, out);
    } else if (result.getJobClient().isPresent()) {
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

  /**
   * Flink fixes the runtime mode when a table environment is made, so a new one is made, which is
   * possible only before the script declared anything the new one would not have.
   */
  private void switchRuntimeMode(String value) {
    Configuration next = new Configuration(tableEnv.getConfig().getConfiguration());
    next.setString(ExecutionOptions.RUNTIME_MODE.key(), value);
    RuntimeExecutionMode mode = next.get(ExecutionOptions.RUNTIME_MODE);
    if (mode == tableEnv.getConfig().get(ExecutionOptions.RUNTIME_MODE)) {
      return;
    }
    if (conf == null || declared) {
      throw new IllegalArgumentException("'" + ExecutionOptions.RUNTIME_MODE.key() + "' can be set only before the "
          + "script's first other statement (e.g. in an -i init script): Flink fixes it when the session starts");
    }
    Configuration rebuilt = new Configuration(conf);
    rebuilt.addAll(next);
    tableEnv = tableEnvironment(rebuilt);
  }

  /** Prints a query's rows as they come; past {@link #maxRows} rows its job is cancelled. */
  private void printRows(TableResult result, Appendable out) throws IOException, InterruptedException,
      java.util.concurrent.ExecutionException {
    out.append(String.join(" | ", result.getResolvedSchema().getColumnNames())).append('\n');
    long printed = 0;
    try (var rows = result.collect()) {
      while (printed < maxRows && rows.hasNext()) {
        out.append(rows.next().toString()).append('\n');
        printed++;
      }
      if (printed == maxRows) {
        result.getJobClient().orElseThrow().cancel().get();
      }
    } catch (IOException | InterruptedException | java.util.concurrent.ExecutionException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
    out.append(printed + (printed == 1 ? " row" : " rows")).append(printed == maxRows ? " (--max-rows reached)\n" : "\n");
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

  /** The command line: init scripts, the script, and the configuration of the embedded cluster. */
  record Arguments(List<String> initScripts, String script, Configuration conf, long maxRows) {
    static Arguments parse(String[] args) {
      Duration interval = Duration.ofSeconds(10);
      Configuration extra = new Configuration();
      Integer parallelism = null;
      String file = null;
      long maxRows = Long.MAX_VALUE;
      List<String> init = new java.util.ArrayList<>();
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--checkpoint-interval" -> interval = TimeUtils.parseDuration(value(args, ++i, a));
          case "--parallelism" -> parallelism = Integer.parseInt(value(args, ++i, a));
          case "--max-rows" -> {
            maxRows = Long.parseLong(value(args, ++i, a));
            if (maxRows < 1) {
              throw new IllegalArgumentException("--max-rows must be at least 1, got " + maxRows);
            }
          }
          case "-i", "--init" -> init.add(value(args, ++i, a));
          case "-f", "--file" -> file = onlyScript(file, value(args, ++i, a));
          case "--flink-conf" -> {
            String kv = value(args, ++i, a);
            int eq = kv.indexOf('=');
            if (eq <= 0) {
              throw new IllegalArgumentException("--flink-conf takes key=value, got '" + kv + "'");
            }
            extra.setString(kv.substring(0, eq), kv.substring(eq + 1));
          }
          default -> {
            if (a.startsWith("-")) {
              throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            file = onlyScript(file, a);
          }
        }
      }
      if (file == null) {
        throw new IllegalArgumentException("missing the SQL script file");
      }
      Configuration conf = defaultConfiguration(interval);
      if (parallelism != null) {
        conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
      }
      conf.addAll(extra);
      return new Arguments(List.copyOf(init), file, conf, maxRows);
    }

    private static String onlyScript(String earlier, String file) {
      if (earlier != null) {
        throw new IllegalArgumentException("one SQL script only, got '" + earlier + "' and '" + file + "' (-i adds init scripts)");
      }
      return file;
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
      System.out.print(USAGE);
      return;
    }
    Arguments arguments;
    try {
      arguments = Arguments.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("riverbed-sql: " + e.getMessage());
      System.err.print(USAGE);
      System.exit(2);
      return;
    }
    SqlScript sql = create(arguments.conf(), arguments.maxRows());
    List<String> files = new java.util.ArrayList<>(arguments.initScripts());
    files.add(arguments.script());
    for (String file : files) {
      String script;
      try {
        script = Files.readString(Path.of(file), StandardCharsets.UTF_8);
      } catch (IOException e) {
        System.err.println("riverbed-sql: cannot read " + file + ": " + e.getMessage());
        System.exit(2);
        return;
      }
      try {
        sql.run(script, System.out);
      } catch (SqlScriptException e) {
        System.err.println("riverbed-sql: " + file + ": " + e.getMessage());
        System.exit(1);
      }
    }
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args[i];
  }
}
