package io.riverbed.format.timeline;

import io.riverbed.format.table.Table;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The active timeline of a table from one listing of {@code .hoodie}: the timeline (highest state
 * per instant), when each state file was last written, and which instants are compactions, which
 * the timeline alone does not say once a compaction has completed (it is filed as a commit; its
 * {@code compaction.requested} stays). Operators' tools (the admin CLI, Spark's procedures) read it.
 */
public final class ActiveTimeline {
  private final TimelineStore store;
  private final Timeline timeline;
  private final Map<Instant, Long> modificationTimes;
  /** Time of every compaction to its highest state. */
  private final TreeMap<String, State> compactions = new TreeMap<>();

  private ActiveTimeline(TimelineStore store, Map<Instant, Long> modificationTimes) {
    this.store = store;
    this.modificationTimes = modificationTimes;
    this.timeline = Timeline.fromInstants(modificationTimes.keySet());
    for (Instant i : modificationTimes.keySet()) {
      if (i.action() == Action.COMPACTION) {
        compactions.merge(i.time(), i.state(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
      }
    }
    for (String time : compactions.keySet()) {
      if (modificationTimes.containsKey(Instant.completed(time, Action.COMPACTION))) {
        compactions.put(time, State.COMPLETED);
      }
    }
  }

  public static ActiveTimeline load(Table table) {
    TimelineStore store = table.timelineStore();
    return new ActiveTimeline(store, store.modificationTimes());
  }

  public TimelineStore store() {
    return store;
  }

  public Timeline timeline() {
    return timeline;
  }

  /** Compaction times, oldest first, with their state (a completed one is filed as a commit). */
  public TreeMap<String, State> compactions() {
    return compactions;
  }

  public Optional<State> compactionState(String time) {
    return Optional.ofNullable(compactions.get(time));
  }

  /** The requested and inflight compactions, oldest first. */
  public List<String> pendingCompactions() {
    return compactions.entrySet().stream().filter(e -> e.getValue() != State.COMPLETED).map(Map.Entry::getKey).toList();
  }

  /**
   * When the file of {@code instant}'s state was last written (milliseconds since the epoch), as
   * Hudi 0.15 reports an instant's state transition time.
   */
  public Optional<Long> stateTransitionMillis(Instant instant) {
    return Optional.ofNullable(modificationTimes.get(instant));
  }

  /** The plan of the compaction at {@code time} ({@code time.compaction.requested}). */
  public CompactionPlan plan(String time) {
    Instant requested = Instant.requested(time, Action.COMPACTION);
    return CompactionPlan.fromBytes(store.read(requested), store.pathOf(requested).toString());
  }

  /** The metadata of a completed commit, deltacommit or replacecommit (a completed compaction included). */
  public CommitMetadata commitMetadata(Instant completed) {
    return CommitMetadata.parse(store.read(completed), store.pathOf(completed).toString());
  }
}
