package io.riverbed.spark.sql.procedures;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * A {@code CALL} procedure under Apache Hudi 0.15's name, parameters and output columns, over the
 * core's operations.
 */
abstract class Procedure {
  private final String name;
  private final List<ProcedureParameter> parameters;
  private final StructType outputType;

  Procedure(String name, List<ProcedureParameter> parameters, StructType outputType) {
    this.name = name;
    this.parameters = parameters;
    this.outputType = outputType;
  }

  final String name() {
    return name;
  }

  final List<ProcedureParameter> parameters() {
    return parameters;
  }

  final StructType outputType() {
    return outputType;
  }

  /** Runs the procedure with its bound arguments; the rows match {@link #outputType()}. */
  abstract List<Row> call(SparkSession spark, ProcedureArguments args);
}
