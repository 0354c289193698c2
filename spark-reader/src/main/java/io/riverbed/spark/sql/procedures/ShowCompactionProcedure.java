package io.riverbed.spark.sql.procedures;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.ActiveTimeline;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code show_compaction(table | path, limit => 20)}: the compactions of a MERGE_ON_READ table's
 * active timeline, newest first: time, the file groups its plan compacts and its state.
 */
final class ShowCompactionProcedure extends Procedure {
  static final StructType OUTPUT = new StructType().add("timestamp", DataTypes.StringType)
      .add("operation_size", DataTypes.IntegerType).add("state", DataTypes.StringType);
  private static final List<ProcedureParameter> PARAMETERS = List.of(
      ProcedureParameter.optional("table", DataTypes.StringType),
      ProcedureParameter.optional("path", DataTypes.StringType),
      ProcedureParameter.optional("limit", DataTypes.IntegerType, 20));

  ShowCompactionProcedure() {
    super("show_compaction", PARAMETERS, OUTPUT);
  }

  @Override
  List<Row> call(SparkSession spark, ProcedureArguments args) {
    Table table = ProcedureTable.open(spark, args);
    if (table.type() != TableType.MERGE_ON_READ) {
      throw new IllegalArgumentException("CALL show_compaction: cannot show compaction on a non Merge On Read table ("
          + table.basePath() + ")");
    }
    ActiveTimeline active = ActiveTimeline.load(table);
    List<String> times = new ArrayList<>(active.compactions().descendingKeySet());
    return rows(active, times.subList(0, Math.min(times.size(), args.integer("limit").orElseThrow())));
  }

  /** One row per compaction time, in the order given. */
  static List<Row> rows(ActiveTimeline active, List<String> times) {
    return times.stream().map(t -> RowFactory.create(t, active.plan(t).operations().size(),
        active.compactionState(t).orElseThrow().name())).toList();
  }
}
