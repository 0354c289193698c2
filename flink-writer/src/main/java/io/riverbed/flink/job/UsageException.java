package io.riverbed.flink.job;

/** A command line the job cannot run: the message says what is wrong and how to fix it. */
public class UsageException extends IllegalArgumentException {
  public UsageException(String message) {
    super(message);
  }
}
