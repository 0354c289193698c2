package io.riverbed.flink.source;

import io.riverbed.format.timeline.KafkaOffsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.fs.Path;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/** The job's sources of JSON text: files of JSON lines (bounded) and Kafka topics. */
public final class JsonLineSources {
  private JsonLineSources() {}

  /** Where a Kafka source starts when it is not restored from a checkpoint. */
  public enum StartingOffsets {
    /** The group's committed offsets; partitions without one start at the earliest offset. */
    COMMITTED,
    EARLIEST,
    LATEST;

    public static StartingOffsets parse(String value) {
      try {
        return valueOf(value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("starting offsets must be committed, earliest or latest, got '" + value + "'");
      }
    }

    OffsetsInitializer initializer() {
      return switch (this) {
        case COMMITTED -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
        case EARLIEST -> OffsetsInitializer.earliest();
        case LATEST -> OffsetsInitializer.latest();
      };
    }
  }

  /**
   * A bounded source over a JSON-lines file, or every file of a directory (files whose names
   * start with {@code .} or {@code _} are skipped, as Flink's file source does).
   */
  public static FileSource<SourceLine> files(String path) {
    return FileSource.forBulkFileFormat(new JsonLinesFormat(), new Path(path)).build();
  }

  /**
   * A Kafka source of JSON values. Offsets are committed to the group on each checkpoint (they
   * are only a progress marker: the checkpoint is what a restore uses).
   *
   * @param boundedAtLatest stop at the latest offsets seen at start (a finite backfill) instead
   *     of reading forever
   */
  public static KafkaSource<SourceLine> kafka(String bootstrapServers, String topic, String groupId,
      StartingOffsets startingOffsets, boolean boundedAtLatest) {
    return kafka(bootstrapServers, topic, groupId, startingOffsets, Optional.empty(), boundedAtLatest);
  }

  /**
   * As above; with {@link StartingOffsets#COMMITTED} and offsets the table's commits recorded for
   * this topic ({@code tableOffsets}), a job that did not restore state starts there: after the
   * last record committed to the table (partitions the table has no offset for start at the
   * earliest offset). The group's offsets are only used when the table has none.
   */
  public static KafkaSource<SourceLine> kafka(String bootstrapServers, String topic, String groupId,
      StartingOffsets startingOffsets, Optional<KafkaOffsets> tableOffsets, boolean boundedAtLatest) {
    OffsetsInitializer start = startingOffsets.initializer();
    if (startingOffsets == StartingOffsets.COMMITTED && tableOffsets.isPresent()
        && tableOffsets.get().topic().equals(topic)) {
      Map<TopicPartition, Long> offsets = new HashMap<>();
      tableOffsets.get().nextOffsets().forEach((p, o) -> offsets.put(new TopicPartition(topic, p), o));
      start = OffsetsInitializer.offsets(offsets, OffsetResetStrategy.EARLIEST);
    }
    KafkaSourceBuilder<SourceLine> builder = KafkaSource.<SourceLine>builder()
        .setBootstrapServers(bootstrapServers)
        .setTopics(topic)
        .setGroupId(groupId)
        .setStartingOffsets(start)
        .setDeserializer(new KafkaLineDeserializer())
        .setProperty("commit.offsets.on.checkpoint", "true");
    if (boundedAtLatest) {
      builder.setBounded(OffsetsInitializer.latest());
    }
    return builder.build();
  }
}
