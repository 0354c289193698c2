package io.riverbed.flink.source;

import io.riverbed.format.timeline.KafkaOffsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * Chained right after the Kafka source: passes its records on and notes, per partition, the offset
 * after the last record it passed. Before each checkpoint barrier it emits those offsets (when they
 * moved) on the side output {@link #OFFSETS}, which the table writer turns into the commit
 * metadata of that checkpoint's instant ({@link KafkaOffsets}): the rows ahead of the barrier are
 * exactly the rows that instant holds.
 */
public final class KafkaOffsetsTracker extends AbstractStreamOperator<SourceLine>
    implements OneInputStreamOperator<SourceLine, SourceLine> {
  private static final long serialVersionUID = 1L;

  /** {@link KafkaOffsets#format()} text of the offsets consumed up to a checkpoint barrier. */
  public static final OutputTag<String> OFFSETS = new OutputTag<>("riverbed-kafka-offsets", Types.STRING);

  private transient String topic;
  private transient Map<Integer, Long> nextOffsets;
  private transient boolean moved;

  public KafkaOffsetsTracker() {
    setChainingStrategy(ChainingStrategy.ALWAYS);
  }

  @Override
  public void open() throws Exception {
    super.open();
    nextOffsets = new HashMap<>();
  }

  @Override
  public void processElement(StreamRecord<SourceLine> element) {
    SourceLine line = element.getValue();
    if (line.kafkaTopic() != null) {
      topic = line.kafkaTopic();
      nextOffsets.merge(line.kafkaPartition(), line.position() + 1, Math::max);
      moved = true;
    }
    output.collect(element);
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    emitIfMoved();
  }

  /** End of a bounded input: the final checkpoint's barrier follows, without a pre-barrier call. */
  @Override
  public void finish() throws Exception {
    emitIfMoved();
    super.finish();
  }

  private void emitIfMoved() {
    if (moved) {
      output.collect(OFFSETS, new StreamRecord<>(new KafkaOffsets(topic, nextOffsets).format()));
      moved = false;
    }
  }
}
