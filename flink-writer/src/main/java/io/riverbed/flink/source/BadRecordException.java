package io.riverbed.flink.source;

import io.riverbed.format.InvalidRecordException;

/** A source record that is not valid JSON or does not fit the row type; names where it is. */
public class BadRecordException extends InvalidRecordException {
  public BadRecordException(String message) {
    super(message);
  }
}
