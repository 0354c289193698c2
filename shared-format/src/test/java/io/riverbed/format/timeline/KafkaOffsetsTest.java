package io.riverbed.format.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaOffsetsTest {
  @Test
  void formatsAsHudisStreamerCheckpointAndParsesBack() {
    var offsets = new KafkaOffsets("trips.v1", Map.of(1, 150L, 0, 151L));
    assertThat(offsets.format()).isEqualTo("trips.v1,0:151,1:150");
    assertThat(KafkaOffsets.parse("trips.v1,0:151,1:150")).isEqualTo(offsets);
  }

  @Test
  void laterOffsetsWinForThePartitionsTheyName() {
    var older = new KafkaOffsets("t", Map.of(0, 10L, 1, 20L));
    assertThat(older.overlaidWith(new KafkaOffsets("t", Map.of(1, 25L))).nextOffsets())
        .isEqualTo(Map.of(0, 10L, 1, 25L));
  }

  @Test
  void aDamagedValueIsAClearError() {
    assertThatThrownBy(() -> KafkaOffsets.parse("t,0:x")).isInstanceOf(TableException.class)
        .hasMessageContaining("t,0:x");
  }
}
