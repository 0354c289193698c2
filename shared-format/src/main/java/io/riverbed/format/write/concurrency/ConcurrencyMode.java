package io.riverbed.format.write.concurrency;

import java.util.Locale;

/** How many writers a table admits: Hudi's {@code hoodie.write.concurrency.mode}. */
public enum ConcurrencyMode {
  /** One writer at a time, kept out of each other's way by the table's writer lease (Hudi's default). */
  SINGLE_WRITER,
  /** Several writers; each commit takes the table lock and is checked for file-group conflicts. */
  OPTIMISTIC_CONCURRENCY_CONTROL;

  /**
   * The mode named by a value of {@value ConcurrencyOptions#MODE} (Hudi's spelling, any case).
   *
   * @throws IllegalArgumentException naming the option and the supported values
   */
  public static ConcurrencyMode of(String value) {
    String v = value.trim().toUpperCase(Locale.ROOT);
    for (ConcurrencyMode mode : values()) {
      if (mode.name().equals(v)) {
        return mode;
      }
    }
    throw new IllegalArgumentException(ConcurrencyOptions.MODE + " must be single_writer or "
        + "optimistic_concurrency_control, got '" + value + "'"
        + (v.equals("NON_BLOCKING_CONCURRENCY_CONTROL") ? " (Hudi 1.x's non-blocking mode needs table version 8)" : ""));
  }
}
