package io.riverbed.hive.input;

import io.riverbed.format.TableException;

/** A Hive read of a table that cannot go on; the message names the table, file, column or record. */
public final class HiveInputException extends TableException {
  public HiveInputException(String message) {
    super(message);
  }

  public HiveInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
