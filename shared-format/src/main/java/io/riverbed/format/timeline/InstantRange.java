package io.riverbed.format.timeline;

/**
 * Instants an incremental scan accepts: {@code start < instant <= endInclusive}, or
 * {@code start <= instant <= endInclusive} when {@code startInclusive} (Hudi's reader bounds a
 * range by the first and last commit it selected when its begin lies inside the active timeline).
 * Either bound may be {@code null} (open).
 */
public record InstantRange(String start, boolean startInclusive, String endInclusive) {

  /** {@code (startExclusive, endInclusive]}. */
  public static InstantRange between(String startExclusive, String endInclusive) {
    return new InstantRange(startExclusive, false, endInclusive);
  }

  /** {@code [startInclusive, endInclusive]}. */
  public static InstantRange closed(String startInclusive, String endInclusive) {
    return new InstantRange(startInclusive, true, endInclusive);
  }

  public boolean contains(String instant) {
    return (start == null || (startInclusive ? instant.compareTo(start) >= 0 : instant.compareTo(start) > 0))
        && (endInclusive == null || instant.compareTo(endInclusive) <= 0);
  }

  @Override
  public String toString() {
    return (startInclusive ? "[" : "(") + start + ", " + endInclusive + "]";
  }
}
