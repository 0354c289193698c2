package org.apache.spark.sql.hudi;

import org.apache.spark.sql.SparkSessionExtensions;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Accepts Apache Hudi's {@code spark.sql.extensions=org.apache.spark.sql.hudi.HoodieSparkSessionExtension}
 * so sessions configured for Hudi start unchanged with Riverbed. It installs nothing: Riverbed needs
 * no parser, analyzer or planner rules (its tables resolve through the DataSource and the session
 * catalog, {@code HoodieCatalog}), so Hudi's SQL extensions ({@code CALL} procedures, Hudi-specific
 * statements) are not available, and Spark's own SQL is left exactly as it is.
 */
public class HoodieSparkSessionExtension extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    return BoxedUnit.UNIT;
  }
}
