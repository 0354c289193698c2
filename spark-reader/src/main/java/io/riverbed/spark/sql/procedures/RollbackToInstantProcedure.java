package io.riverbed.spark.sql.procedures;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.write.InstantRollback;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code rollback_to_instant(table, instant_time)}: rolls back one completed commit, deltacommit or
 * replacecommit with the core's {@link InstantRollback} (Hudi's checks: nothing after it, no savepoint on it).
 */
final class RollbackToInstantProcedure extends Procedure {
  private static final List<ProcedureParameter> PARAMETERS = List.of(
      ProcedureParameter.required("table", DataTypes.StringType),
      ProcedureParameter.required("instant_time", DataTypes.StringType));
  private static final StructType OUTPUT = new StructType().add("rollback_result", DataTypes.BooleanType);

  RollbackToInstantProcedure() {
    super("rollback_to_instant", PARAMETERS, OUTPUT);
  }

  @Override
  List<Row> call(SparkSession spark, ProcedureArguments args) {
    Table table = ProcedureTable.open(spark, args);
    String instant = args.string("instant_time").orElseThrow();
    Timeline completed = table.refreshTimeline().commitsTimeline().completed();
    if (!completed.containsTime(instant)) {
      throw new TableException("CALL rollback_to_instant: commit " + instant + " not found in the completed commits "
          + "of table " + table.basePath() + " " + completed.times());
    }
    ProcedureTable.underLease(spark, table, name(), t -> InstantRollback.of(t, instant).execute());
    return List.of(RowFactory.create(true));
  }
}
