package io.riverbed.format.table;

import io.riverbed.format.TableException;

/** Creating a table where one already exists. */
public class TableExistsException extends TableException {
  public TableExistsException(String message) {
    super(message);
  }
}
