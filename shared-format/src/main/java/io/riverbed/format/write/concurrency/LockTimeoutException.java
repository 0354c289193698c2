package io.riverbed.format.write.concurrency;

import io.riverbed.format.TableException;

/** The table lock could not be taken in {@value ConcurrencyOptions#LOCK_WAIT}: another writer holds it. */
public class LockTimeoutException extends TableException {
  public LockTimeoutException(String message) {
    super(message);
  }
}
