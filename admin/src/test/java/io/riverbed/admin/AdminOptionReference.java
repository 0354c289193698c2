package io.riverbed.admin;

import io.riverbed.format.docs.OptionsPage;
import java.util.Map;
import picocli.CommandLine;

/**
 * The {@code admin} section of {@code docs/OPTIONS.md}: the usage text of {@code riverbed-admin} and
 * of each of its commands (and of the subcommands of a group such as {@code savepoint}), as
 * {@code --help} prints it.
 */
public final class AdminOptionReference {
  public static final String SECTION = "admin";

  private AdminOptionReference() {}

  public static String render() {
    CommandLine admin = AdminCommand.commandLine(Map.of());
    StringBuilder out = new StringBuilder("## `riverbed-admin` (`admin`, `io.riverbed.admin.AdminMain`)\n\n"
        + "The operators' command line (see [ADMIN.md](ADMIN.md)). The table service options its commands take with\n"
        + "`--option KEY=VALUE` are the core's (Compaction, Base files, Cleaning, Archival above), under the same names;\n"
        + "`--conf KEY=VALUE` takes Hadoop settings.\n\n"
        + OptionsPage.codeBlock(admin.getUsageMessage(CommandLine.Help.Ansi.OFF)));
    admin.getSubcommands().values().forEach(command -> appendUsage(out, command));
    return out.toString();
  }

  /** The command's usage, then its subcommands' ({@code savepoint create}, ...). */
  private static void appendUsage(StringBuilder out, CommandLine command) {
    out.append("\n### `").append(command.getCommandSpec().qualifiedName()).append("`\n\n")
        .append(OptionsPage.codeBlock(command.getUsageMessage(CommandLine.Help.Ansi.OFF)));
    command.getSubcommands().values().forEach(sub -> appendUsage(out, sub));
  }
}
