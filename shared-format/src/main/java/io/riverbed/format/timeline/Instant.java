package io.riverbed.format.timeline;

import io.riverbed.format.TableException;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One instant of the timeline: a time, an action and a state, named on storage as
 * {@code <time>.<action>[.<state>]} inside {@code .hoodie/} (layout version 1); in layout version 2
 * ({@code .hoodie/timeline/}) a completed instant's name also carries its completion time. The time
 * is the requested time in both.
 */
public record Instant(String time, Action action, State state) implements Comparable<Instant> {

  private static final Pattern NAME = Pattern.compile("^(\\d+)(\\.\\w+)(\\.\\D+)?$");
  /** A completed instant of timeline layout 2: {@code <requested time>_<completion time>.<action>}. */
  private static final Pattern COMPLETED_V2 = Pattern.compile("^(\\d+)_(\\d+)\\.(\\w+)$");

  /** Time first (string order, as Hudi compares instants), then action, then state. */
  public static final Comparator<Instant> ORDER =
      Comparator.comparing(Instant::time)
          .thenComparing(i -> i.action().completedAs())
          .thenComparing(Instant::state);

  public Instant {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(state, "state");
    if (state == State.COMPLETED && action != action.completedAs()) {
      throw new TableException(
          "instant " + time + ": a completed " + action.word() + " is filed as "
              + action.completedAs().word());
    }
  }

  public static Instant requested(String time, Action action) {
    return new Instant(time, action, State.REQUESTED);
  }

  public static Instant inflight(String time, Action action) {
    return new Instant(time, action, State.INFLIGHT);
  }

  public static Instant completed(String time, Action action) {
    return new Instant(time, action.completedAs(), State.COMPLETED);
  }

  public boolean isCompleted() {
    return state == State.COMPLETED;
  }

  public boolean isRequested() {
    return state == State.REQUESTED;
  }

  public boolean isInflight() {
    return state == State.INFLIGHT;
  }

  /** The same instant in another state; a compaction that completes becomes a commit. */
  public Instant withState(State newState) {
    Action a = newState == State.COMPLETED ? action.completedAs() : action;
    return new Instant(time, a, newState);
  }

  /** The name of this instant's file inside {@code .hoodie/}. */
  public String fileName() {
    return switch (state) {
      case COMPLETED -> time + "." + action.word();
      case INFLIGHT -> action == Action.COMMIT ? time + ".inflight" : time + "." + action.word() + ".inflight";
      case REQUESTED -> time + "." + action.word() + ".requested";
    };
  }

  /**
   * Parses a timeline file name; empty for names that are not instants of the active timeline
   * (e.g. {@code hoodie.properties}, folders, unknown actions).
   */
  public static Optional<Instant> parseFileName(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return Optional.empty();
    }
    String time = m.group(1);
    String actionWord = m.group(2).substring(1);
    String stateWord = m.group(3) == null ? null : m.group(3).substring(1);
    if (actionWord.equals("inflight") && stateWord == null) {
      return Optional.of(new Instant(time, Action.COMMIT, State.INFLIGHT));
    }
    Optional<Action> action = Action.fromWord(actionWord);
    if (action.isEmpty()) {
      return Optional.empty();
    }
    if (stateWord == null) {
      Action a = action.get();
      return a == a.completedAs() ? Optional.of(new Instant(time, a, State.COMPLETED)) : Optional.empty();
    }
    return switch (stateWord) {
      case "requested" -> Optional.of(new Instant(time, action.get(), State.REQUESTED));
      case "inflight" -> Optional.of(new Instant(time, action.get(), State.INFLIGHT));
      default -> Optional.empty();
    };
  }

  /**
   * Parses a file name of a layout-2 timeline ({@code .hoodie/timeline/}): completed instants are
   * {@code <requested>_<completion>.<action>}, requested and inflight ones are named as in layout 1.
   * Empty for names that are not instants.
   */
  public static Optional<Named> parseFileNameV2(String fileName) {
    Matcher m = COMPLETED_V2.matcher(fileName);
    if (m.matches()) {
      return Action.fromWord(m.group(3))
          .filter(a -> a == a.completedAs())
          .map(a -> new Named(new Instant(m.group(1), a, State.COMPLETED), m.group(2)));
    }
    return parseFileName(fileName).filter(i -> !i.isCompleted()).map(i -> new Named(i, null));
  }

  /** An instant as its file names it, with the completion time a layout-2 name carries (else null). */
  public record Named(Instant instant, String completionTime) {
  }

  /** The name of this completed instant's file in a layout-2 timeline. */
  public String fileNameV2(String completionTime) {
    if (state != State.COMPLETED) {
      return fileName();
    }
    return time + "_" + Objects.requireNonNull(completionTime, "completionTime") + "." + action.word();
  }

  @Override
  public int compareTo(Instant other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return fileName();
  }
}
