package io.riverbed.format.options;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a duration option in the forms Flink's and Paimon's options take ({@code 7 d}, {@code 7d},
 * {@code 12 h}, {@code 30 min}, {@code 45 s}, {@code 500 ms}; a bare number is milliseconds) or as
 * ISO-8601 ({@code P7D}, {@code PT12H}), so every options class parses and reports a bad value the
 * same way.
 */
public final class DurationOption {
  private static final Pattern AMOUNT_AND_UNIT = Pattern.compile("(\\d+)\\s*([a-z]*)");

  private DurationOption() {}

  /**
   * The value of {@code key}, else {@code defaultValue}.
   *
   * @throws IllegalArgumentException naming the key whose value is not a duration
   */
  public static Duration read(Map<String, String> conf, String key, Duration defaultValue) {
    String value = conf.get(key);
    if (value == null || value.isBlank()) {
      return defaultValue;
    }
    try {
      return parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + " must be a duration such as '7 d', '12 h' or '30 min', got '" + value
          + "'", e);
    }
  }

  /** Parses one duration; see the class comment for the forms. */
  public static Duration parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.startsWith("p")) {
      try {
        return nonNegative(Duration.parse(t.toUpperCase(Locale.ROOT)), text);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("not an ISO-8601 duration: '" + text + "'", e);
      }
    }
    Matcher m = AMOUNT_AND_UNIT.matcher(t);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration: '" + text + "'");
    }
    long amount;
    try {
      amount = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("duration out of range: '" + text + "'", e);
    }
    return switch (m.group(2)) {
      case "", "ms", "milli", "millis", "millisecond", "milliseconds" -> Duration.ofMillis(amount);
      case "s", "sec", "secs", "second", "seconds" -> Duration.ofSeconds(amount);
      case "m", "min", "mins", "minute", "minutes" -> Duration.ofMinutes(amount);
      case "h", "hour", "hours" -> Duration.ofHours(amount);
      case "d", "day", "days" -> Duration.ofDays(amount);
      default -> throw new IllegalArgumentException("unknown time unit '" + m.group(2) + "' in '" + text
          + "'; use ms, s, min, h or d");
    };
  }

  /** The duration as the options take it back: the largest whole unit, e.g. {@code 7 d}, {@code 90 min}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms != 0 && ms % Duration.ofDays(1).toMillis() == 0) {
      return d.toDays() + " d";
    }
    if (ms != 0 && ms % Duration.ofHours(1).toMillis() == 0) {
      return d.toHours() + " h";
    }
    if (ms != 0 && ms % Duration.ofMinutes(1).toMillis() == 0) {
      return d.toMinutes() + " min";
    }
    if (ms % 1000 == 0) {
      return d.toSeconds() + " s";
    }
    return ms + " ms";
  }

  private static Duration nonNegative(Duration d, String text) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("a negative duration: '" + text + "'");
    }
    return d;
  }
}
