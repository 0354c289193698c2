package io.riverbed.hive.input;

import io.riverbed.format.docs.OptionsPage;

/**
 * The {@code hive-input} section of {@code docs/OPTIONS.md}: the per-table session keys a Hive
 * query sets for incremental pulls and time travel ({@link ConsumeOptions#DESCRIPTIONS}).
 */
final class HiveInputOptionReference {
  static final String SECTION = "hive-input";

  private HiveInputOptionReference() {}

  static String render() {
    return "## Hive session keys (`hive-input`, `ConsumeOptions`)\n\n"
        + "Apache Hudi's per-table keys, read by the input formats from the Hive session (`SET key=value;` in Beeline),\n"
        + "`<t>` being the table's `hoodie.table.name` (see [HIVE_SYNC.md](HIVE_SYNC.md)). A value outside the accepted\n"
        + "ones fails the query with an error that names the key.\n\n"
        + OptionsPage.optionTable(ConsumeOptions.DESCRIPTIONS);
  }
}
