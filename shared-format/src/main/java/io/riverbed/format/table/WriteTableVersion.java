package io.riverbed.format.table;

import io.riverbed.format.InvalidTableException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Hudi's {@code hoodie.write.table.version}: the table version a writer creates a table with (6 by
 * default, or 8), and, when set, the version it requires of an existing table, so a writer never
 * changes a table's version by writing it (upgrades and downgrades are {@code riverbed-admin}'s).
 *
 * @param version the version a new table gets
 * @param explicit whether the writer set the option (an existing table is then checked against it)
 */
public record WriteTableVersion(int version, boolean explicit) {

  public static final String KEY = "hoodie.write.table.version";

  /** The option's key, default and description, for documentation. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  /**
   * Reads the option.
   *
   * @throws IllegalArgumentException naming the option when its value is not 6 or 8
   */
  public static WriteTableVersion fromMap(Map<String, String> conf) {
    String value = conf.get(KEY);
    if (value == null || value.isBlank()) {
      return new WriteTableVersion(TableConfig.VERSION_6, false);
    }
    int version;
    try {
      version = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      version = -1;
    }
    if (version != TableConfig.VERSION_6 && version != TableConfig.VERSION_8) {
      throw new IllegalArgumentException(KEY + "=" + value + ": Riverbed writes table versions "
          + TableConfig.VERSION_6 + " and " + TableConfig.VERSION_8);
    }
    return new WriteTableVersion(version, true);
  }

  /**
   * Checks an existing table against the option: a writer that asked for a version writes only a
   * table of that version (Hudi 1.x would upgrade a version 6 table here; Riverbed leaves that to
   * {@code riverbed-admin upgrade}). Without the option any table Riverbed writes is written in its
   * own version.
   *
   * @throws InvalidTableException naming the table, its version and the option
   */
  public void requireMatches(Table table) {
    int actual = table.config().version();
    if (explicit && actual != version) {
      throw new InvalidTableException("table " + table.basePath() + " has table version " + actual + " but the writer "
          + "sets " + KEY + "=" + version + "; Riverbed does not change a table's version while writing it: run "
          + "riverbed-admin " + (version > actual ? "upgrade" : "downgrade") + " --to " + version + " first, or "
          + "leave the option unset to write the table in its version");
    }
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(KEY, new String[] {"6", "Table version of a table the write creates: 6 (Hudi 0.14/0.15) or 8 (Hudi 1.x: "
        + "timeline in .hoodie/timeline/, Avro commit metadata, log files named by their delta commit). An existing "
        + "table is written in its own version; when set, a table of another version is refused (riverbed-admin "
        + "upgrade/downgrade changes versions)."});
    return d;
  }
}
