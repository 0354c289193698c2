package io.riverbed.format.timeline;

import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Decides whether log blocks written by an instant are committed, as Hudi's log scanner does:
 * the completed commits timeline contains the instant, or the instant is older than that
 * timeline's first instant (archived), and the instant is not inflight.
 */
public final class InstantCommittedPredicate implements Predicate<String> {
  private final Set<String> completed;
  private final Set<String> pending;
  private final String firstCompleted;

  private InstantCommittedPredicate(Set<String> completed, Set<String> pending, String firstCompleted) {
    this.completed = completed;
    this.pending = pending;
    this.firstCompleted = firstCompleted;
  }

  /** Built from the whole active timeline; uses its commits timeline (commit, deltacommit, replacecommit). */
  public static InstantCommittedPredicate of(Timeline activeTimeline) {
    Timeline commits = activeTimeline.commitsTimeline();
    Timeline done = commits.completed();
    return new InstantCommittedPredicate(
        done.instants().stream().map(Instant::time).collect(Collectors.toUnmodifiableSet()),
        commits.pending().instants().stream().map(Instant::time).collect(Collectors.toUnmodifiableSet()),
        done.first().map(Instant::time).orElse(null));
  }

  @Override
  public boolean test(String instantTime) {
    if (pending.contains(instantTime)) {
      return false;
    }
    return completed.contains(instantTime)
        || (firstCompleted != null && instantTime.compareTo(firstCompleted) < 0);
  }
}
