package io.riverbed.format.clean;

import java.util.Arrays;
import java.util.Locale;

/** What a clean keeps, with Hudi's policy names ({@code HoodieCleaningPolicy}). */
public enum CleaningPolicy {
  /** Every file slice a query as of the last N completed commits can read. */
  KEEP_LATEST_COMMITS,
  /** The newest N committed slices of each file group. */
  KEEP_LATEST_FILE_VERSIONS,
  /** Every file slice a query as of any commit of the last N hours can read. */
  KEEP_LATEST_BY_HOURS;

  /** Parses a policy name, case-insensitively. */
  public static CleaningPolicy parse(String name) {
    String n = name.trim().toUpperCase(Locale.ROOT);
    return Arrays.stream(values()).filter(p -> p.name().equals(n)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown cleaning policy '" + name + "'; use one of "
            + Arrays.toString(values())));
  }
}
