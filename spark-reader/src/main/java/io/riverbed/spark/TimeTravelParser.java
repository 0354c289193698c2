package io.riverbed.spark;

import io.riverbed.spark.sql.DelegatingParser;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.RelationTimeTravel;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.StringType;
import scala.Option;
import scala.runtime.AbstractFunction1;

/**
 * Spark's SQL parser with Hudi's reading of {@code TIMESTAMP AS OF} (from {@link RiverbedSessionExtension}):
 * on a Hudi table, a string or integer literal there is Hudi's instant ({@code as.of.instant}:
 * {@code yyyyMMddHHmmss[SSS]}, {@code yyyy-MM-dd HH:mm:ss[.SSS]}, {@code yyyy-MM-dd}), not a value
 * Spark casts to a timestamp, which refuses a 17-digit instant. Hudi 0.15's extension hands the
 * literal to its reader as {@code as.of.instant} the same way. The literal becomes the statement's
 * version, which {@link RiverbedCatalog#loadTable(org.apache.spark.sql.connector.catalog.Identifier, String)}
 * reads as the instant. Other expressions, and tables that are not Hudi's, keep Spark's meaning.
 */
final class TimeTravelParser extends DelegatingParser {
  private final SparkSession session;

  TimeTravelParser(SparkSession session, ParserInterface delegate) {
    super(delegate);
    this.session = session;
  }

  @Override
  public LogicalPlan parsePlan(String sqlText) throws ParseException {
    return asInstants(delegate.parsePlan(sqlText));
  }

  private LogicalPlan asInstants(LogicalPlan plan) {
    if (plan instanceof RelationTimeTravel travel && travel.timestamp().isDefined()
        && travel.relation() instanceof UnresolvedRelation relation) {
      return instantLiteral(travel.timestamp().get())
          .filter(instant -> HudiRelationLookup.resolve(session, relation).isPresent())
          .map(instant -> (LogicalPlan) travel.copy(relation, Option.empty(), Option.apply(instant)))
          .orElse(plan);
    }
    return (LogicalPlan) plan.mapChildren(new AbstractFunction1<LogicalPlan, LogicalPlan>() {
      @Override
      public LogicalPlan apply(LogicalPlan child) {
        return asInstants(child);
      }
    });
  }

  /** The text of a string or integer literal, which Hudi reads as an instant. */
  private static Optional<String> instantLiteral(Expression timestamp) {
    if (timestamp instanceof Literal literal && literal.value() != null
        && (literal.dataType() instanceof StringType || literal.dataType() instanceof IntegralType)) {
      return Optional.of(literal.value().toString());
    }
    return Optional.empty();
  }
}
