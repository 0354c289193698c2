package io.riverbed.spark.sql.procedures;

import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleanResult;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CleanMetadata;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code run_clean(table, ...)}: Hudi's clean action with the core's {@link Cleaner}: pending cleans
 * are finished, then (unless {@code schedule_in_line => false}) a new one is planned and run under
 * the retention the arguments set; the row is the metadata of the last clean it completed, none
 * when there was nothing to clean.
 */
final class RunCleanProcedure extends Procedure {
  private static final List<ProcedureParameter> PARAMETERS = List.of(
      ProcedureParameter.required("table", DataTypes.StringType),
      ProcedureParameter.optional("skip_locking", DataTypes.BooleanType, false),
      ProcedureParameter.optional("schedule_in_line", DataTypes.BooleanType, true),
      ProcedureParameter.optional("clean_policy", DataTypes.StringType),
      ProcedureParameter.optional("retain_commits", DataTypes.IntegerType),
      ProcedureParameter.optional("hours_retained", DataTypes.IntegerType),
      ProcedureParameter.optional("file_versions_retained", DataTypes.IntegerType),
      ProcedureParameter.optional("trigger_strategy", DataTypes.StringType),
      ProcedureParameter.optional("trigger_max_commits", DataTypes.IntegerType),
      ProcedureParameter.optional("options", DataTypes.StringType));
  private static final StructType OUTPUT = new StructType().add("start_clean_time", DataTypes.StringType)
      .add("time_taken_in_millis", DataTypes.LongType).add("total_files_deleted", DataTypes.IntegerType)
      .add("earliest_commit_to_retain", DataTypes.StringType).add("bootstrap_part_metadata", DataTypes.StringType)
      .add("version", DataTypes.IntegerType);
  /** Hudi's {@code hoodie.clean.trigger.strategy}; NUM_COMMITS is its only strategy. */
  private static final String TRIGGER_STRATEGY = "NUM_COMMITS";

  RunCleanProcedure() {
    super("run_clean", PARAMETERS, OUTPUT);
  }

  @Override
  List<Row> call(SparkSession spark, ProcedureArguments args) {
    Map<String, String> conf = new HashMap<>();
    args.string("clean_policy").ifPresent(v -> conf.put(CleanOptions.POLICY, v));
    args.integer("retain_commits").ifPresent(v -> conf.put(CleanOptions.COMMITS_RETAINED, v.toString()));
    args.integer("hours_retained").ifPresent(v -> conf.put(CleanOptions.HOURS_RETAINED, v.toString()));
    args.integer("file_versions_retained").ifPresent(v -> conf.put(CleanOptions.FILE_VERSIONS_RETAINED, v.toString()));
    args.integer("trigger_max_commits").ifPresent(v -> conf.put(CleanOptions.MAX_COMMITS, v.toString()));
    conf.putAll(ProcedureOptions.parse(args));
    Optional<String> strategy = args.string("trigger_strategy");
    if (strategy.isPresent() && !strategy.get().toUpperCase(Locale.ROOT).equals(TRIGGER_STRATEGY)) {
      throw new IllegalArgumentException("CALL run_clean: trigger_strategy " + strategy.get() + " is not a clean "
          + "trigger strategy; the only one is " + TRIGGER_STRATEGY);
    }
    CleanOptions options = CleanOptions.fromMap(conf);
    boolean scheduleInLine = args.bool("schedule_in_line");
    Table table = ProcedureTable.open(spark, args);
    List<CleanResult> done = ProcedureTable.underLease(spark, table, name(), t -> {
      Cleaner cleaner = Cleaner.of(t).options(options);
      return scheduleInLine ? cleaner.execute() : cleaner.executePendingCleans();
    });
    if (done.isEmpty()) {
      return List.of();
    }
    CleanMetadata m = done.get(done.size() - 1).metadata();
    return List.of(RowFactory.create(m.startCleanTime(), m.timeTakenInMillis(), m.totalFilesDeleted(),
        m.earliestCommitToRetain(), bootstrapJson(m), m.version()));
  }

  /** Riverbed does not bootstrap tables, so the map is empty (or absent, in a clean Hudi wrote without it). */
  private static String bootstrapJson(CleanMetadata m) {
    if (m.bootstrapPartitionMetadata() == null) {
      return "null";
    }
    if (!m.bootstrapPartitionMetadata().isEmpty()) {
      throw new IllegalStateException("clean " + m.startCleanTime() + " carries bootstrap partition metadata, "
          + "which Riverbed does not write");
    }
    return "{}";
  }
}
