package io.riverbed.admin;

import io.riverbed.format.TableException;
import io.riverbed.format.consumer.Consumer;
import io.riverbed.format.consumer.ConsumerRegistry;
import io.riverbed.format.table.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code consumer remove}: the registry's verbs an operator needs. */
@Command(name = "consumer",
    description = {"Changes the registered consumers ('consumers' lists them)."},
    subcommands = {ConsumerCommand.Remove.class})
final class ConsumerCommand extends CommandGroup {

  /** {@code consumer remove}. */
  @Command(name = "remove",
      description = {"Removes a registered consumer, so that it no longer holds cleaning and archival back (a dead "
          + "reader, before it expires). Its next read with consumer-id then needs a begin instant. Stop the reader "
          + "first: one still running registers itself again at its next read."})
  static final class Remove extends TableCommand {
    @Option(names = "--id", paramLabel = "ID", required = true, description = "The consumer id.")
    String id;

    record Result(String removed) {}

    @Override
    void run(Table table, Output out) {
      try {
        Consumer.checkId(id);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(commandLine(), "--id: " + e.getMessage());
      }
      if (!ConsumerRegistry.of(table).remove(id)) {
        throw new TableException("table " + table.basePath() + " has no consumer " + id + " ('consumers' lists them)");
      }
      out.result(new Result(id), "Removed consumer " + id + ".");
    }
  }
}
