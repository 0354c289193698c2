package io.riverbed.flink.source;

import java.util.Locale;

/** What to do with a record that is not valid JSON or does not fit the row type. */
public enum BadRecordPolicy {
  /** Fail the job with an error naming the record's line (or offset) and field. */
  FAIL,
  /** Drop it, count it in the {@code badRecordsSkipped} metric and log it at WARN. */
  SKIP;

  public static BadRecordPolicy parse(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "fail" -> FAIL;
      case "skip" -> SKIP;
      default -> throw new IllegalArgumentException("bad-record policy must be 'skip' or 'fail', got '" + value + "'");
    };
  }
}
