package io.riverbed.admin;

import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.ActiveTimeline;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.WriteStat;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code commits}: the instants of the timeline, with what each completed commit wrote. */
@Command(name = "commits",
    description = {"The instants of the active timeline, oldest first: time, action, state and, for completed "
        + "commits, deltacommits, replacecommits and compactions, the operation and what it wrote (from the "
        + "commit metadata).",
        "A completed compaction is listed as the commit it completes as (operation COMPACT)."})
final class CommitsCommand extends TableCommand {
  private static final Set<Action> COMMITS = EnumSet.of(Action.COMMIT, Action.DELTA_COMMIT, Action.REPLACE_COMMIT);

  @Option(names = "--archived", description = "Also list the archived timeline (.hoodie/archived), before the "
      + "active one; archived instants show no metadata.")
  boolean archived;

  /**
   * One instant.
   *
   * @param timeline {@code active} or {@code archived}
   * @param files files written (base and log files the commit names)
   */
  record Row(String timeline, String time, String action, String state, String operation, Integer partitions,
      Integer files, Long recordsWritten, Long recordsUpdated, Long recordsDeleted, Long bytesWritten) {}

  @Override
  void run(Table table, Output out) {
    List<Row> rows = new ArrayList<>();
    if (archived) {
      for (Instant i : ArchivedTimeline.load(table).timeline().instants()) {
        rows.add(new Row("archived", i.time(), i.action().word(), i.state().name(), null, null, null, null, null, null,
            null));
      }
    }
    ActiveTimeline active = ActiveTimeline.load(table);
    for (Instant i : active.timeline().instants()) {
      if (i.isCompleted() && COMMITS.contains(i.action())) {
        rows.add(withMetadata(i, active.commitMetadata(i)));
      } else {
        rows.add(new Row("active", i.time(), i.action().word(), i.state().name(), null, null, null, null, null, null,
            null));
      }
    }
    if (out.isJson()) {
      out.json(rows);
      return;
    }
    var text = TextTable.of(rows);
    if (archived) {
      text.column("TIMELINE", Row::timeline);
    }
    out.table(text.column("TIME", Row::time).column("ACTION", Row::action).column("STATE", Row::state)
        .column("OPERATION", Row::operation).column("PARTITIONS", Row::partitions).column("FILES", Row::files)
        .column("RECORDS_WRITTEN", Row::recordsWritten).column("UPDATED", Row::recordsUpdated)
        .column("DELETED", Row::recordsDeleted).column("BYTES_WRITTEN", Row::bytesWritten));
  }

  private static Row withMetadata(Instant i, CommitMetadata m) {
    List<WriteStat> stats = m.writeStats();
    return new Row("active", i.time(), i.action().word(), i.state().name(), m.operationType().name(),
        m.partitionToWriteStats().size(), m.writtenPaths().size(),
        stats.stream().mapToLong(WriteStat::numWrites).sum(),
        stats.stream().mapToLong(WriteStat::numUpdateWrites).sum(),
        stats.stream().mapToLong(WriteStat::numDeletes).sum(),
        stats.stream().mapToLong(WriteStat::totalWriteBytes).sum());
  }
}
