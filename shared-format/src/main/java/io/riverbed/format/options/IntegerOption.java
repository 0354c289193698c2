package io.riverbed.format.options;

import java.util.Map;

/**
 * Reads an integer option that may go by two names (Hudi's Flink name first, its writer key as the
 * fallback), so every options class parses and reports a bad value the same way.
 */
public final class IntegerOption {
  private IntegerOption() {}

  /**
   * The value of {@code key}, else of {@code fallbackKey} (may be null), else {@code defaultValue}.
   *
   * @throws IllegalArgumentException naming the key whose value is not an integer
   */
  public static int read(Map<String, String> conf, String key, String fallbackKey, int defaultValue) {
    String value = conf.get(key);
    String used = key;
    if (value == null && fallbackKey != null) {
      value = conf.get(fallbackKey);
      used = fallbackKey;
    }
    if (value == null) {
      return defaultValue;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(used + " must be an integer, got '" + value + "'", e);
    }
  }
}
