package io.riverbed.format.query;

import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Incremental queries on a table version 8 whose range begins in archived time, answered as Hudi
 * 1.0.2 answers them: its {@code IncrementalQueryAnalyzer} takes the writes completed in the range
 * from the active timeline and from the LSM history ({@code CompletionTimeQueryView} loads the
 * archived completion times), and its Spark relations read the archived writes' files from the commit
 * metadata the history keeps, as they read the active writes' files. So the archived writes of the
 * range join the active ones as candidates ({@link #withArchived}), and their metadata comes from the
 * history ({@link ArchivedTimeline#metadataOf}).
 *
 * <p>The history is read only when the range's begin completion time precedes the first active
 * write's completion time; on version 6 never (Hudi 0.15 reads only the active timeline).
 */
final class HistoryReach {
  private HistoryReach() {}

  /**
   * The archived timeline when the incremental range from {@code beginCompletion} reaches into it.
   *
   * @param candidates the active completed writes the range is chosen from
   */
  static Optional<ArchivedTimeline> reachedBy(Table table, Timeline candidates, String beginCompletion) {
    if (!table.config().incrementalRangeByCompletionTime() || !ArchivedTimeline.exists(table)) {
      return Optional.empty();
    }
    Optional<String> firstCompletion = candidates.instants().stream()
        .map(i -> candidates.completionTime(i.time()).orElse(i.time())).min(String::compareTo);
    if (firstCompletion.isPresent() && beginCompletion.compareTo(firstCompletion.get()) > 0) {
      return Optional.empty();
    }
    return Optional.of(ArchivedTimeline.load(table));
  }

  /** The active candidates and the archived completed writes of the same kind, with their completion times. */
  static Timeline withArchived(Timeline candidates, ArchivedTimeline history, TableType type) {
    Timeline archived = history.timeline();
    Timeline kind = (type == TableType.COPY_ON_WRITE ? archived.commitAndReplaceTimeline() : archived.writeTimeline())
        .completed();
    List<Instant> all = new ArrayList<>(candidates.instants());
    Map<String, String> completions = new HashMap<>();
    for (Instant i : kind.instants()) {
      if (!candidates.containsTime(i.time())) {
        all.add(i);
        archived.completionTime(i.time()).ifPresent(c -> completions.put(i.time(), c));
      }
    }
    candidates.instants().forEach(i -> candidates.completionTime(i.time()).ifPresent(c -> completions.put(i.time(), c)));
    return Timeline.fromInstants(all, completions);
  }
}
