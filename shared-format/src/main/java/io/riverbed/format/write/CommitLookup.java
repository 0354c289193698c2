package io.riverbed.format.write;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds completed commits by what their writers put in {@code extraMetadata}: a writer that
 * records e.g. its job id and checkpoint id there can tell after a restart whether a commit was
 * already made (idempotent commits).
 */
public final class CommitLookup {
  private CommitLookup() {}

  /** The newest completed commit/deltacommit/replacecommit whose {@code extraMetadata[key]} equals {@code value}. */
  public static Optional<Instant> findCompleted(Table table, String key, String value) {
    Objects.requireNonNull(value, "value");
    return newestFirst(table).stream()
        .filter(i -> value.equals(read(table, i).extraMetadata().get(key)))
        .findFirst();
  }

  /** {@code extraMetadata[key]} of the newest completed commit that has the key. */
  public static Optional<String> latestValue(Table table, String key) {
    for (Instant instant : newestFirst(table)) {
      String v = read(table, instant).extraMetadata().get(key);
      if (v != null) {
        return Optional.of(v);
      }
    }
    return Optional.empty();
  }

  private static List<Instant> newestFirst(Table table) {
    Timeline done = table.refreshTimeline().commitsTimeline().completed();
    List<Instant> out = new ArrayList<>(done.instants());
    Collections.reverse(out);
    return out;
  }

  private static CommitMetadata read(Table table, Instant instant) {
    TimelineStore store = table.timelineStore();
    return CommitMetadata.parse(store.read(instant), store.pathOf(instant).toString());
  }
}
