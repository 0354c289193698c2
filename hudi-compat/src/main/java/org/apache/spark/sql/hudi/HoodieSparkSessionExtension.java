package org.apache.spark.sql.hudi;

import io.riverbed.spark.RiverbedSessionExtension;
import org.apache.spark.sql.SparkSessionExtensions;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Apache Hudi's {@code spark.sql.extensions=org.apache.spark.sql.hudi.HoodieSparkSessionExtension},
 * so sessions configured for Hudi start unchanged with Riverbed: it installs Riverbed's extension
 * ({@link RiverbedSessionExtension}: {@code UPDATE}, {@code DELETE FROM}, {@code MERGE INTO}, Hudi's
 * {@code TIMESTAMP AS OF}).
 * Hudi's {@code CALL} procedures and other Hudi-only statements are not there.
 */
public class HoodieSparkSessionExtension extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  private final RiverbedSessionExtension riverbed = new RiverbedSessionExtension();

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    return riverbed.apply(extensions);
  }
}
