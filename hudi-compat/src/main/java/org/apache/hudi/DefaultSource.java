package org.apache.hudi;

import io.riverbed.spark.HudiDataSource;

/**
 * The class Spark looks up for {@code format("org.apache.hudi")} (a format name that is a package
 * resolves to its {@code DefaultSource}): Riverbed's {@code hudi} DataSource under Apache Hudi's
 * name, for reads and writes. Not registered as a service, so {@code hudi} stays one source.
 */
public class DefaultSource extends HudiDataSource {
}
