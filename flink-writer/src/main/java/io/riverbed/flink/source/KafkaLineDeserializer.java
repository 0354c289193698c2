package io.riverbed.flink.source;

import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Kafka record value (UTF-8 JSON) to {@link SourceLine} naming its topic, partition and offset.
 * Keys are ignored (the record key comes from the value's fields); tombstones (null values) are
 * passed on as blank lines, which the converter skips.
 */
public final class KafkaLineDeserializer implements KafkaRecordDeserializationSchema<SourceLine> {
  private static final long serialVersionUID = 1L;

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<SourceLine> out) {
    String text = record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
    out.collect(SourceLine.kafkaRecord(record.topic(), record.partition(), record.offset(), text));
  }

  @Override
  public TypeInformation<SourceLine> getProducedType() {
    return TypeInformation.of(SourceLine.class);
  }
}
