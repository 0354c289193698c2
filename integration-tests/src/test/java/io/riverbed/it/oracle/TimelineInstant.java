package io.riverbed.it.oracle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A completed instant of a table's active timeline, found by listing {@code .hoodie} (layout
 * version 1: a completed instant is a file {@code <time>.<action>} with no state suffix).
 */
public record TimelineInstant(String time, String action) implements Comparable<TimelineInstant> {

  private static final Pattern COMPLETED = Pattern.compile("^(\\d+)\\.(\\w+)$");
  private static final Set<String> ACTIONS = Set.of(
      "commit", "deltacommit", "replacecommit", "clean", "rollback", "savepoint", "restore",
      "indexing", "schemacommit");
  private static final Set<String> WRITE_ACTIONS = Set.of("commit", "deltacommit", "replacecommit");

  /** Completed instants of the table at {@code tablePath}, oldest first. */
  public static List<TimelineInstant> completed(Path tablePath) {
    Path meta = tablePath.resolve(".hoodie");
    try (Stream<Path> files = Files.list(meta)) {
      return files.map(p -> p.getFileName().toString())
          .map(COMPLETED::matcher)
          .filter(m -> m.matches() && ACTIONS.contains(m.group(2)))
          .map(m -> new TimelineInstant(m.group(1), m.group(2)))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list timeline of " + tablePath, e);
    }
  }

  /** Completed commit, deltacommit and replacecommit instants (what queries see), oldest first. */
  public static List<TimelineInstant> completedWrites(Path tablePath) {
    return completed(tablePath).stream().filter(TimelineInstant::isWrite).toList();
  }

  public boolean isWrite() {
    return WRITE_ACTIONS.contains(action);
  }

  public String fileName() {
    return time + "." + action;
  }

  @Override
  public int compareTo(TimelineInstant o) {
    return Comparator.comparing(TimelineInstant::time).thenComparing(TimelineInstant::action).compare(this, o);
  }

  @Override
  public String toString() {
    return fileName();
  }
}
