package io.riverbed.spark;

import io.riverbed.format.TableException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * {@code riverbed-read}: reads a table with the {@code hudi} DataSource in a local Spark and
 * prints the rows, as JSON lines (default) or a text table.
 *
 * <pre>
 * riverbed-read --table PATH [--query snapshot|read_optimized|incremental] [--begin T] [--end T]
 *               [--as-of T] [--sql "SELECT ... FROM t"] [--output jsonl|table] [--limit N]
 *               [--option KEY=VALUE]...
 * </pre>
 */
public final class ReadMain {
  static final String USAGE = """
      usage: riverbed-read --table PATH [--query snapshot|read_optimized|incremental] [--begin T] [--end T]
                           [--as-of T] [--sql "SELECT ... FROM t"] [--output jsonl|table] [--limit N]
                           [--option KEY=VALUE]...
        --table    table base path (or a legacy glob such as PATH/*/*)
        --query    hoodie.datasource.query.type (default snapshot)
        --begin    hoodie.datasource.read.begin.instanttime (incremental; exclusive; 000 = from the start)
        --end      hoodie.datasource.read.end.instanttime (incremental; inclusive)
        --as-of    as.of.instant: yyyyMMddHHmmssSSS, 'yyyy-MM-dd HH:mm:ss' or yyyy-MM-dd
        --sql      a query over the table, registered as the view t
        --output   jsonl (one JSON object per row, default) or table
        --limit    at most N rows
        --option   any other read option, e.g. hoodie.memory.merge.max.size=104857600
      """;

  private ReadMain() {}

  /** Parsed command line. */
  record Args(String table, Map<String, String> options, String sql, String output, int limit) {
    static Args parse(String[] argv) {
      String table = null;
      String sql = null;
      String output = "jsonl";
      int limit = -1;
      Map<String, String> options = new LinkedHashMap<>();
      for (int i = 0; i < argv.length; i++) {
        String a = argv[i];
        if (a.equals("-h") || a.equals("--help")) {
          throw new Usage(null);
        }
        if (i + 1 >= argv.length) {
          throw new Usage("missing value for " + a);
        }
        String v = argv[++i];
        switch (a) {
          case "--table" -> table = v;
          case "--query" -> options.put(ReadOption.QUERY_TYPE.key(), v);
          case "--begin" -> options.put(ReadOption.BEGIN_INSTANT.key(), v);
          case "--end" -> options.put(ReadOption.END_INSTANT.key(), v);
          case "--as-of" -> options.put(ReadOption.AS_OF_INSTANT.key(), v);
          case "--sql" -> sql = v;
          case "--output" -> {
            if (!v.equals("jsonl") && !v.equals("table")) {
              throw new Usage("--output must be jsonl or table, not '" + v + "'");
            }
            output = v;
          }
          case "--limit" -> {
            try {
              limit = Integer.parseInt(v);
            } catch (NumberFormatException e) {
              throw new Usage("--limit must be a number, not '" + v + "'");
            }
          }
          case "--option" -> {
            int eq = v.indexOf('=');
            if (eq <= 0) {
              throw new Usage("--option must be KEY=VALUE, not '" + v + "'");
            }
            options.put(v.substring(0, eq), v.substring(eq + 1));
          }
          default -> throw new Usage("unknown argument " + a);
        }
      }
      if (table == null) {
        throw new Usage("--table is required");
      }
      return new Args(table, options, sql, output, limit);
    }
  }

  /**
   * The session: under spark-submit, the master and every --conf it was given (Spark passes them
   * as system properties); run as a plain program (riverbed-read), a local Spark on the loopback
   * interface without UI. Timestamps print in UTC and shuffles use 4 partitions unless configured.
   */
  static SparkSession.Builder session() {
    String master = System.getProperty("spark.master", "local[*]");
    SparkSession.Builder builder = SparkSession.builder().master(master).appName("riverbed-read")
        .config("spark.sql.session.timeZone", System.getProperty("spark.sql.session.timeZone", "UTC"))
        .config("spark.sql.shuffle.partitions", System.getProperty("spark.sql.shuffle.partitions", "4"));
    if (master.startsWith("local")) {
      builder.config("spark.ui.enabled", System.getProperty("spark.ui.enabled", "false"))
          .config("spark.driver.host", System.getProperty("spark.driver.host", "127.0.0.1"))
          .config("spark.driver.bindAddress", System.getProperty("spark.driver.bindAddress", "127.0.0.1"));
    }
    return builder;
  }

  static final class Usage extends RuntimeException {
    Usage(String message) {
      super(message);
    }
  }

  public static void main(String[] argv) {
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    int status;
    try {
      Args args = Args.parse(argv);
      Map<String, String> check = new LinkedHashMap<>(args.options());
      check.put(ReadOptions.PATH, args.table());
      ReadOptions.from(check); // option errors before Spark starts
      SparkSession spark = session().getOrCreate();
      try {
        print(read(spark, args), args, out);
        status = 0;
      } finally {
        spark.stop();
      }
    } catch (Usage u) {
      System.err.println(u.getMessage() == null ? USAGE : "riverbed-read: " + u.getMessage() + "\n" + USAGE);
      status = u.getMessage() == null ? 0 : 2;
    } catch (Exception e) {
      System.err.println("riverbed-read: " + explain(e));
      status = 1;
    }
    out.flush();
    System.exit(status);
  }

  static Dataset<Row> read(SparkSession spark, Args args) {
    DataFrameReader reader = spark.read().format(HudiDataSource.class.getName());
    args.options().forEach(reader::option);
    Dataset<Row> df = reader.load(args.table());
    if (args.sql() != null) {
      df.createOrReplaceTempView("t");
      df = spark.sql(args.sql());
    }
    return args.limit() >= 0 ? df.limit(args.limit()) : df;
  }

  static void print(Dataset<Row> df, Args args, PrintStream out) {
    if (args.output().equals("table")) {
      out.print(df.showString(Integer.MAX_VALUE, 0, false));
      return;
    }
    Map<String, String> json = Map.of("timestampFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX", "dateFormat", "yyyy-MM-dd",
        "ignoreNullFields", "false");
    Column row = functions.struct(Arrays.stream(df.columns()).map(c -> df.col("`" + c.replace("`", "``") + "`")).toArray(Column[]::new));
    Iterator<String> lines = df.select(functions.to_json(row, json)).as(Encoders.STRING()).toLocalIterator();
    while (lines.hasNext()) {
      out.println(lines.next());
    }
  }

  /** The message of the reader's own error (or Spark's analysis error) instead of a stack trace. */
  static String explain(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TableException || t instanceof AnalysisException || t instanceof IllegalArgumentException) {
        return t.getMessage();
      }
    }
    return e.toString();
  }
}
