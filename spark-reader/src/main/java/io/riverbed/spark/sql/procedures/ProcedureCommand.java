package io.riverbed.spark.sql.procedures;

import io.riverbed.spark.sql.LeafCommand;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.types.DataTypeUtils$;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * The command a {@code CALL} becomes: runs its procedure when the statement executes (not when it
 * is parsed or explained), with the procedure's output columns.
 */
public final class ProcedureCommand extends LeafCommand {
  private static final long serialVersionUID = 1L;

  private final transient Call call;
  private final transient Procedure procedure;
  private final Seq<Attribute> output;

  /** A procedure with its bound arguments: the command's one product element, which Spark copies it by. */
  record Call(Procedure procedure, ProcedureArguments arguments) {}

  public ProcedureCommand(Call call) {
    this.call = call;
    this.procedure = call.procedure();
    this.output = JavaConverters.asScalaBuffer(List.<Attribute>copyOf(
        JavaConverters.seqAsJavaList(DataTypeUtils$.MODULE$.toAttributes(procedure.outputType())))).toList();
  }

  @Override
  public Seq<Row> run(SparkSession spark) {
    return JavaConverters.asScalaBuffer(procedure.call(spark, call.arguments())).toList();
  }

  @Override
  public Seq<Attribute> output() {
    return output;
  }

  @Override
  public String simpleString(int maxFields) {
    return "CallProcedure " + procedure.name();
  }

  @Override
  protected Object element() {
    return call;
  }
}
