package io.riverbed.spark.sql.procedures;

import io.riverbed.format.TableException;
import io.riverbed.format.savepoint.Restore;
import io.riverbed.format.table.Table;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code rollback_to_savepoint(table | path, instant_time)}: restores the table to the savepoint
 * (the latest one when {@code instant_time} is empty) with the core's {@link Restore}; a restore the
 * core refuses (a newer savepoint, a pending restore elsewhere) is a {@code false} result, as in Hudi.
 */
final class RollbackToSavepointProcedure extends Procedure {
  private static final Logger LOG = LoggerFactory.getLogger(RollbackToSavepointProcedure.class);
  private static final List<ProcedureParameter> PARAMETERS = List.of(
      ProcedureParameter.optional("table", DataTypes.StringType),
      ProcedureParameter.optional("instant_time", DataTypes.StringType, ""),
      ProcedureParameter.optional("path", DataTypes.StringType));
  private static final StructType OUTPUT = new StructType().add("rollback_savepoint_result", DataTypes.BooleanType);

  RollbackToSavepointProcedure() {
    super("rollback_to_savepoint", PARAMETERS, OUTPUT);
  }

  @Override
  List<Row> call(SparkSession spark, ProcedureArguments args) {
    Table table = ProcedureTable.open(spark, args);
    String savepoint = SavepointChoice.chosen(table, name(), args.string("instant_time").orElseThrow()).get(0);
    boolean restored = ProcedureTable.underLease(spark, table, name(), t -> {
      try {
        Restore.of(t, savepoint).execute();
        return true;
      } catch (TableException e) {
        LOG.warn("Could not restore table {} to savepoint {}: {}", t.basePath(), savepoint, e.getMessage());
        return false;
      }
    });
    return List.of(RowFactory.create(restored));
  }
}
