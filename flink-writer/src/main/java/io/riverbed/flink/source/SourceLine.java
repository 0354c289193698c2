package io.riverbed.flink.source;

import java.io.Serializable;

/**
 * One JSON text read from a source, with where it came from, so a conversion error can name it:
 * {@code line 12 of file:/data/in.jsonl} or {@code offset 40 of Kafka partition orders-1}.
 *
 * @param origin the file or the Kafka topic-partition
 * @param unit {@code "line"} (1-based line number) or {@code "offset"} (Kafka offset)
 * @param position the line number or offset
 * @param text the record text; may be blank (blank lines are skipped, not errors)
 * @param kafkaTopic the Kafka topic of a Kafka record, else null
 * @param kafkaPartition the Kafka partition of a Kafka record, else -1
 */
public record SourceLine(String origin, String unit, long position, String text, String kafkaTopic,
    int kafkaPartition) implements Serializable {

  public static SourceLine fileLine(String file, long lineNumber, String text) {
    return new SourceLine(file, "line", lineNumber, text, null, -1);
  }

  public static SourceLine kafkaRecord(String topic, int partition, long offset, String text) {
    return new SourceLine("Kafka partition " + topic + "-" + partition, "offset", offset, text, topic, partition);
  }

  /** Where this record is, for messages: {@code line 12 of file:/data/in.jsonl}. */
  public String location() {
    return unit + " " + position + " of " + origin;
  }
}
