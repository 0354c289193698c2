package io.riverbed.spark.sql;

import java.util.Map;
import java.util.Optional;

/**
 * What a SQL write needs to know of the table beyond its files: the name statements call it by,
 * the catalog's properties ({@code TBLPROPERTIES} and {@code OPTIONS}, which carry Hudi write
 * settings), whether the table is the one a {@code CREATE TABLE ... AS SELECT} just created,
 * whose query is matched to the columns by name, and the database and table the session catalog
 * holds it under (which Hive sync registers), absent for a table loaded by path.
 */
public record CatalogEntry(String name, Map<String, String> properties, boolean createdAsSelect,
    Optional<CatalogName> catalogName) {
  public CatalogEntry {
    properties = Map.copyOf(properties);
  }

  /** A table loaded by path, outside any catalog. */
  public static CatalogEntry ofPath(String path) {
    return new CatalogEntry("hudi table at " + path, Map.of(), false, Optional.empty());
  }

  /** A table's database and name in the session catalog, as the catalog spells them. */
  public record CatalogName(String database, String table) {}
}
