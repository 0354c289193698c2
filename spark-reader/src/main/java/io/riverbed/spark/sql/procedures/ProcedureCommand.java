package io.riverbed.spark.sql.procedures;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Statistics;
import org.apache.spark.sql.catalyst.plans.logical.Statistics$;
import org.apache.spark.sql.catalyst.trees.TreePattern$;
import org.apache.spark.sql.catalyst.types.DataTypeUtils$;
import org.apache.spark.sql.execution.command.LeafRunnableCommand;
import scala.Enumeration;
import scala.collection.IndexedSeq;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * The command a {@code CALL} becomes: runs its procedure when the statement executes (not when it
 * is parsed or explained), with the procedure's output columns.
 */
public final class ProcedureCommand extends LogicalPlan implements LeafRunnableCommand {
  private static final long serialVersionUID = 1L;
  private static final Seq<Enumeration.Value> PATTERNS =
      JavaConverters.asScalaBuffer(List.of(TreePattern$.MODULE$.COMMAND())).toList();
  private static final Seq<LogicalPlan> NO_CHILDREN = JavaConverters.asScalaBuffer(List.<LogicalPlan>of()).toList();

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
  public AttributeSet producedAttributes() {
    return outputSet();
  }

  @Override
  public Statistics stats() {
    return Statistics$.MODULE$.DUMMY();
  }

  @Override
  public Seq<LogicalPlan> children() {
    return NO_CHILDREN;
  }

  @Override
  public LogicalPlan withNewChildrenInternal(IndexedSeq<LogicalPlan> children) {
    if (!children.isEmpty()) {
      throw new IllegalArgumentException("ProcedureCommand is a leaf; given children " + children);
    }
    return this;
  }

  @Override
  public Seq<Enumeration.Value> nodePatterns() {
    return PATTERNS;
  }

  @Override
  public void org$apache$spark$sql$catalyst$plans$logical$Command$_setter_$nodePatterns_$eq(Seq<Enumeration.Value> patterns) {
    // the patterns are PATTERNS, fixed for every instance
  }

  @Override
  public String simpleString(int maxFields) {
    return "CallProcedure " + procedure.name();
  }

  @Override
  public int productArity() {
    return 1;
  }

  @Override
  public Object productElement(int n) {
    if (n != 0) {
      throw new IndexOutOfBoundsException(String.valueOf(n));
    }
    return call;
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof ProcedureCommand;
  }
}
