package io.riverbed.admin;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.upgrade.TableVersionChange;
import picocli.CommandLine.Option;

/**
 * {@code upgrade} and {@code downgrade}: the table's version changed offline by the core's
 * {@link TableVersionChange}, as Hudi's upgrade and downgrade handlers change it. The command's name
 * says the direction, which must match the table's version and {@code --to}.
 */
abstract class TableVersionCommand extends TableCommand {
  @Option(names = "--to", required = true, paramLabel = "VERSION",
      description = "The table version to change to: 8 (Hudi 1.x) for upgrade, 6 (Hudi 0.14/0.15) for downgrade.")
  int to;

  /** True for {@code upgrade}: the target version is above the table's. */
  abstract boolean upward();

  @Override
  void run(Table table, Output out) {
    int current = table.config().version();
    if (current != to && (to > current) != upward()) {
      throw new TableException("table " + table.basePath() + " has table version " + current + "; "
          + (upward() ? "upgrade" : "downgrade") + " --to " + to + " goes the other way: use "
          + (upward() ? "downgrade" : "upgrade"));
    }
    TableVersionChange.Result result = TableVersionChange.of(table, to).execute();
    if (out.isJson()) {
      out.json(result);
    } else if (result.fromVersion() == result.toVersion()) {
      out.line("Table " + table.basePath() + " has table version " + to + " already; nothing to change.");
    } else {
      out.line("Changed table " + table.basePath() + " from version " + result.fromVersion() + " to "
          + result.toVersion() + ": " + result.rolledBack().size() + " failed writes rolled back, "
          + result.compactions().size() + " compactions run, " + result.timelineFiles() + " timeline files moved, "
          + result.archivedInstants() + " archived instants converted.");
    }
  }
}
