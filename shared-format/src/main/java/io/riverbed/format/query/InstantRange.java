package io.riverbed.format.query;

/** Instants {@code (beginExclusive, endInclusive]}, compared as strings, as incremental queries select them. */
public record InstantRange(String beginExclusive, String endInclusive) {
  public boolean contains(String instant) {
    return instant.compareTo(beginExclusive) > 0 && instant.compareTo(endInclusive) <= 0;
  }
}
