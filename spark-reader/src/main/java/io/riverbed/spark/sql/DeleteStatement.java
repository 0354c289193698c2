package io.riverbed.spark.sql;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;

/**
 * {@code DELETE FROM t [WHERE p]}, as Hudi's {@code DeleteHoodieTableCommand} runs it: the keys of the
 * rows matching {@code p} deleted in one instant of operation {@code delete} (a table whose keys were
 * generated: by each row's stored {@code _hoodie_record_key}, as Hudi 0.15 does).
 */
public final class DeleteStatement implements RowLevelStatement {
  private final StatementTarget target;
  private final Expression condition;

  public DeleteStatement(StatementTarget target, Expression condition) {
    this.target = target;
    this.condition = condition;
  }

  @Override
  public StatementTarget target() {
    return target;
  }

  @Override
  public String operation() {
    return "delete";
  }

  @Override
  public Dataset<Row> changes(SparkSession spark) {
    Column[] columns = target.changedColumns().stream().map(Column::new).toArray(Column[]::new);
    return Dataset.ofRows(spark, target.relation()).filter(new Column(condition)).select(columns);
  }

  @Override
  public String toString() {
    return "DELETE FROM " + target.name();
  }
}
