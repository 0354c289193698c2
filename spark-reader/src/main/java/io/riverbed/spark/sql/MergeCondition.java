package io.riverbed.spark.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;

/**
 * The rules Hudi 0.15's {@code MergeIntoHoodieTableCommand} sets for a {@code MERGE INTO} ON clause
 * on a table with a record key: a conjunction of equalities {@code target.column = <source expression>}
 * (casts allowed), covering every record key field, where the record key and partition fields are
 * matched to plain source columns. Hudi finds the matched rows by key; a condition on other target
 * columns is refused rather than ignored.
 */
final class MergeCondition {
  private MergeCondition() {}

  /** @throws RefusedStatementException naming the condition that breaks a rule */
  static void check(StatementTarget target, MergeIntoTable merge, String statement) {
    Expression condition = merge.mergeCondition();
    Set<String> matched = new HashSet<>();
    for (Expression conjunct : conjuncts(condition)) {
      if (!(conjunct instanceof EqualTo equality)) {
        throw new RefusedStatementException(statement + ": only equality predicates are supported in MERGE INTO "
            + "statement on a record key table (provided " + condition.sql() + ")");
      }
      Expression left = withoutCast(equality.left());
      Expression right = withoutCast(equality.right());
      Attribute column;
      Expression other;
      if (isTargetColumn(merge, left)) {
        column = (Attribute) left;
        other = right;
      } else if (isTargetColumn(merge, right)) {
        column = (Attribute) right;
        other = left;
      } else {
        throw new RefusedStatementException(statement + ": invalid MERGE INTO matching condition: `" + conjunct.sql()
            + "`: expected condition should be 'target.id = <source-column-expr>', e.g. `t.id = s.id` or "
            + "`t.id = cast(s.id, ...)`");
      }
      if (!target.isRecordKeyField(column.name()) && !target.isPartitionField(column.name())) {
        throw new RefusedStatementException(statement + ": the matching condition `" + conjunct.sql() + "` is on column '"
            + column.name() + "', which is neither a record key nor a partition field; rows are matched by record key "
            + "(put other conditions in the WHEN MATCHED AND ... clauses)");
      }
      if (!(other instanceof Attribute a) || !merge.sourceTable().outputSet().contains(a)) {
        throw new RefusedStatementException(statement + ": only simple conditions of the form `t.id = s.id` are allowed "
            + "on the primary-key and partition path column. Found `" + conjunct.sql() + "`");
      }
      matched.add(column.name().toLowerCase(Locale.ROOT));
    }
    for (String key : target.table().config().recordKeyFields()) {
      if (!matched.contains(key.toLowerCase(Locale.ROOT))) {
        throw new RefusedStatementException(statement + ": Hudi tables with primary key are required to match on all "
            + "primary key columns. Column: '" + key + "' not found");
      }
    }
  }

  private static boolean isTargetColumn(MergeIntoTable merge, Expression e) {
    return e instanceof Attribute a && merge.targetTable().outputSet().contains(a);
  }

  private static Expression withoutCast(Expression e) {
    return e instanceof Cast cast ? withoutCast(cast.child()) : e;
  }

  private static List<Expression> conjuncts(Expression e) {
    List<Expression> out = new ArrayList<>();
    if (e instanceof And and) {
      out.addAll(conjuncts(and.left()));
      out.addAll(conjuncts(and.right()));
    } else {
      out.add(e);
    }
    return out;
  }
}
