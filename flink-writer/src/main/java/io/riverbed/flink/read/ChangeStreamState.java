package io.riverbed.flink.read;

import java.util.List;
import java.util.Map;

/**
 * A streaming read's enumerator state, as checkpointed: the commit its planned reads reach up to,
 * the splits not yet given to a reader, and, per split not yet read to the end, the instant after
 * which it reads (the oldest of these is what the read still needs of the table).
 *
 * @param position the last commit planned; null before the first look at the timeline
 */
record ChangeStreamState(String position, List<FileSliceSplit> unassigned, Map<String, String> unfinished) {
  ChangeStreamState {
    unassigned = List.copyOf(unassigned);
    unfinished = Map.copyOf(unfinished);
  }

  static ChangeStreamState initial() {
    return new ChangeStreamState(null, List.of(), Map.of());
  }
}
