package io.riverbed.format.base;

/**
 * The bloom filter kinds Hudi writes into base file footers, named as in the footer key
 * {@code hoodie_bloom_filter_type_code}. A footer without that key holds a {@link #SIMPLE} filter.
 */
public enum BloomFilterType {
  /** One fixed-size bit vector (Hadoop's {@code BloomFilter} layout). */
  SIMPLE,
  /** Rows of bit vectors added as keys arrive, bounded by a maximum entry count (Hudi's default). */
  DYNAMIC_V0;

  /** Parses a footer or config value; case-insensitive. */
  public static BloomFilterType parse(String value) {
    try {
      return valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Unknown bloom filter type '" + value + "'; expected SIMPLE or DYNAMIC_V0", e);
    }
  }
}
