package io.riverbed.spark;

import io.riverbed.spark.sql.DelegatingParser;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedAttribute$;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.Assignment;
import org.apache.spark.sql.catalyst.plans.logical.InsertAction;
import org.apache.spark.sql.catalyst.plans.logical.InsertStarAction;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeAction;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.UpdateAction;
import org.apache.spark.sql.catalyst.plans.logical.UpdateStarAction;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * Spark's SQL parser with one addition (from {@link RiverbedSessionExtension}): in a {@code MERGE INTO}
 * a Hudi table, {@code UPDATE SET *} and {@code INSERT *} become assignments of the table's data
 * columns from the source's columns of the same names. Spark would expand a star to Hudi's
 * {@code _hoodie_*} meta columns too, which no source has, and fail the analysis; Hudi's extension
 * expands it to the data columns as well.
 */
final class MergeStarParser extends DelegatingParser {
  private final SparkSession session;

  MergeStarParser(SparkSession session, ParserInterface delegate) {
    super(delegate);
    this.session = session;
  }

  @Override
  public LogicalPlan parsePlan(String sqlText) throws ParseException {
    LogicalPlan plan = delegate.parsePlan(sqlText);
    if (!(plan instanceof MergeIntoTable merge) || !hasStar(merge)) {
      return plan;
    }
    Optional<List<String>> columns = hudiDataColumns(merge.targetTable());
    Optional<String> source = qualifier(merge.sourceTable());
    if (columns.isEmpty() || source.isEmpty()) {
      return plan;
    }
    return merge.copy(merge.targetTable(), merge.sourceTable(), merge.mergeCondition(),
        expand(merge.matchedActions(), columns.get(), source.get()),
        expand(merge.notMatchedActions(), columns.get(), source.get()), merge.notMatchedBySourceActions());
  }

  private static boolean hasStar(MergeIntoTable merge) {
    return JavaConverters.seqAsJavaList(merge.matchedActions()).stream().anyMatch(a -> a instanceof UpdateStarAction)
        || JavaConverters.seqAsJavaList(merge.notMatchedActions()).stream().anyMatch(a -> a instanceof InsertStarAction);
  }

  /** The data columns of the target when it is a Hudi table Riverbed serves. */
  private Optional<List<String>> hudiDataColumns(LogicalPlan target) {
    LogicalPlan unaliased = target instanceof SubqueryAlias alias ? alias.child() : target;
    if (!(unaliased instanceof UnresolvedRelation relation)) {
      return Optional.empty();
    }
    return HudiRelationLookup.resolve(session, relation).map(v2 -> JavaConverters.seqAsJavaList(v2.output()).stream()
        .map(a -> a.name()).filter(n -> !LoadedTable.isMetaColumn(n)).toList());
  }

  private static Optional<String> qualifier(LogicalPlan source) {
    if (source instanceof SubqueryAlias alias) {
      return Optional.of(alias.alias());
    }
    if (source instanceof UnresolvedRelation relation) {
      List<String> parts = JavaConverters.seqAsJavaList(relation.multipartIdentifier());
      return Optional.of(parts.get(parts.size() - 1));
    }
    return Optional.empty();
  }

  private static Seq<MergeAction> expand(Seq<MergeAction> actions, List<String> columns, String source) {
    List<MergeAction> out = JavaConverters.seqAsJavaList(actions).stream().map(action -> {
      if (action instanceof UpdateStarAction update) {
        return (MergeAction) new UpdateAction(update.condition(), assignments(columns, source));
      }
      if (action instanceof InsertStarAction insert) {
        return (MergeAction) new InsertAction(insert.condition(), assignments(columns, source));
      }
      return action;
    }).toList();
    return JavaConverters.asScalaBuffer(out).toList();
  }

  private static Seq<Assignment> assignments(List<String> columns, String source) {
    List<Assignment> out = columns.stream().map(c -> new Assignment(attribute(List.of(c)), attribute(List.of(source, c))))
        .toList();
    return JavaConverters.asScalaBuffer(out).toList();
  }

  private static Expression attribute(List<String> parts) {
    return UnresolvedAttribute$.MODULE$.apply(JavaConverters.asScalaBuffer(parts).toList());
  }
}
