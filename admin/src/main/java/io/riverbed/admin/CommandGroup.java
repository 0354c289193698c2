package io.riverbed.admin;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** A command that only groups subcommands ({@code savepoint create}, {@code consumer remove}): alone it is a usage error. */
@Command(mixinStandardHelpOptions = true, versionProvider = AdminCommand.Version.class, usageHelpWidth = 110)
abstract class CommandGroup implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public final void run() {
    throw new ParameterException(spec.commandLine(), "name a " + spec.name() + " command: "
        + String.join(", ", spec.subcommands().keySet()));
  }
}
