package io.riverbed.flink.job;

import io.riverbed.flink.source.BadRecordPolicy;
import io.riverbed.flink.source.JsonLineSources.StartingOffsets;
import io.riverbed.flink.source.JsonSchemaInference;
import io.riverbed.format.options.SecretOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.util.TimeUtils;

/**
 * Parses the write job's command line ({@code --flag value} or {@code --flag=value}) into a
 * {@link WriteJobConfig}, or fails with a {@link UsageException} that says which flag is wrong.
 */
public final class WriteJobArguments {
  private WriteJobArguments() {}

  public static final String USAGE = """
      Usage: riverbed-write --source file|kafka [source flags] --table-path P --table-name N
                            --table-type MERGE_ON_READ|COPY_ON_WRITE --record-key F[,F]
                            --precombine F [--partition-path F[,F]] [options]
        (or on a Flink 1.20 cluster: flink run flink-writer/target/riverbed-flink-writer-<version>-job.jar
         <same flags> -- the job jar's main class is this job; it bundles Riverbed, Avro, Parquet,
         Jackson, Hadoop's client and the Kafka connector, not Flink; build it with
         mvn -pl flink-writer -am package -DskipTests)

      Source (JSON objects, one per line / per Kafka record value):
        --source file|kafka
        --input PATH                 file: a JSON-lines file or a directory of them; the job ends
                                     once the last record is committed
        --bootstrap-servers H:P[,H:P] kafka: brokers
        --topic T                    kafka: topic
        --group-id G                 kafka: consumer group (default riverbed-<table-name>)
        --starting-offsets committed|earliest|latest
                                     kafka, first start only (default committed, falling back to
                                     earliest); a restore continues from the checkpoint
        --bounded                    kafka: stop at the latest offsets seen at start

      Table:
        --table-path P               base path (file:/..., hdfs://..., s3a://...)
        --table-name N
        --table-type T               MERGE_ON_READ or COPY_ON_WRITE
        --record-key F[,F]           record key field(s); nested fields as a.b
        --precombine F               ordering field (larger wins), or no_precombine
        --partition-path F[,F]       partition field(s); omit for a non-partitioned table
        --hive-style                 partition folders named field=value
        --operation upsert|insert|delete   (default upsert; delete deletes the given keys)
                                     A new run (not --restore) loads the keys already in the
                                     table into its index first (index.bootstrap.enabled)
        --set key=value              any writer option under its Hudi Flink name (repeatable),
                                     e.g. --set compaction.delta_commits=3

      Records:
        --schema FILE.avsc           Avro record schema of the JSON records; without it the
                                     schema is inferred from the first records of --input
        --infer-sample N             records sampled for inference (default 100)
        --on-bad-record fail|skip    a line that is not JSON or does not fit the schema fails
                                     the job naming its line (default), or is skipped, counted
                                     and logged
        --new-fields ignore|add      top-level fields not in the schema are ignored (default),
                                     or become new nullable columns of the table while the job
                                     runs: typed from their first value, written from that
                                     record on, in the table schema from the next commit

      Runtime:
        --checkpoint-interval D      commit interval, e.g. 10s, 500ms, 1min (default 10s)
        --checkpoint-dir D           retained checkpoints (kept on cancel, for --restore);
                                     default TABLE-PATH/.hoodie/.aux/riverbed-checkpoints
        --restore latest|PATH        resume from the newest checkpoint in --checkpoint-dir, or
                                     from the given checkpoint/savepoint; once the restored run
                                     completed a checkpoint, the earlier run's checkpoints in
                                     --checkpoint-dir are deleted (keep them with
                                     --set checkpoints.clean-earlier-runs=false)
        --parallelism N              job parallelism (default: Flink's)
        --flink-conf key=value       a Flink configuration option (repeatable)
        --help
      """;

  /**
   * Checkpoints go to files by default, next to the table in its auxiliary folder (readers ignore
   * it): the JobManager's memory holds 5 MB, less than the key index of a real table.
   */
  static String defaultCheckpointDir(String tablePath) {
    return new org.apache.hadoop.fs.Path(tablePath, ".hoodie/.aux/riverbed-checkpoints").toString();
  }

  private static final Set<String> VALUE_FLAGS = Set.of(
      "source", "input", "bootstrap-servers", "topic", "group-id", "starting-offsets",
      "table-path", "table-name", "table-type", "record-key", "precombine", "partition-path",
      "operation", "set", "schema", "infer-sample", "on-bad-record", "new-fields", "checkpoint-interval",
      "checkpoint-dir", "restore", "parallelism", "flink-conf");
  private static final Set<String> SWITCHES = Set.of("hive-style", "bounded", "help");
  private static final Set<String> REPEATABLE = Set.of("set", "flink-conf");
  private static final Set<String> FILE_ONLY = Set.of("input", "infer-sample");
  private static final Set<String> KAFKA_ONLY = Set.of("bootstrap-servers", "topic", "group-id", "starting-offsets", "bounded");

  public static boolean wantsHelp(String[] args) {
    return args.length == 0 || Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h");
  }

  public static WriteJobConfig parse(String... args) {
    Map<String, String> single = new LinkedHashMap<>();
    Map<String, List<String>> repeated = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new UsageException("unexpected argument '" + arg + "'; flags start with --");
      }
      String name = arg.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (SWITCHES.contains(name)) {
        if (value != null) {
          throw new UsageException("--" + name + " takes no value");
        }
        single.put(name, "true");
        continue;
      }
      if (!VALUE_FLAGS.contains(name)) {
        throw new UsageException("unknown flag --" + name);
      }
      if (value == null) {
        if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
          throw new UsageException("--" + name + " needs a value");
        }
        value = args[++i];
      }
      if (REPEATABLE.contains(name)) {
        repeated.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
      } else if (single.put(name, value) != null) {
        throw new UsageException("--" + name + " given twice");
      }
    }
    return build(single, repeated);
  }

  private static WriteJobConfig build(Map<String, String> f, Map<String, List<String>> repeated) {
    WriteJobConfig.SourceKind kind = switch (required(f, "source").toLowerCase(Locale.ROOT)) {
      case "file" -> WriteJobConfig.SourceKind.FILE;
      case "kafka" -> WriteJobConfig.SourceKind.KAFKA;
      default -> throw new UsageException("--source must be file or kafka, got '" + f.get("source") + "'");
    };
    Set<String> notHere = kind == WriteJobConfig.SourceKind.FILE ? KAFKA_ONLY : FILE_ONLY;
    for (String flag : notHere) {
      if (f.containsKey(flag)) {
        throw new UsageException("--" + flag + " does not apply to --source " + kind.name().toLowerCase(Locale.ROOT));
      }
    }
    String tableName = required(f, "table-name");
    WriteJobConfig.Source source = kind == WriteJobConfig.SourceKind.FILE
        ? new WriteJobConfig.Source(kind, required(f, "input"), null, null, null, null, false)
        : new WriteJobConfig.Source(kind, null, required(f, "bootstrap-servers"), required(f, "topic"),
            f.getOrDefault("group-id", "riverbed-" + tableName),
            parse("starting-offsets", f.getOrDefault("starting-offsets", "committed"), StartingOffsets::parse),
            f.containsKey("bounded"));

    String type = required(f, "table-type").toUpperCase(Locale.ROOT);
    if (!type.equals("MERGE_ON_READ") && !type.equals("COPY_ON_WRITE")) {
      throw new UsageException("--table-type must be MERGE_ON_READ or COPY_ON_WRITE, got '" + f.get("table-type") + "'");
    }
    String operation = f.getOrDefault("operation", "upsert").toLowerCase(Locale.ROOT);
    if (!List.of("upsert", "insert", "delete").contains(operation)) {
      throw new UsageException("--operation must be upsert, insert or delete, got '" + f.get("operation") + "'");
    }
    WriteJobConfig.Table table = new WriteJobConfig.Table(
        required(f, "table-path"), tableName, type,
        fields("record-key", required(f, "record-key")),
        required(f, "precombine"),
        f.containsKey("partition-path") ? fields("partition-path", f.get("partition-path")) : List.of(),
        f.containsKey("hive-style"), operation);

    if (kind == WriteJobConfig.SourceKind.KAFKA && !f.containsKey("schema")) {
      throw new UsageException("--source kafka needs --schema FILE.avsc (schema inference samples --input files only)");
    }
    int sample = f.containsKey("infer-sample") ? positiveInt("infer-sample", f.get("infer-sample")) : JsonSchemaInference.DEFAULT_SAMPLE;
    WriteJobConfig.Input input = new WriteJobConfig.Input(Optional.ofNullable(f.get("schema")), sample,
        parse("on-bad-record", f.getOrDefault("on-bad-record", "fail"), BadRecordPolicy::parse),
        parse("new-fields", f.getOrDefault("new-fields", "ignore"), WriteJobArguments::addsNewFields));

    Duration interval = parse("checkpoint-interval", f.getOrDefault("checkpoint-interval", "10s"), TimeUtils::parseDuration);
    if (interval.isZero() || interval.isNegative()) {
      throw new UsageException("--checkpoint-interval must be positive, got '" + f.get("checkpoint-interval") + "'");
    }
    Optional<String> restore = Optional.ofNullable(f.get("restore"));
    String checkpointDir = f.getOrDefault("checkpoint-dir", defaultCheckpointDir(table.path()));
    WriteJobConfig.Checkpoints checkpoints = new WriteJobConfig.Checkpoints(interval, Optional.of(checkpointDir), restore);

    Optional<Integer> parallelism = f.containsKey("parallelism")
        ? Optional.of(positiveInt("parallelism", f.get("parallelism"))) : Optional.empty();
    return new WriteJobConfig(source, table, input, checkpoints, parallelism,
        keyValues("set", repeated.getOrDefault("set", List.of())),
        keyValues("flink-conf", repeated.getOrDefault("flink-conf", List.of())));
  }

  private static boolean addsNewFields(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "add" -> true;
      case "ignore" -> false;
      default -> throw new IllegalArgumentException("must be 'ignore' or 'add', got '" + value + "'");
    };
  }

  private static String required(Map<String, String> f, String flag) {
    String v = f.get(flag);
    if (v == null || v.isBlank()) {
      throw new UsageException("missing --" + flag);
    }
    return v;
  }

  private static List<String> fields(String flag, String value) {
    List<String> out = new ArrayList<>();
    for (String s : value.split(",")) {
      String t = s.trim();
      if (t.isEmpty()) {
        throw new UsageException("--" + flag + " has an empty field name in '" + value + "'");
      }
      out.add(t);
    }
    return List.copyOf(out);
  }

  private static int positiveInt(String flag, String value) {
    try {
      int n = Integer.parseInt(value.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("--" + flag + " must be a positive integer, got '" + value + "'");
  }

  private static Map<String, String> keyValues(String flag, List<String> values) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String v : values) {
      int eq = v.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("--" + flag + " takes key=value, got '" + SecretOptions.redact(v, v) + "'");
      }
      out.put(v.substring(0, eq).trim(), v.substring(eq + 1).trim());
    }
    return out;
  }

  private static <T> T parse(String flag, String value, java.util.function.Function<String, T> parser) {
    try {
      return parser.apply(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--" + flag + ": " + e.getMessage());
    }
  }
}
