package io.riverbed.spark;

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.collection.JavaConverters;

/**
 * The analyzer rule (resolution, from {@link RiverbedSessionExtension}) that lets Spark resolve a
 * {@code MERGE INTO} a Hudi table: Spark leaves a merge into a table that accepts any schema
 * unresolved, and Riverbed's tables accept any schema for {@code INSERT}, so the merge's target is
 * swapped for the same table without that capability ({@link HudiTable#asMergeTarget}).
 */
final class MergeTargetResolution extends Rule<LogicalPlan> {
  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (plan instanceof MergeIntoTable merge && !merge.resolved()) {
      LogicalPlan target = asMergeTarget(merge.targetTable());
      if (target != merge.targetTable()) {
        return merge.withNewChildren(JavaConverters.asScalaBuffer(java.util.List.of(target, merge.sourceTable())).toSeq());
      }
    }
    return plan;
  }

  private static LogicalPlan asMergeTarget(LogicalPlan target) {
    if (target instanceof SubqueryAlias alias) {
      LogicalPlan child = asMergeTarget(alias.child());
      return child == alias.child() ? alias
          : alias.withNewChildren(JavaConverters.asScalaBuffer(java.util.List.of(child)).toSeq());
    }
    if (target instanceof DataSourceV2Relation relation && relation.table() instanceof HudiTable hudi
        && hudi.acceptsAnySchema()) {
      return relation.copy(hudi.asMergeTarget(), relation.output(), relation.catalog(), relation.identifier(),
          relation.options());
    }
    return target;
  }
}
