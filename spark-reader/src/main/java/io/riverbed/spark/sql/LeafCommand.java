package io.riverbed.spark.sql;

import java.util.List;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Statistics;
import org.apache.spark.sql.catalyst.plans.logical.Statistics$;
import org.apache.spark.sql.catalyst.trees.TreePattern$;
import org.apache.spark.sql.execution.command.LeafRunnableCommand;
import scala.Enumeration;
import scala.collection.IndexedSeq;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * A runnable leaf command written in Java: what Scala's case classes give Hudi's commands (no
 * children, one product element Spark copies the command by, the command tree pattern). A
 * subclass needs a public constructor taking its {@link #element()}.
 */
public abstract class LeafCommand extends LogicalPlan implements LeafRunnableCommand {
  private static final long serialVersionUID = 1L;
  private static final Seq<Enumeration.Value> PATTERNS =
      JavaConverters.asScalaBuffer(List.of(TreePattern$.MODULE$.COMMAND())).toList();
  private static final Seq<LogicalPlan> NO_CHILDREN = JavaConverters.asScalaBuffer(List.<LogicalPlan>of()).toList();

  /** The command's one product element. */
  protected abstract Object element();

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
      throw new IllegalArgumentException(getClass().getSimpleName() + " is a leaf; given children " + children);
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
  public int productArity() {
    return 1;
  }

  @Override
  public Object productElement(int n) {
    if (n != 0) {
      throw new IndexOutOfBoundsException(String.valueOf(n));
    }
    return element();
  }

  @Override
  public boolean canEqual(Object that) {
    return that != null && that.getClass() == getClass();
  }
}
