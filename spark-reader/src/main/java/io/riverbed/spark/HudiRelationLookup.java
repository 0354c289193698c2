package io.riverbed.spark;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.EliminateSubqueryAliases;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.collection.JavaConverters;

/**
 * Whether a table a statement names is a Hudi table Riverbed serves, asked while the statement is
 * parsed: the parser steps that give Hudi's meaning to Spark syntax ({@link MergeStarParser},
 * {@link TimeTravelParser}) rewrite only statements on such tables.
 */
final class HudiRelationLookup {
  private HudiRelationLookup() {}

  /** The relation {@code relation} resolves to when it names a Hudi table of {@link RiverbedCatalog}. */
  static Optional<DataSourceV2Relation> resolve(SparkSession session, UnresolvedRelation relation) {
    List<String> parts = JavaConverters.seqAsJavaList(relation.multipartIdentifier());
    String name = String.join(".", parts.stream().map(p -> "`" + p.replace("`", "``") + "`").toList());
    LogicalPlan analyzed;
    try {
      analyzed = EliminateSubqueryAliases.apply(session.table(name).queryExecution().analyzed());
    } catch (Exception e) {
      if (e instanceof AnalysisException) {
        return Optional.empty();
      }
      throw e;
    }
    return analyzed instanceof DataSourceV2Relation v2 && v2.table() instanceof HudiTable
        ? Optional.of(v2) : Optional.empty();
  }
}
