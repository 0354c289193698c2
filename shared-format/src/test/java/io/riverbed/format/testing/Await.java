package io.riverbed.format.testing;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * Waiting in tests for a condition, checked at an interval until a timeout: the one place tests
 * wait for a child process, a server or a job, instead of each writing its own sleep loop. A
 * guard (a process still alive, say) stops the wait early; the timeout message says what was
 * awaited and carries diagnostics (a log tail).
 */
public final class Await {
  /** What is awaited; may throw, which ends the wait with that exception. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  /** Checked before each poll; throws to end the wait (e.g. the process awaited has exited). */
  @FunctionalInterface
  public interface Guard {
    void check() throws Exception;
  }

  private final String what;
  private final Duration timeout;
  private Duration interval = Duration.ofMillis(50);
  private Guard guard = () -> { };
  private Callable<String> diagnostics = () -> "";

  private Await(String what, Duration timeout) {
    this.what = what;
    this.timeout = timeout;
  }

  /** A wait for {@code what} (named in the timeout message), at most {@code timeout}. */
  public static Await await(String what, Duration timeout) {
    return new Await(what, timeout);
  }

  public Await every(Duration pollInterval) {
    this.interval = pollInterval;
    return this;
  }

  public Await guardedBy(Guard check) {
    this.guard = check;
    return this;
  }

  /** Appended to the timeout message, e.g. the tail of a log. */
  public Await explainedBy(Callable<String> text) {
    this.diagnostics = text;
    return this;
  }

  /**
   * Returns once {@code condition} holds; an {@link IllegalStateException} when the timeout passes
   * first. Checked exceptions of the condition, guard or diagnostics come wrapped in one.
   */
  public void until(Condition condition) throws InterruptedException {
    if (!within(condition)) {
      String more = unchecked(diagnostics::call);
      throw new IllegalStateException("waited " + timeout + " for " + what + (more.isEmpty() ? "" : ":\n" + more));
    }
  }

  /** Whether {@code condition} held before the timeout. */
  public boolean within(Condition condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      unchecked(() -> {
        guard.check();
        return null;
      });
      if (unchecked(condition::holds)) {
        return true;
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
      LockSupport.parkNanos(interval.toNanos());
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new InterruptedException("interrupted waiting for " + what);
      }
    }
  }

  private static <T> T unchecked(Callable<T> call) throws InterruptedException {
    try {
      return call.call();
    } catch (RuntimeException | InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A guard that fails when {@code process} has exited, with {@code log} (e.g. its tail). */
  public static Guard alive(Process process, String name, Callable<String> log) {
    return () -> {
      if (!process.isAlive()) {
        throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + log.call());
      }
    };
  }
}
