package io.riverbed.spark;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.spark.sql.DeleteStatement;
import io.riverbed.spark.sql.MergeStatement;
import io.riverbed.spark.sql.RefusedStatementException;
import io.riverbed.spark.sql.RowLevelCommand;
import io.riverbed.spark.sql.StatementTarget;
import io.riverbed.spark.sql.UpdateStatement;
import java.util.Optional;
import org.apache.spark.sql.catalyst.analysis.EliminateSubqueryAliases;
import org.apache.spark.sql.catalyst.plans.logical.DeleteFromTable;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;
import org.apache.spark.sql.catalyst.plans.logical.UpdateTable;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;

/**
 * The analyzer rule (post-hoc resolution, from {@link RiverbedSessionExtension}) that turns a resolved
 * {@code UPDATE}, {@code DELETE FROM} or {@code MERGE INTO} whose target is a Hudi table into
 * Riverbed's {@link RowLevelCommand}, as Hudi's session extension turns them into its commands.
 * Spark itself has no way to run them on a table without row-level operations.
 */
public final class HudiRowLevelStatements extends Rule<LogicalPlan> {
  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (plan instanceof UpdateTable update && update.resolved()) {
      return target(update.table(), "UPDATE")
          .<LogicalPlan>map(t -> new RowLevelCommand(new UpdateStatement(t, update.assignments(), update.condition())))
          .orElse(plan);
    }
    if (plan instanceof DeleteFromTable delete && delete.resolved()) {
      return target(delete.table(), "DELETE FROM")
          .<LogicalPlan>map(t -> new RowLevelCommand(new DeleteStatement(t, delete.condition())))
          .orElse(plan);
    }
    if (plan instanceof MergeIntoTable merge && merge.resolved()) {
      return target(merge.targetTable(), "MERGE INTO")
          .<LogicalPlan>map(t -> new RowLevelCommand(new MergeStatement(t, merge)))
          .orElse(plan);
    }
    return plan;
  }

  /** The Hudi table a statement's target plan reads, if it is one. */
  static Optional<StatementTarget> target(LogicalPlan plan, String statement) {
    if (!(EliminateSubqueryAliases.apply(plan) instanceof DataSourceV2Relation relation)
        || !(relation.table() instanceof HudiTable hudi)) {
      return Optional.empty();
    }
    String name = relation.identifier().isDefined() ? relation.identifier().get().toString() : hudi.name();
    QuerySpec query = hudi.loaded().query();
    if (!query.equals(QuerySpec.snapshot())) {
      throw new RefusedStatementException(statement + " " + name + ": the table is read as a " + query.type()
          + " query (" + query + "); statements change the snapshot of a table, not a read-optimized table, "
          + "an incremental range or an instant of the past");
    }
    if (hudi.loaded().table().config().recordKeyFields().isEmpty() && statement.equals("MERGE INTO")) {
      throw new RefusedStatementException(statement + " " + name + " is not supported yet: the table has no primary "
          + "key (its record keys were generated on insert, as Hudi 0.14+ does); Riverbed runs INSERT INTO, INSERT "
          + "OVERWRITE, UPDATE and DELETE FROM on such a table (create it with TBLPROPERTIES "
          + "(primaryKey = '<column>') to merge by key)");
    }
    return Optional.of(new StatementTarget(hudi.loaded().table(), plan, name, hudi.entry()));
  }
}
