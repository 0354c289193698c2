package io.riverbed.format.timeline;

import io.riverbed.format.TableException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Instant times: 17-digit {@code yyyyMMddHHmmssSSS} strings, compared as strings. Generates
 * strictly increasing times and turns the time-travel forms users type into instant strings.
 */
public final class InstantTime {

  /** The start of time; {@code 000} in incremental queries means "from the beginning". */
  public static final String INIT = "00000000000000";

  private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");
  private static final DateTimeFormatter SECONDS_DASHED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final DateTimeFormatter MILLIS_DASHED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

  private final ZoneId zone;
  private final AtomicReference<String> last = new AtomicReference<>("");

  private InstantTime(ZoneId zone) {
    this.zone = zone;
  }

  /** A generator of instant times on the wall clock of {@code zone}. */
  public static InstantTime generator(ZoneId zone) {
    return new InstantTime(zone);
  }

  /** A new instant time, strictly greater than every time this generator returned before. */
  public String next() {
    return nextAfter("");
  }

  /** A new instant time strictly greater than {@code floor} and than every earlier result. */
  public String nextAfter(String floor) {
    while (true) {
      String previous = last.get();
      String candidate = MILLIS.format(ZonedDateTime.now(zone));
      String bound = previous.compareTo(floor) >= 0 ? previous : floor;
      if (candidate.compareTo(bound) <= 0) {
        candidate = increment(bound);
      }
      if (last.compareAndSet(previous, candidate)) {
        return candidate;
      }
    }
  }

  private String increment(String time) {
    if (time.length() != 17) {
      return MILLIS.format(parseToDateTime(time).plusNanos(1_000_000));
    }
    return MILLIS.format(LocalDateTime.parse(time, MILLIS).plusNanos(1_000_000));
  }

  /**
   * Converts a time-travel or query instant as users give it to an instant string:
   * 17 or 14 digits as is; {@code yyyy-MM-dd HH:mm:ss.SSS}; {@code yyyy-MM-dd HH:mm:ss} (end of
   * that second, {@code .999}); {@code yyyy-MM-dd} (start of that day).
   */
  public static String parseQueryInstant(String text) {
    String t = text == null ? "" : text.trim();
    try {
      return switch (t.length()) {
        case 17, 14 -> {
          if (!t.chars().allMatch(Character::isDigit)) {
            throw bad(text);
          }
          yield t;
        }
        case 23 -> MILLIS.format(LocalDateTime.parse(t, MILLIS_DASHED));
        case 19 -> MILLIS.format(LocalDateTime.parse(t, SECONDS_DASHED).plusNanos(999_000_000));
        case 10 -> MILLIS.format(LocalDate.parse(t).atStartOfDay());
        default -> throw bad(text);
      };
    } catch (DateTimeParseException e) {
      throw bad(text);
    }
  }

  private static TableException bad(String text) {
    return new TableException(
        "'" + text + "' is not an instant time; use yyyyMMddHHmmssSSS, yyyyMMddHHmmss, "
            + "yyyy-MM-dd HH:mm:ss[.SSS] or yyyy-MM-dd");
  }

  /** The wall-clock time an instant string stands for; 14-digit times get 999 milliseconds. */
  public static LocalDateTime parseToDateTime(String instantTime) {
    if (instantTime.length() == 14) {
      return LocalDateTime.parse(instantTime + "999", MILLIS);
    }
    if (instantTime.length() == 17) {
      return LocalDateTime.parse(instantTime, MILLIS);
    }
    throw bad(instantTime);
  }

  /** Formats a wall-clock time as a 17-digit instant string. */
  public static String format(LocalDateTime time) {
    return MILLIS.format(time);
  }
}
