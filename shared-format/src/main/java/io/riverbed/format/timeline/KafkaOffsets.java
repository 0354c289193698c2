package io.riverbed.format.timeline;

import io.riverbed.format.TableException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How far into a Kafka topic a table's commits have consumed: per partition, the offset of the
 * next record to read. A writer keeps it in each commit's extraMetadata under {@link #KEY}, so a
 * new job (without restored state) continues after the last committed record instead of where a
 * consumer group's offsets happen to be. The value has the form Hudi's streamer uses for its
 * checkpoint ({@code topic,0:151,1:150}).
 */
public record KafkaOffsets(String topic, Map<Integer, Long> nextOffsets) {
  /** extraMetadata key of a commit. */
  public static final String KEY = "riverbed.source.kafka.offsets";

  public KafkaOffsets {
    if (topic == null || topic.isEmpty() || topic.contains(",")) {
      throw new IllegalArgumentException("not a Kafka topic name: '" + topic + "'");
    }
    nextOffsets = Map.copyOf(new TreeMap<>(nextOffsets));
  }

  /** These offsets, with {@code later}'s for the partitions it names (the same topic). */
  public KafkaOffsets overlaidWith(KafkaOffsets later) {
    if (!later.topic.equals(topic)) {
      return later;
    }
    Map<Integer, Long> merged = new TreeMap<>(nextOffsets);
    merged.putAll(later.nextOffsets);
    return new KafkaOffsets(topic, merged);
  }

  /** {@code topic,partition:offset,...}, partitions ascending. */
  public String format() {
    StringBuilder out = new StringBuilder(topic);
    new TreeMap<>(nextOffsets).forEach((p, o) -> out.append(',').append(p).append(':').append(o));
    return out.toString();
  }

  /**
   * Reads {@link #format}'s text.
   *
   * @throws TableException naming the value when it is not of that form
   */
  public static KafkaOffsets parse(String text) {
    String[] parts = text.split(",");
    Map<Integer, Long> offsets = new TreeMap<>();
    try {
      for (int i = 1; i < parts.length; i++) {
        int colon = parts[i].indexOf(':');
        offsets.put(Integer.parseInt(parts[i].substring(0, colon)), Long.parseLong(parts[i].substring(colon + 1)));
      }
      return new KafkaOffsets(parts[0], offsets);
    } catch (RuntimeException e) {
      throw new TableException("commit metadata " + KEY + " is not of the form topic,partition:offset,...: '" + text
          + "'", e);
    }
  }

  /** The offsets the newest completed commit (or delta commit) that records any holds. */
  public static Optional<KafkaOffsets> latestCommitted(TimelineStore store, Timeline timeline) {
    var commits = timeline.commitsTimeline().completed().instants();
    for (int i = commits.size() - 1; i >= 0; i--) {
      Instant instant = commits.get(i);
      String value = CommitMetadata.parse(store.read(instant), store.pathOf(instant).toString())
          .extraMetadata().get(KEY);
      if (value != null) {
        return Optional.of(parse(value));
      }
    }
    return Optional.empty();
  }
}
