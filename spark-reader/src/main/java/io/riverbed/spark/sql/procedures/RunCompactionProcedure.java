package io.riverbed.spark.sql.procedures;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.ActiveTimeline;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code run_compaction(op, table | path, timestamp, options, instants)} with Hudi 0.15's operations:
 * {@code schedule} plans a compaction; {@code execute} runs the pending ones (or the {@code instants}
 * / {@code timestamp} given); {@code scheduleandexecute} (and its old name {@code run}) plans one and
 * runs it, or runs every pending one when nothing was planned. The rows are the compactions it
 * touched, newest first, in their state afterwards.
 */
final class RunCompactionProcedure extends Procedure {
  private static final List<ProcedureParameter> PARAMETERS = List.of(
      ProcedureParameter.required("op", DataTypes.StringType),
      ProcedureParameter.optional("table", DataTypes.StringType),
      ProcedureParameter.optional("path", DataTypes.StringType),
      ProcedureParameter.optional("timestamp", DataTypes.LongType),
      ProcedureParameter.optional("options", DataTypes.StringType),
      ProcedureParameter.optional("instants", DataTypes.StringType));
  private static final List<String> OPERATIONS = List.of("schedule", "execute", "scheduleandexecute");

  RunCompactionProcedure() {
    super("run_compaction", PARAMETERS, ShowCompactionProcedure.OUTPUT);
  }

  @Override
  List<Row> call(SparkSession spark, ProcedureArguments args) {
    String op = args.string("op").orElseThrow().toLowerCase(Locale.ROOT);
    if (op.equals("run")) {
      op = "scheduleandexecute";
    }
    Optional<String> instants = args.string("instants");
    if (args.longValue("timestamp").isPresent() && instants.isEmpty()) {
      instants = Optional.of(String.valueOf(args.longValue("timestamp").get()));
      op = "execute";
    }
    if (instants.isPresent() && !op.equals("execute")) {
      throw new IllegalArgumentException("CALL run_compaction: instants can only be given with op 'execute', "
          + "given op '" + op + "'");
    }
    if (!OPERATIONS.contains(op)) {
      throw new IllegalArgumentException("CALL run_compaction: unknown op '" + op + "'; the ops are " + OPERATIONS
          + " and run");
    }
    CompactionOptions options = CompactionOptions.fromMap(ProcedureOptions.parse(args));
    Table table = ProcedureTable.open(spark, args);
    String operation = op;
    Optional<String> specific = instants;
    List<String> touched = ProcedureTable.underLease(spark, table, name(),
        t -> compact(t, operation, specific, options));
    ActiveTimeline after = ActiveTimeline.load(table);
    return ShowCompactionProcedure.rows(after, touched.stream().sorted(java.util.Comparator.reverseOrder()).toList());
  }

  private static List<String> compact(Table table, String op, Optional<String> specific, CompactionOptions options) {
    List<String> pending = ActiveTimeline.load(table).pendingCompactions();
    List<String> chosen = new ArrayList<>(pending);
    if (specific.isPresent()) {
      chosen = Arrays.stream(specific.get().split(",")).map(String::trim).filter(s -> !s.isEmpty()).sorted().toList();
      List<String> absent = chosen.stream().filter(t -> !pending.contains(t)).toList();
      if (!absent.isEmpty()) {
        throw new TableException("CALL run_compaction: no pending compaction " + String.join(",", absent)
            + " on table " + table.basePath() + "; pending: " + pending);
      }
    }
    if (!op.equals("execute")) {
      CompactionScheduler.Result scheduled = CompactionScheduler.of(table).options(options).execute();
      if (scheduled.instantTime().isPresent()) {
        chosen = List.of(scheduled.instantTime().get());
      }
    }
    if (!op.equals("schedule")) {
      for (String time : chosen) {
        CompactionRunner.of(table, time).options(options).execute();
      }
    }
    return chosen;
  }
}
