package io.riverbed.format.timeline;

/**
 * Instants an incremental scan accepts: {@code startExclusive < instant <= endInclusive}. Either
 * bound may be {@code null} (open).
 */
public record InstantRange(String startExclusive, String endInclusive) {

  public static InstantRange between(String startExclusive, String endInclusive) {
    return new InstantRange(startExclusive, endInclusive);
  }

  public boolean contains(String instant) {
    return (startExclusive == null || instant.compareTo(startExclusive) > 0)
        && (endInclusive == null || instant.compareTo(endInclusive) <= 0);
  }
}
