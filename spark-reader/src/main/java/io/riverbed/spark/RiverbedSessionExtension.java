package io.riverbed.spark;

import io.riverbed.spark.sql.procedures.CallParser;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * Riverbed's Spark session extension ({@code spark.sql.extensions=io.riverbed.spark.RiverbedSessionExtension},
 * in place of Hudi's {@code HoodieSparkSessionExtension}): runs {@code UPDATE}, {@code DELETE FROM}
 * and {@code MERGE INTO} on Hudi tables of {@link RiverbedCatalog} with Hudi 0.15's semantics, reads
 * {@code TIMESTAMP AS OF} on them as Hudi's instant ({@link TimeTravelParser}), and runs Hudi's
 * {@code CALL} procedures for operators ({@link CallParser}).
 */
public final class RiverbedSessionExtension extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectParser(new ParserFactory());
    extensions.injectResolutionRule(new RuleFactory(new MergeTargetResolution()));
    extensions.injectPostHocResolutionRule(new RuleFactory(new HudiRowLevelStatements()));
    return BoxedUnit.UNIT;
  }

  private static final class ParserFactory extends AbstractFunction2<SparkSession, ParserInterface, ParserInterface> {
    @Override
    public ParserInterface apply(SparkSession session, ParserInterface delegate) {
      return new CallParser(new TimeTravelParser(session, new MergeStarParser(session, delegate)));
    }
  }

  private static final class RuleFactory extends AbstractFunction1<SparkSession, Rule<LogicalPlan>> {
    private final Rule<LogicalPlan> rule;

    RuleFactory(Rule<LogicalPlan> rule) {
      this.rule = rule;
    }

    @Override
    public Rule<LogicalPlan> apply(SparkSession session) {
      return rule;
    }
  }
}
