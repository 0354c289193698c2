package io.riverbed.format;

/** A timeline transition that another writer (or an earlier attempt) already made. */
public class CommitConflictException extends TableException {
  public CommitConflictException(String message) {
    super(message);
  }
}
