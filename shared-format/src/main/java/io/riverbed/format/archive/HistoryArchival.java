package io.riverbed.format.archive;

import io.riverbed.format.TableException;
import io.riverbed.format.history.LsmHistory;
import io.riverbed.format.history.LsmHistoryWriter;
import io.riverbed.format.history.LsmInstantRow;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.avro.generic.GenericRecord;

/**
 * The version 8 half of {@link Archiver}: moves the instants due into Hudi 1.x's LSM history
 * ({@code .hoodie/timeline/history/}) as Hudi 1.0.2's {@code TimelineArchiverV2} does. One row per
 * instant ({@link LsmInstantRow}: its completed file, completion time and plan), the rows in
 * requested-time order in one layer-0 file committed by a new manifest version
 * ({@link LsmHistoryWriter#write}); only then are the instants' files deleted from the active
 * timeline (requested and inflight files first, completed files oldest first), and then the
 * history's layers are compacted and its old versions cleaned.
 *
 * <p>A crash before the manifest names the file leaves the active timeline as it was (the file is
 * rewritten by the next run); a crash after it leaves the instants in both, which readers tolerate
 * (the active timeline wins), and the next run finds its file committed, skips writing it and
 * deletes the active files.
 */
final class HistoryArchival {
  private final Table table;
  private final TimelineStore store;
  private final Consumer<String> checkpoints;

  HistoryArchival(Table table, TimelineStore store, Consumer<String> checkpoints) {
    this.table = table;
    this.store = store;
    this.checkpoints = checkpoints;
  }

  /** The history folder of {@code table}. */
  static LsmHistory historyOf(Table table) {
    return LsmHistory.at(table.fs(), table.archivePath());
  }

  /**
   * Archives the completed instants {@code due} (every state file of each) and compacts the history.
   *
   * @return the layer-0 file that holds them
   */
  String archive(Timeline active, List<Instant> due, List<Instant> stateFiles, Runnable afterHistoryWritten,
      int compactionBatchSize) {
    List<GenericRecord> rows = new ArrayList<>();
    for (Instant completed : due) {
      rows.add(rowOf(active, completed, stateFiles).toRecord());
    }
    LsmHistoryWriter writer = LsmHistoryWriter.of(historyOf(table)).checkpoints(checkpoints);
    String file = writer.write(rows);
    afterHistoryWritten.run();
    Archiver.deleteActiveFiles(table, store, stateFiles);
    writer.compactAndClean(compactionBatchSize);
    return file;
  }

  private LsmInstantRow rowOf(Timeline active, Instant completed, List<Instant> stateFiles) {
    String completion = active.completionTime(completed.time()).orElseThrow(() -> new TableException("cannot archive "
        + completed + " of table " + table.basePath() + ": its completed file names no completion time"));
    List<Instant> states = stateFiles.stream().filter(i -> i.time().equals(completed.time())
        && i.action().completedAs() == completed.action().completedAs()).toList();
    Optional<Instant> requested = states.stream().filter(Instant::isRequested).findFirst();
    Optional<Instant> inflight = states.stream().filter(Instant::isInflight).findFirst();
    Action pendingAction = requested.or(() -> inflight).map(Instant::action).orElse(completed.action());
    byte[] plan = switch (pendingAction) {
      case CLEAN, COMPACTION, LOG_COMPACTION -> requested.map(store::read).orElse(null);
      case REPLACE_COMMIT -> {
        byte[] inflightBytes = inflight.map(store::read).orElse(new byte[0]);
        yield inflightBytes.length > 0 ? inflightBytes : requested.map(store::read).orElse(null);
      }
      default -> null;
    };
    return new LsmInstantRow(completed.time(), completion, completed.action(), store.read(completed), plan);
  }


}
