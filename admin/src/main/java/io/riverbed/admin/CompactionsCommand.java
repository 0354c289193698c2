package io.riverbed.admin;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.ActiveTimeline;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.CompactionPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.WriteStat;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code compactions}: every compaction on the active timeline, pending and completed. */
@Command(name = "compactions",
    description = {"The compactions of the active timeline, oldest first: state (REQUESTED, INFLIGHT, COMPLETED), "
        + "the file groups and log files their plan compacts and, once completed, the base files and records they "
        + "wrote."})
final class CompactionsCommand extends TableCommand {

  record Row(String instant, String state, int fileGroups, int logFiles, Integer baseFilesWritten,
      Long recordsWritten) {}

  @Override
  void run(Table table, Output out) {
    ActiveTimeline active = ActiveTimeline.load(table);
    List<Row> rows = new ArrayList<>();
    active.compactions().forEach((time, state) -> {
      CompactionPlan plan = active.plan(time);
      int logFiles = plan.operations().stream().mapToInt(op -> op.deltaFilePaths().size()).sum();
      if (state == State.COMPLETED) {
        CommitMetadata done = active.commitMetadata(Instant.completed(time, Action.COMPACTION));
        rows.add(new Row(time, state.name(), plan.operations().size(), logFiles, done.writeStats().size(),
            done.writeStats().stream().mapToLong(WriteStat::numWrites).sum()));
      } else {
        rows.add(new Row(time, state.name(), plan.operations().size(), logFiles, null, null));
      }
    });
    if (out.isJson()) {
      out.json(rows);
      return;
    }
    out.table(TextTable.of(rows).column("INSTANT", Row::instant).column("STATE", Row::state)
        .column("FILE_GROUPS", Row::fileGroups).column("LOG_FILES", Row::logFiles)
        .column("BASE_FILES_WRITTEN", Row::baseFilesWritten).column("RECORDS_WRITTEN", Row::recordsWritten));
  }
}
