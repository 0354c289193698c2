package io.riverbed.format.savepoint;

import io.riverbed.format.TableException;
import io.riverbed.format.TableOperation;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the savepoint of T as Hudi 0.15 does ({@code SavepointHelpers.deleteSavepoint}): the
 * completed {@code T.savepoint} first, then {@code T.savepoint.inflight}. Its files are then
 * cleaned like any others, and archival may pass T. An inflight savepoint left by a crash is
 * deleted too; a T without a savepoint is no error (Hudi logs and returns). Refused while a restore
 * to T is pending: that restore needs the savepoint to finish.
 */
public final class DeleteSavepoint implements TableOperation<Boolean> {
  private static final Logger LOG = LoggerFactory.getLogger(DeleteSavepoint.class);

  private final Table table;
  private final String instantTime;

  private DeleteSavepoint(Table table, String instantTime) {
    this.table = table;
    this.instantTime = instantTime;
  }

  public static DeleteSavepoint of(Table table, String instantTime) {
    return new DeleteSavepoint(Objects.requireNonNull(table, "table"), Objects.requireNonNull(instantTime, "instantTime"));
  }

  /**
   * Deletes the savepoint's files.
   *
   * @return true if a savepoint (completed or inflight) was there and is deleted
   * @throws TableException if a restore to this savepoint is pending
   */
  @Override
  public Boolean execute() {
    Table writable = table.prepareForWrite();
    TimelineStore store = writable.timelineStore();
    Timeline timeline = store.load();
    RestorePlans.pending(store, timeline).forEach((restore, savepoint) -> {
      if (instantTime.equals(savepoint)) {
        throw new TableException("cannot delete savepoint " + instantTime + " of table " + table.basePath()
            + ": restore " + restore + " to it is pending; run the restore to its end first");
      }
    });
    List<Instant> states = store.statesOf(instantTime).stream().filter(i -> i.action() == Action.SAVEPOINT)
        .sorted(Comparator.comparing(Instant::state).reversed()).toList();
    if (states.isEmpty()) {
      LOG.warn("Table {} has no savepoint at {}; nothing deleted", table.basePath(), instantTime);
      return false;
    }
    states.forEach(store::delete);
    LOG.info("Savepoint {} of table {} deleted", instantTime, table.basePath());
    return true;
  }
}
