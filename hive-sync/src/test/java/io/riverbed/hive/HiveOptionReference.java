package io.riverbed.hive;

import io.riverbed.format.docs.OptionsPage;

/**
 * The {@code hive-sync} section of {@code docs/OPTIONS.md}: the sync options
 * ({@link HiveSyncOptions#DESCRIPTIONS}) and the command line of {@code riverbed-hive-sync}.
 */
public final class HiveOptionReference {
  public static final String SECTION = "hive-sync";

  private HiveOptionReference() {}

  public static String render() {
    return "## Hive sync options (`hive-sync`, `HiveSyncOptions`)\n\n"
        + "Apache Hudi's hive sync names and defaults (see [HIVE_SYNC.md](HIVE_SYNC.md)). `riverbed-hive-sync` takes them\n"
        + "as `--set key=value` (its flags set the common ones); in code, `HiveSyncOptions.fromMap`. A value outside the\n"
        + "accepted ones is an error that names the option.\n\n"
        + OptionsPage.optionTable(HiveSyncOptions.DESCRIPTIONS)
        + "\n### `riverbed-hive-sync` (`io.riverbed.hive.HiveSyncMain`)\n\n"
        + OptionsPage.codeBlock(HiveSyncArguments.USAGE);
  }
}
