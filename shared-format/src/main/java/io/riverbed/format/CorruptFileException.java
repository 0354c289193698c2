package io.riverbed.format;

/** A data or metadata file whose bytes do not follow the format; names the file and offset. */
public class CorruptFileException extends TableException {
  public CorruptFileException(String message) {
    super(message);
  }

  public CorruptFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
