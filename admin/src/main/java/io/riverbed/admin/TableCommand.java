package io.riverbed.admin;

import io.riverbed.format.table.Table;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * A subcommand over one table: opens the table at {@code PATH} with the Hadoop settings, then
 * {@link #run}s against it. A failure is an exception, which {@link Failures} prints as one line.
 * It may sit under a group of commands ({@code savepoint create}); the environment is the root
 * command's.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = AdminCommand.Version.class, usageHelpWidth = 110)
abstract class TableCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  GlobalOptions global;

  @Parameters(index = "0", paramLabel = "PATH",
      description = "The table's base path: /local/path, file:/..., hdfs://..., s3a://bucket/...")
  String path;

  @Override
  public final Integer call() {
    Configuration conf = HadoopSettings.configuration(commandLine(), environment(), global.conf);
    run(HadoopSettings.openTable(path, conf), new Output(commandLine().getOut(), global.json));
    return CommandLine.ExitCode.OK;
  }

  /** Does the command's work and prints its result. */
  abstract void run(Table table, Output out);

  /** The process environment {@code riverbed-admin} was started with (HADOOP_CONF_DIR). */
  private Map<String, String> environment() {
    CommandLine root = commandLine();
    while (root.getParent() != null) {
      root = root.getParent();
    }
    return ((AdminCommand) root.getCommand()).environment();
  }

  CommandLine commandLine() {
    return spec.commandLine();
  }

  boolean verbose() {
    return global != null && global.verbose;
  }
}
