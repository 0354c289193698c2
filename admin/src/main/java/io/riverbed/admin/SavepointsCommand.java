package io.riverbed.admin;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.SavepointMetadata;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code savepoints}: the savepoints of the active timeline and what each pins. */
@Command(name = "savepoints",
    description = {"The savepoints of the active timeline, oldest first: who made each, when and why, and the base "
        + "and log files it pins (cleaning never deletes them). An INFLIGHT one is a savepoint whose creation was "
        + "interrupted: 'savepoint create' at its instant completes it, 'savepoint delete' removes it."})
final class SavepointsCommand extends TableCommand {

  /**
   * One savepoint.
   *
   * @param savepointedAt when it was made (ISO-8601, UTC), null while inflight
   * @param files base and log files it pins, null while inflight
   * @param partitions partitions holding pinned files, null while inflight
   */
  record Row(String instant, String state, String user, String savepointedAt, Integer files, Integer partitions,
      String comments) {}

  @Override
  void run(Table table, Output out) {
    Timeline timeline = table.refreshTimeline();
    TimelineStore store = table.timelineStore();
    List<Row> rows = new ArrayList<>();
    for (Instant savepoint : timeline.ofAction(Action.SAVEPOINT).instants()) {
      if (!savepoint.isCompleted()) {
        rows.add(new Row(savepoint.time(), savepoint.state().name(), null, null, null, null, null));
        continue;
      }
      SavepointMetadata m = SavepointMetadata.fromBytes(store.read(savepoint), store.pathOf(savepoint).toString());
      int files = m.dataFilesByPartition().values().stream().mapToInt(List::size).sum();
      int partitions = (int) m.dataFilesByPartition().values().stream().filter(f -> !f.isEmpty()).count();
      rows.add(new Row(savepoint.time(), savepoint.state().name(), m.savepointedBy(),
          java.time.Instant.ofEpochMilli(m.savepointedAt()).toString(), files, partitions, m.comments()));
    }
    if (out.isJson()) {
      out.json(rows);
      return;
    }
    out.table(TextTable.of(rows).column("INSTANT", Row::instant).column("STATE", Row::state)
        .column("USER", r -> blankAsAbsent(r.user())).column("SAVEPOINTED_AT", Row::savepointedAt)
        .column("FILES", Row::files).column("PARTITIONS", Row::partitions)
        .column("COMMENTS", r -> blankAsAbsent(r.comments())));
  }

  private static String blankAsAbsent(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
