package io.riverbed.spark.sql;

import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.Assignment;
import org.apache.spark.sql.functions;
import scala.Option;
import scala.collection.Seq;

/**
 * {@code UPDATE t SET c = e, ... [WHERE p]}, as Hudi's {@code UpdateHoodieTableCommand} runs it: the
 * rows matching {@code p}, with the assigned columns replaced, upserted (operation {@code upsert}).
 * The precombine field keeps its value unless assigned, and the table's payload class decides
 * against the stored row as for any upsert. A record key or partition field cannot be assigned:
 * the row would become another one. A table whose keys were generated is updated by each row's stored
 * {@code _hoodie_record_key}, as Hudi 0.15 does.
 */
public final class UpdateStatement implements RowLevelStatement {
  private final StatementTarget target;
  private final Seq<Assignment> assignments;
  private final Option<Expression> condition;

  public UpdateStatement(StatementTarget target, Seq<Assignment> assignments, Option<Expression> condition) {
    this.target = target;
    this.assignments = assignments;
    this.condition = condition;
  }

  @Override
  public StatementTarget target() {
    return target;
  }

  @Override
  public Dataset<Row> changes(SparkSession spark) {
    String statement = toString();
    Assignments set = Assignments.of(assignments, statement);
    for (String column : set.columns()) {
      if (target.isRecordKeyField(column) || target.isPartitionField(column)) {
        throw new RefusedStatementException(statement + ": the " + (target.isRecordKeyField(column) ? "record key"
            : "partition") + " field '" + column + "' cannot be assigned; an update keeps a row's key and partition "
            + "(delete the row and insert it anew to move it)");
      }
    }
    List<Attribute> columns = target.changedColumns();
    Column[] updated = columns.stream().map(a -> set.valueOf(a, new Column(a)).as(a.name())).toArray(Column[]::new);
    Dataset<Row> rows = Dataset.ofRows(spark, target.relation());
    Column where = condition.isDefined() ? new Column(condition.get()) : functions.lit(true);
    return rows.filter(where).select(updated);
  }

  @Override
  public String toString() {
    return "UPDATE " + target.name();
  }
}
