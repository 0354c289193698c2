package io.riverbed.spark.sql.procedures;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** {@code show_savepoints(table | path)}: the completed savepoints, newest first. */
final class ShowSavepointsProcedure extends Procedure {
  private static final List<ProcedureParameter> PARAMETERS = List.of(
      ProcedureParameter.optional("table", DataTypes.StringType),
      ProcedureParameter.optional("path", DataTypes.StringType));
  private static final StructType OUTPUT = new StructType().add("savepoint_time", DataTypes.StringType);

  ShowSavepointsProcedure() {
    super("show_savepoints", PARAMETERS, OUTPUT);
  }

  @Override
  List<Row> call(SparkSession spark, ProcedureArguments args) {
    Table table = ProcedureTable.open(spark, args);
    return table.refreshTimeline().ofAction(Action.SAVEPOINT).completed().instants().stream()
        .map(Instant::time).sorted(Comparator.reverseOrder()).map(t -> RowFactory.create(t)).toList();
  }
}
