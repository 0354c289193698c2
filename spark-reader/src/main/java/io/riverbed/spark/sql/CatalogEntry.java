package io.riverbed.spark.sql;

import java.util.Map;

/**
 * What a SQL write needs to know of the table beyond its files: the name statements call it by,
 * the catalog's properties ({@code TBLPROPERTIES} and {@code OPTIONS}, which carry Hudi write
 * settings), and whether the table is the one a {@code CREATE TABLE ... AS SELECT} just created,
 * whose query is matched to the columns by name.
 */
public record CatalogEntry(String name, Map<String, String> properties, boolean createdAsSelect) {
  public CatalogEntry {
    properties = Map.copyOf(properties);
  }

  /** A table loaded by path, outside any catalog. */
  public static CatalogEntry ofPath(String path) {
    return new CatalogEntry("hudi table at " + path, Map.of(), false);
  }
}
