package io.riverbed.format.consumer;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A registered reader of a table (Paimon's consumer): an incremental or streaming reader that
 * names itself with a consumer id and records how far it has read, so that cleaning and archival
 * keep what its next read needs ({@link ConsumerPin}).
 *
 * @param id the consumer id: letters, digits, {@code _}, {@code -} and {@code .} (not first), at
 *     most {@value #MAX_ID_LENGTH} characters
 * @param position the instant the consumer has read up to: its next read is the commits after it
 *     (an instant time, or {@code 000} for the start of the timeline)
 * @param advancedAt when the position was last recorded (by the clock of whoever recorded it)
 * @param version how many times the position was recorded: the number in the consumer's file name
 */
public record Consumer(String id, String position, java.time.Instant advancedAt, long version) {
  static final int MAX_ID_LENGTH = 128;
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]*");
  private static final Pattern POSITION = Pattern.compile("\\d{1,17}");

  public Consumer {
    checkId(id);
    checkPosition(id, position);
    Objects.requireNonNull(advancedAt, "advancedAt");
    if (version < 1) {
      throw new IllegalArgumentException("consumer " + id + ": version must be >= 1, got " + version);
    }
  }

  /**
   * True when the position was last recorded longer than {@code expiration} before {@code now}: the
   * consumer no longer holds cleaning or archival back.
   */
  public boolean isExpired(java.time.Instant now, Duration expiration) {
    return advancedAt.plus(expiration).isBefore(now);
  }

  /**
   * @throws IllegalArgumentException if {@code id} cannot name a consumer (see {@link #id})
   */
  public static void checkId(String id) {
    Objects.requireNonNull(id, "consumer id");
    if (id.length() > MAX_ID_LENGTH || !ID.matcher(id).matches()) {
      throw new IllegalArgumentException("'" + id + "' is not a consumer id: use letters, digits, '_', '-' and '.' "
          + "(not first), at most " + MAX_ID_LENGTH + " characters");
    }
  }

  static void checkPosition(String id, String position) {
    Objects.requireNonNull(position, "position");
    if (!POSITION.matcher(position).matches()) {
      throw new IllegalArgumentException("consumer " + id + ": position '" + position + "' is not an instant time "
          + "(yyyyMMddHHmmssSSS, or 000 for the start of the timeline)");
    }
  }
}
