package io.riverbed.admin;

import io.riverbed.format.TableException;
import io.riverbed.format.options.SecretOptions;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/**
 * How a failed command ends: one line on stderr, {@code <command>: <what went wrong>}, naming the
 * table, instant or option (the core's exceptions already do), and picocli's exit codes: 2 for a
 * bad command line, 1 for a command that failed. {@code --verbose} adds the stack trace.
 */
final class Failures implements IExecutionExceptionHandler, IParameterExceptionHandler {

  @Override
  public int handleParseException(ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    String name = command.getCommandSpec().qualifiedName();
    err.println(name + ": " + oneLine(e.getMessage()) + " (" + name + " --help lists the options)");
    if (isVerbose(command)) {
      e.printStackTrace(err);
    }
    err.flush();
    return CommandLine.ExitCode.USAGE;
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine command, CommandLine.ParseResult parseResult) {
    PrintWriter err = command.getErr();
    boolean verbose = isVerbose(command);
    boolean expected = e instanceof TableException || e instanceof UncheckedIOException;
    err.println(command.getCommandSpec().qualifiedName() + ": " + describe(e)
        + (expected || verbose ? "" : " (--verbose prints the stack trace)"));
    if (verbose) {
      e.printStackTrace(err);
    }
    err.flush();
    return CommandLine.ExitCode.SOFTWARE;
  }

  /**
   * The exception's message followed by those of its causes that it does not already contain, on
   * one line, with secrets redacted; the class name stands in for a missing message.
   */
  static String describe(Throwable e) {
    StringBuilder b = new StringBuilder(message(e, true));
    for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
      String m = message(cause, false);
      if (m != null && !b.toString().contains(m)) {
        b.append(": ").append(m);
      }
    }
    return oneLine(SecretOptions.redactText(b.toString()));
  }

  private static String message(Throwable e, boolean orClassName) {
    String m = e.getMessage();
    if (m == null || m.isBlank()) {
      return orClassName ? e.getClass().getSimpleName() : null;
    }
    return e instanceof TableException || e instanceof UncheckedIOException || !orClassName
        ? m : e.getClass().getSimpleName() + ": " + m;
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  private static boolean isVerbose(CommandLine command) {
    return command.getCommand() instanceof TableCommand t && t.verbose();
  }
}
