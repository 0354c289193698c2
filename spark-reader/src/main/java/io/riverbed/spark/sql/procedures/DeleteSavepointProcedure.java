package io.riverbed.spark.sql.procedures;

import io.riverbed.format.TableException;
import io.riverbed.format.savepoint.DeleteSavepoint;
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
 * {@code delete_savepoint(table | path, instant_time)}: deletes the savepoints named (comma-separated),
 * or the latest one when {@code instant_time} is empty, with the core's {@link DeleteSavepoint}; a
 * deletion the core refuses (a restore to it is pending) is a {@code false} result, as in Hudi.
 */
final class DeleteSavepointProcedure extends Procedure {
  private static final Logger LOG = LoggerFactory.getLogger(DeleteSavepointProcedure.class);
  private static final List<ProcedureParameter> PARAMETERS = List.of(
      ProcedureParameter.optional("table", DataTypes.StringType),
      ProcedureParameter.optional("instant_time", DataTypes.StringType, ""),
      ProcedureParameter.optional("path", DataTypes.StringType));
  private static final StructType OUTPUT = new StructType().add("delete_savepoint_result", DataTypes.BooleanType);

  DeleteSavepointProcedure() {
    super("delete_savepoint", PARAMETERS, OUTPUT);
  }

  @Override
  List<Row> call(SparkSession spark, ProcedureArguments args) {
    Table table = ProcedureTable.open(spark, args);
    List<String> savepoints = SavepointChoice.chosen(table, name(), args.string("instant_time").orElseThrow());
    boolean deleted = ProcedureTable.underLease(spark, table, name(), t -> {
      boolean all = true;
      for (String savepoint : savepoints) {
        try {
          all &= DeleteSavepoint.of(t, savepoint).execute();
        } catch (TableException e) {
          LOG.warn("Could not delete savepoint {} of table {}: {}", savepoint, t.basePath(), e.getMessage());
          all = false;
        }
      }
      return all;
    });
    return List.of(RowFactory.create(deleted));
  }
}
