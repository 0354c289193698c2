package io.riverbed.admin;

import io.riverbed.format.table.Table;
import io.riverbed.format.write.InstantRollback;
import io.riverbed.format.write.Rollback;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rollback}: rolls back one write instant with the core's {@link InstantRollback}, after the
 * checks Apache Hudi 0.15 makes before a rollback; {@link Rollback} does the work.
 */
@Command(name = "rollback",
    description = {"Rolls back a pending or completed commit, deltacommit or replacecommit: its files are deleted (log "
        + "blocks it appended to older slices are cancelled by a rollback command block) and its instant leaves the "
        + "timeline, recorded by a rollback instant. As Hudi, refuses an instant that a later completed or pending "
        + "write follows (roll those back first, newest first) and a savepointed one. Compactions are not rolled "
        + "back: 'compact --instant T' finishes a pending one. A rollback that was interrupted is resumed."})
final class RollbackCommand extends TableCommand {
  @Option(names = "--instant", paramLabel = "T", required = true, description = "The instant to roll back.")
  String instant;

  /**
   * What the rollback did.
   *
   * @param filesDeleted data files deleted
   * @param rollbackLogFiles log files written with a rollback command block (MERGE_ON_READ appends)
   */
  record Result(String rolledBack, String action, String state, String rollbackInstant, int filesDeleted,
      int rollbackLogFiles) {}

  @Override
  void run(Table table, Output out) {
    InstantRollback.Result done = InstantRollback.of(table, instant).execute();
    int logs = done.rollbackLogFiles();
    Result result = new Result(instant, done.target().action().word(), done.target().state().name(),
        done.metadata().startRollbackTime(), done.metadata().totalFilesDeleted(), logs);
    if (out.isJson()) {
      out.json(result);
      return;
    }
    out.line("Rolled back " + result.action() + " " + instant + " (" + result.state() + ") with rollback "
        + result.rollbackInstant() + ": " + result.filesDeleted() + " files deleted"
        + (logs == 0 ? "" : ", " + logs + " log files with a rollback block written") + ".");
  }
}
