package io.riverbed.format.query;

import io.riverbed.format.TableException;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.util.List;
import java.util.Optional;

/**
 * An incremental range of a version 8 table, given as Hudi 1.x takes it: begin and end are
 * <em>completion</em> times, both inclusive (Hudi 1.0.2; later Hudi releases made the begin
 * exclusive), and the range holds the completed writes whose completion time lies in it. Translated
 * to the requested-time range {@code (begin, end]} the planner reads, which holds exactly those
 * writes while requested and completion order agree in the range (one writer at a time); a range
 * where they do not (concurrent writers) is refused rather than answered wrongly.
 */
final class CompletionTimeRange {

  private CompletionTimeRange() {}

  /** A range of requested times, {@code (beginExclusive, endInclusive]}. */
  record Requested(String beginExclusive, String endInclusive) {
  }

  /** The requested-time range holding exactly the writes of {@code candidates} completed in {@code [begin, end]}. */
  static Requested toRequestedRange(Timeline candidates, String beginInclusive, Optional<String> endInclusive,
      String table) {
    List<Instant> writes = candidates.completed().instants();
    int first = -1;
    int last = -1;
    int count = 0;
    for (int i = 0; i < writes.size(); i++) {
      String completion = completionOf(candidates, writes.get(i), table);
      if (completion.compareTo(beginInclusive) >= 0 && endInclusive.map(e -> completion.compareTo(e) <= 0).orElse(true)) {
        first = first < 0 ? i : first;
        last = i;
        count++;
      }
    }
    if (first < 0) {
      String none = writes.isEmpty() ? "000" : writes.get(writes.size() - 1).time();
      return new Requested(none, none);
    }
    if (count != last - first + 1) {
      throw new TableException("table " + table + ": the writes completed in the incremental range [" + beginInclusive
          + ", " + endInclusive.orElse("latest") + "] are not a contiguous run in requested-time order ("
          + writes.get(first).time() + " to " + writes.get(last).time() + " holds writes completed outside it, as "
          + "concurrent writers leave them); Riverbed does not read such ranges yet");
    }
    String beginExclusive = first == 0 ? "000" : writes.get(first - 1).time();
    return new Requested(beginExclusive, writes.get(last).time());
  }

  private static String completionOf(Timeline candidates, Instant write, String table) {
    return candidates.completionTime(write.time()).orElseThrow(() -> new TableException("table " + table
        + ": completed instant " + write + " has no completion time in its timeline file name"));
  }
}
