package io.riverbed.flink.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.KafkaOffsets;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The byte forms of a writer's result: the current one, the first one (in older checkpoints), Java serialization. */
class WriteResultTest {
  private static final WriteStat STAT = WriteStat.builder().fileId("f1").partitionPath("dt=2024-01-01")
      .path("dt=2024-01-01/.f1_20240101000000000.log.1_0-2-0").numWrites(5).fileSizeInBytes(321)
      .delta(1, 0, "", List.of(".f1_20240101000000000.log.1_0-2-0")).build();
  private static final KafkaOffsets OFFSETS = new KafkaOffsets("trips", Map.of(0, 42L, 1, 7L));

  @Test
  void roundTripsThroughItsBytes() {
    WriteResult result = WriteResult.of(1, 9, "20240101000000000", List.of(STAT), 3, OFFSETS);

    assertThat(WriteResult.fromBytes(result.toBytes())).isEqualTo(result);
    assertThat(WriteResult.fromBytes(WriteResult.of(0, 2, "20240101000000001", List.of(), 0, null).toBytes())
        .kafkaOffsets()).isEmpty();
  }

  @Test
  void readsTheFirstByteFormOfOlderCheckpoints() throws Exception {
    byte[] json = CommitMetadata.builder(WriteOperationType.UNKNOWN).addWriteStats(List.of(STAT))
        .extraMetadata(WriteResult.STALE_RECORDS_KEY, "3").extraMetadata(KafkaOffsets.KEY, OFFSETS.format())
        .build().toJsonBytes();
    var bytes = new ByteArrayOutputStream();
    try (var out = new DataOutputStream(bytes)) {
      out.writeInt(1);
      out.writeLong(9);
      out.writeUTF("20240101000000000");
      out.writeInt(json.length);
      out.write(json);
    }

    WriteResult read = WriteResult.fromBytes(bytes.toByteArray());
    assertThat(read).isEqualTo(WriteResult.of(1, 9, "20240101000000000", List.of(STAT), 3, OFFSETS));
    assertThat(read.id()).isEqualTo("20240101000000000/1/9");
  }

  @Test
  void travelsInAnOperatorEventThroughJavaSerialization() throws Exception {
    var event = new WriteMessages.Written(WriteResult.of(1, 9, "20240101000000000", List.of(STAT), 3, OFFSETS));
    var bytes = new ByteArrayOutputStream();
    try (var out = new ObjectOutputStream(bytes)) {
      out.writeObject(event);
    }
    try (var in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(in.readObject()).isEqualTo(event);
    }
  }
}
