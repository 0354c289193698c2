package io.riverbed.admin;

import io.riverbed.format.options.SecretOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** {@code KEY=VALUE} entries of a repeatable flag, read into a map; a malformed entry is a usage error. */
final class KeyValues {
  private KeyValues() {}

  /**
   * The entries in order (a later entry of the same key wins).
   *
   * @throws ParameterException naming the flag, with a secret-looking entry not echoed
   */
  static Map<String, String> parse(CommandLine command, String flag, List<String> entries) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String entry : entries) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new ParameterException(command, flag + " '" + SecretOptions.redact(entry, entry) + "' is not KEY=VALUE");
      }
      out.put(entry.substring(0, eq).trim(), entry.substring(eq + 1));
    }
    return out;
  }
}
