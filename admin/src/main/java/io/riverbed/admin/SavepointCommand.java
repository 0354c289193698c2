package io.riverbed.admin;

import io.riverbed.format.TableException;
import io.riverbed.format.savepoint.DeleteSavepoint;
import io.riverbed.format.savepoint.Savepoint;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.RestoreMetadata;
import io.riverbed.format.timeline.SavepointMetadata;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code savepoint create|delete|restore}: the core's savepoint verbs ({@code io.riverbed.format.savepoint}). */
@Command(name = "savepoint",
    description = {"Creates, deletes or restores to a savepoint (Hudi's savepoint and restore actions). Run them while "
        + "nothing writes the table."},
    subcommands = {SavepointCommand.Create.class, SavepointCommand.Delete.class, SavepointCommand.Restore.class})
final class SavepointCommand extends CommandGroup {

  /** {@code savepoint create}. */
  @Command(name = "create",
      description = {"Savepoints a completed commit, deltacommit or replacecommit: pins the files of each file group's "
          + "newest slice as of it, which cleaning then keeps, and stops archival there. Refused, as Hudi refuses "
          + "them: an instant that is not a completed write, one older than what the last clean retained, one "
          + "savepointed already."})
  static final class Create extends TableCommand {
    @Option(names = "--instant", paramLabel = "T", required = true, description = "The commit to savepoint.")
    String instant;

    @Option(names = "--user", paramLabel = "U", description = "Who makes it (savepointedBy; default empty).")
    String user = "";

    @Option(names = "--comments", paramLabel = "C", description = "Why (default empty).")
    String comments = "";

    /** The savepoint made: the files it pins, in how many partitions. */
    record Result(String savepoint, String user, String comments, int files, int partitions) {}

    @Override
    void run(Table table, Output out) {
      SavepointMetadata m = Savepoint.of(table, instant).user(user).comments(comments).execute();
      Result result = new Result(instant, user, comments,
          m.dataFilesByPartition().values().stream().mapToInt(List::size).sum(),
          (int) m.dataFilesByPartition().values().stream().filter(f -> !f.isEmpty()).count());
      out.result(result, "Savepoint " + instant + " created: " + result.files() + " files pinned in "
          + result.partitions() + " partitions.");
    }
  }

  /** {@code savepoint delete}. */
  @Command(name = "delete",
      description = {"Deletes the savepoint at an instant (completed, or left inflight by a crash): its files are then "
          + "cleaned like any others and archival may pass it. Refused while a restore to it is pending."})
  static final class Delete extends TableCommand {
    @Option(names = "--instant", paramLabel = "T", required = true, description = "The savepoint to delete.")
    String instant;

    record Result(String deleted) {}

    @Override
    void run(Table table, Output out) {
      if (!DeleteSavepoint.of(table, instant).execute()) {
        throw new TableException("table " + table.basePath() + " has no savepoint at " + instant
            + " ('savepoints' lists them)");
      }
      out.result(new Result(instant), "Deleted savepoint " + instant + ".");
    }
  }

  /** {@code savepoint restore}. */
  @Command(name = "restore",
      description = {"Takes the table back to a savepoint, as Hudi's restoreToSavepoint: every commit, deltacommit, "
          + "replacecommit and compaction after it is rolled back, newest first, under one restore instant; "
          + "afterwards reads return what they returned as of the savepoint. A restore that was interrupted is "
          + "finished by running it again. Refused: no such savepoint, a newer savepoint (delete it first), a "
          + "pending restore to another savepoint. Stop every writer of the table first."})
  static final class Restore extends TableCommand {
    @Option(names = "--instant", paramLabel = "T", required = true, description = "The savepoint to restore to.")
    String instant;

    /**
     * What the restore did.
     *
     * @param rolledBack the instants rolled back, in the order they were
     * @param filesDeleted data files their rollbacks deleted
     * @param rollbackLogFiles log files written with a rollback command block (MERGE_ON_READ appends)
     */
    record Result(String savepoint, String restore, List<String> rolledBack, int filesDeleted, int rollbackLogFiles) {}

    @Override
    void run(Table table, Output out) {
      RestoreMetadata done = io.riverbed.format.savepoint.Restore.of(table, instant).execute();
      int logs = done.rollbacks().values().stream().flatMap(List::stream).filter(java.util.Objects::nonNull)
          .flatMap(r -> r.partitionMetadata().values().stream()).mapToInt(p -> p.rollbackLogFiles().size()).sum();
      Result result = new Result(instant, done.startRestoreTime(), done.instantsToRollback(), done.totalFilesDeleted(),
          logs);
      List<String> times = result.rolledBack();
      out.result(result, "Restored table " + table.basePath() + " to savepoint " + instant + " with restore "
          + result.restore() + ": " + times.size() + " instants rolled back" + (times.isEmpty() ? "" : " (" + times.get(0) + " to "
          + times.get(times.size() - 1) + ")") + ", " + result.filesDeleted() + " files deleted"
          + (logs == 0 ? "" : ", " + logs + " log files with a rollback block written") + ".");
    }
  }
}
