package io.riverbed.format.timeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * An immutable, ordered view of instants. The active timeline keeps only the highest state of
 * each instant (layout version 1 leaves every state file on disk); the filters are the ones
 * Hudi's readers use, so a Riverbed reader sees exactly the instants theirs does.
 */
public final class Timeline {

  private static final Set<Action> WRITE_ACTIONS =
      EnumSet.of(Action.COMMIT, Action.DELTA_COMMIT, Action.REPLACE_COMMIT, Action.COMPACTION, Action.LOG_COMPACTION);
  private static final Set<Action> COMMITS_ACTIONS =
      EnumSet.of(Action.COMMIT, Action.DELTA_COMMIT, Action.REPLACE_COMMIT);

  private final List<Instant> instants;
  /** Requested time to completion time of completed instants, as a layout-2 timeline names them; empty for layout 1. */
  private final Map<String, String> completionTimes;

  private Timeline(List<Instant> sortedInstants, Map<String, String> completionTimes) {
    this.instants = Collections.unmodifiableList(sortedInstants);
    this.completionTimes = completionTimes;
  }

  /**
   * Builds a timeline from every instant found on storage: instants of the same time and
   * (completed) action collapse to their highest state.
   */
  public static Timeline fromInstants(Collection<Instant> all) {
    return fromInstants(all, Map.of());
  }

  /**
   * Like {@link #fromInstants(Collection)}, for a layout-2 timeline whose completed instants carry
   * their completion times ({@link #completionKey} of the requested time and action -> completion time).
   */
  public static Timeline fromInstants(Collection<Instant> all, Map<String, String> completionTimes) {
    Map<String, Instant> highest = new LinkedHashMap<>();
    for (Instant i : all) {
      String key = i.time() + "|" + i.action().completedAs().name();
      highest.merge(key, i, (a, b) -> a.state().compareTo(b.state()) >= 0 ? a : b);
    }
    List<Instant> sorted = new ArrayList<>(highest.values());
    Collections.sort(sorted);
    return new Timeline(sorted, Map.copyOf(completionTimes));
  }

  public static Timeline empty() {
    return new Timeline(List.of(), Map.of());
  }

  /**
   * The completion time of the completed instant requested at {@code time}, as its layout-2 file
   * name says; empty for layout 1 (no completion times on storage) and for instants not completed here.
   */
  public Optional<String> completionTime(String time) {
    return Optional.ofNullable(completionTimes.get(time));
  }

  /**
   * The completion time of {@code instant} as its layout-2 file name says: a savepoint's own (it is
   * requested at the time of the commit it pins, so {@link #completionTime(String)} is the commit's);
   * empty as for {@link #completionTime(String)}.
   */
  public Optional<String> completionTime(Instant instant) {
    return Optional.ofNullable(completionTimes.get(completionKey(instant.time(), instant.action())));
  }

  /**
   * The key of a completion time in the map {@link #fromInstants(Collection, Map)} takes: the requested
   * time, and for a savepoint (which shares its commit's requested time) the time and its action.
   */
  public static String completionKey(String time, Action action) {
    return action == Action.SAVEPOINT ? time + "|" + action.word() : time;
  }

  public List<Instant> instants() {
    return instants;
  }

  /**
   * The greatest time this timeline names, requested or (layout 2) completion time; empty string for
   * an empty timeline. A new instant, and a completion, must come after it.
   */
  public String latestTime() {
    String latest = "";
    for (Instant i : instants) {
      latest = i.time().compareTo(latest) > 0 ? i.time() : latest;
    }
    for (String completion : completionTimes.values()) {
      latest = completion.compareTo(latest) > 0 ? completion : latest;
    }
    return latest;
  }

  public boolean isEmpty() {
    return instants.isEmpty();
  }

  public int size() {
    return instants.size();
  }

  public Timeline filter(Predicate<Instant> predicate) {
    return new Timeline(instants.stream().filter(predicate).toList(), completionTimes);
  }

  /** commit, deltacommit, replacecommit, compaction, logcompaction: what writes data files. */
  public Timeline writeTimeline() {
    return filter(i -> WRITE_ACTIONS.contains(i.action()));
  }

  /** commit, deltacommit, replacecommit: Hudi's {@code getCommitsTimeline()}. */
  public Timeline commitsTimeline() {
    return filter(i -> COMMITS_ACTIONS.contains(i.action()));
  }

  /** commit and replacecommit only: Hudi's {@code getCommitTimeline()} (COW incremental). */
  public Timeline commitAndReplaceTimeline() {
    return filter(i -> i.action() == Action.COMMIT || i.action() == Action.REPLACE_COMMIT);
  }

  public Timeline completed() {
    return filter(Instant::isCompleted);
  }

  public Timeline pending() {
    return filter(i -> !i.isCompleted());
  }

  /** Completed instants plus compactions in any state: the base of every query's file view. */
  public Timeline completedAndCompactionInstants() {
    return filter(i -> i.isCompleted() || i.action() == Action.COMPACTION);
  }

  /** Compactions requested or inflight (their plans define new file slices). */
  public Timeline pendingCompactions() {
    return filter(i -> i.action() == Action.COMPACTION && !i.isCompleted());
  }

  public Timeline ofAction(Action action) {
    return filter(i -> i.action() == action);
  }

  public Optional<Instant> first() {
    return instants.isEmpty() ? Optional.empty() : Optional.of(instants.get(0));
  }

  public Optional<Instant> last() {
    return instants.isEmpty() ? Optional.empty() : Optional.of(instants.get(instants.size() - 1));
  }

  /** The first instant that is not a savepoint: the start of the active timeline for visibility. */
  public Optional<Instant> firstNonSavepoint() {
    return instants.stream().filter(i -> i.action() != Action.SAVEPOINT).findFirst();
  }

  public boolean containsTime(String time) {
    return instants.stream().anyMatch(i -> i.time().equals(time));
  }

  public Optional<Instant> find(String time) {
    return instants.stream().filter(i -> i.time().equals(time)).findFirst();
  }

  /** True if the timeline contains {@code time} or {@code time} precedes its first instant (archived). */
  public boolean containsOrBeforeStart(String time) {
    return containsTime(time) || first().map(f -> time.compareTo(f.time()) < 0).orElse(false);
  }

  /** Instants with {@code begin < time <= end} (string order). */
  public Timeline inRange(String beginExclusive, String endInclusive) {
    return filter(i -> i.time().compareTo(beginExclusive) > 0 && i.time().compareTo(endInclusive) <= 0);
  }

  /** Instants with {@code time <= end}. */
  public Timeline onOrBefore(String endInclusive) {
    return filter(i -> i.time().compareTo(endInclusive) <= 0);
  }

  /** Every instant time on this timeline, ascending. */
  public List<String> times() {
    return instants.stream().map(Instant::time).toList();
  }

  @Override
  public String toString() {
    return instants.toString();
  }
}
