package org.apache.spark.sql.hudi.catalog;

import io.riverbed.spark.RiverbedCatalog;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.Transform;

/**
 * Riverbed's session catalog under Apache Hudi's name, so
 * {@code spark.sql.catalog.spark_catalog=org.apache.spark.sql.hudi.catalog.HoodieCatalog} keeps working:
 * {@link RiverbedCatalog} in every respect, and a table created {@code USING org.apache.hudi} (Hudi's
 * package name as the provider) is recorded with provider {@code hudi}, as Hudi's catalog records it.
 */
public class HoodieCatalog extends RiverbedCatalog {
  private static final Set<String> HUDI_PACKAGE_PROVIDERS = Set.of("org.apache.hudi", "org.apache.hudi.defaultsource");

  @Override
  public Table createTable(Identifier ident, Column[] columns, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    String provider = properties.get(TableCatalog.PROP_PROVIDER);
    if (provider == null || !HUDI_PACKAGE_PROVIDERS.contains(provider.toLowerCase(Locale.ROOT))) {
      return super.createTable(ident, columns, partitions, properties);
    }
    Map<String, String> asHudi = new HashMap<>(properties);
    asHudi.put(TableCatalog.PROP_PROVIDER, "hudi");
    return super.createTable(ident, columns, partitions, asHudi);
  }
}
