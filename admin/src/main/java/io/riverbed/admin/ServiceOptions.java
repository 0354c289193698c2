package io.riverbed.admin;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * A table service's options given on the command line ({@code --option KEY=VALUE} under Hudi's key
 * names, and the flags that set the common ones), read through the service's own options class.
 * A key the service does not read, or a value it refuses, is a usage error naming the option.
 */
final class ServiceOptions {
  private ServiceOptions() {}

  /**
   * The service's options from the {@code --option KEY=VALUE} entries with the values of the
   * command's own flags over them ({@code flags}: key, value, key, value, ...; a null value is a
   * flag not given).
   *
   * @throws ParameterException for a malformed entry, an unknown key or a refused value
   */
  static <T> T read(CommandLine command, List<String> entries, Set<String> known,
      Function<Map<String, String>, T> fromMap, Object... flags) {
    Map<String, String> given = KeyValues.parse(command, "--option", entries);
    for (int i = 0; i + 1 < flags.length; i += 2) {
      if (flags[i + 1] != null) {
        given.put((String) flags[i], flags[i + 1].toString());
      }
    }
    return read(command, given, known, fromMap);
  }

  /**
   * {@code fromMap(given)}, after checking every key is one of {@code known}.
   *
   * @throws ParameterException for an unknown key or a refused value
   */
  private static <T> T read(CommandLine command, Map<String, String> given, Set<String> known,
      Function<Map<String, String>, T> fromMap) {
    for (String key : given.keySet()) {
      if (!known.contains(key)) {
        throw new ParameterException(command, "unknown option '" + key + "' for " + command.getCommandName()
            + "; it reads " + String.join(", ", new TreeSet<>(known)));
      }
    }
    try {
      return fromMap.apply(given);
    } catch (NumberFormatException e) {
      // Some options classes parse with Integer.parseInt, whose message names no key: find the entry.
      for (Map.Entry<String, String> entry : given.entrySet()) {
        try {
          fromMap.apply(Map.of(entry.getKey(), entry.getValue()));
        } catch (NumberFormatException culprit) {
          throw new ParameterException(command, "--option " + entry.getKey() + "=" + entry.getValue()
              + ": not a number");
        } catch (IllegalArgumentException otherCheck) {
          // a cross-check with defaults of the other keys, not this entry's parse error
        }
      }
      throw new ParameterException(command, "--option: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(command, e.getMessage());
    }
  }
}
