package io.riverbed.admin;

import java.util.Map;
import java.util.Objects;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code riverbed-admin}: the operators' command line over the format core. Each subcommand opens
 * one table and either shows its state (timeline, file slices, compactions, savepoints, consumers,
 * config) or runs one of the table's verbs offline (compaction, clean, archival, rollback,
 * savepoints and restore, removing a consumer).
 */
@Command(name = "riverbed-admin", mixinStandardHelpOptions = true, versionProvider = AdminCommand.Version.class,
    usageHelpWidth = 110,
    description = "Inspects a Hudi table (version 6) and runs its table services offline.",
    subcommands = {
        CommitsCommand.class,
        FileSlicesCommand.class,
        CompactionsCommand.class,
        CompactCommand.class,
        CleanCommand.class,
        ArchiveCommand.class,
        RollbackCommand.class,
        SavepointsCommand.class,
        SavepointCommand.class,
        ConsumersCommand.class,
        ConsumerCommand.class,
        ShowConfigCommand.class,
        UpgradeCommand.class,
        DowngradeCommand.class},
    footer = {"", "Every command takes --json, --conf KEY=VALUE (repeatable) and --verbose; '<command> --help' lists its own.",
        "Exit status: 0 done, 1 the command failed (one line on stderr), 2 a bad command line."})
final class AdminCommand implements Runnable {
  private final Map<String, String> environment;

  @Spec
  CommandSpec spec;

  AdminCommand(Map<String, String> environment) {
    this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
  }

  /** The command line with Riverbed's failure handling; {@code environment} supplies HADOOP_CONF_DIR. */
  static CommandLine commandLine(Map<String, String> environment) {
    Failures failures = new Failures();
    return new CommandLine(new AdminCommand(environment))
        .setParameterExceptionHandler(failures)
        .setExecutionExceptionHandler(failures)
        .setUsageHelpAutoWidth(false);
  }

  /** The process environment the command sees (HADOOP_CONF_DIR). */
  Map<String, String> environment() {
    return environment;
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "name a command: "
        + String.join(", ", spec.subcommands().keySet()));
  }

  /** The version in the bundle jar's manifest; source builds have none. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = AdminCommand.class.getPackage().getImplementationVersion();
      return new String[] {"riverbed-admin " + (v == null ? "(development build)" : v)};
    }
  }
}
