package io.riverbed.format;

/** A path that is not a table, or a table whose configuration Riverbed cannot serve. */
public class InvalidTableException extends TableException {
  public InvalidTableException(String message) {
    super(message);
  }

  public InvalidTableException(String message, Throwable cause) {
    super(message, cause);
  }
}
