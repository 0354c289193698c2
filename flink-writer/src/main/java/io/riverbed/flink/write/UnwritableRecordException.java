package io.riverbed.flink.write;

import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A record the table's file layout cannot store. The same record would fail again after every
 * restart, so Flink is told the failure is not recoverable: the job fails once, naming the
 * record and field, instead of restarting forever.
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public final class UnwritableRecordException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UnwritableRecordException(String message) {
    super(message);
  }
}
