package io.riverbed.admin;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.CompactionPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The active timeline of a table from one listing of {@code .hoodie}: the timeline (highest state
 * per instant) and which instants are compactions, which the timeline alone does not say once a
 * compaction has completed (it is filed as a commit; its {@code compaction.requested} stays).
 */
final class ActiveTimeline {
  private final TimelineStore store;
  private final Timeline timeline;
  /** Time of every compaction to its highest state. */
  private final TreeMap<String, State> compactions = new TreeMap<>();

  private ActiveTimeline(TimelineStore store, Set<Instant> stateFiles) {
    this.store = store;
    this.timeline = Timeline.fromInstants(stateFiles);
    for (Instant i : stateFiles) {
      if (i.action() == Action.COMPACTION) {
        compactions.merge(i.time(), i.state(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
      }
    }
    for (String time : compactions.keySet()) {
      if (stateFiles.contains(Instant.completed(time, Action.COMPACTION))) {
        compactions.put(time, State.COMPLETED);
      }
    }
  }

  static ActiveTimeline load(Table table) {
    TimelineStore store = table.timelineStore();
    return new ActiveTimeline(store, store.modificationTimes().keySet());
  }

  TimelineStore store() {
    return store;
  }

  Timeline timeline() {
    return timeline;
  }

  /** Compaction times, oldest first, with their state (a completed one is filed as a commit). */
  TreeMap<String, State> compactions() {
    return compactions;
  }

  Optional<State> compactionState(String time) {
    return Optional.ofNullable(compactions.get(time));
  }

  /** The plan of the compaction at {@code time} ({@code time.compaction.requested}). */
  CompactionPlan plan(String time) {
    Instant requested = Instant.requested(time, Action.COMPACTION);
    return CompactionPlan.fromBytes(store.read(requested), store.pathOf(requested).toString());
  }

  /** The metadata of a completed commit, deltacommit or replacecommit (a completed compaction included). */
  CommitMetadata commitMetadata(Instant completed) {
    return CommitMetadata.fromJson(store.read(completed), store.pathOf(completed).toString());
  }
}
