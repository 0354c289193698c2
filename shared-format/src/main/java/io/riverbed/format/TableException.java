package io.riverbed.format;

/**
 * Root of Riverbed's unchecked exceptions. Messages name the table, instant, file and record key
 * involved so an operator can act on them without a debugger.
 */
public class TableException extends RuntimeException {
  public TableException(String message) {
    super(message);
  }

  public TableException(String message, Throwable cause) {
    super(message, cause);
  }
}
