package io.riverbed.hive;

import io.riverbed.format.TableException;

/** A sync that could not be done: the message names the table, the metastore and what failed. */
public class HiveSyncException extends TableException {
  public HiveSyncException(String message) {
    super(message);
  }

  public HiveSyncException(String message, Throwable cause) {
    super(message, cause);
  }
}
