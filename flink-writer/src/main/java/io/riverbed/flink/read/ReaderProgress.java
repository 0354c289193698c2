package io.riverbed.flink.read;

import java.util.List;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * What a streaming reader tells its enumerator of the splits it was given: those it has read to
 * the end, and, once when it starts, the splits it was restored with (any other split the
 * enumerator's checkpoint counts as this reader's was read before that checkpoint was taken).
 *
 * @param finished ids of splits read to the end
 * @param restored ids of the splits the reader was restored with; null except at its start
 */
record ReaderProgress(List<String> finished, List<String> restored) implements SourceEvent {
  private static final long serialVersionUID = 1L;

  static ReaderProgress finished(String splitId) {
    return new ReaderProgress(List.of(splitId), null);
  }

  static ReaderProgress started(List<String> restored) {
    return new ReaderProgress(List.of(), List.copyOf(restored));
  }
}
