package io.riverbed.format;

/** A record that cannot be written as given: a missing key field, a null ordering value, a bad type. */
public class InvalidRecordException extends TableException {
  public InvalidRecordException(String message) {
    super(message);
  }

  public InvalidRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
