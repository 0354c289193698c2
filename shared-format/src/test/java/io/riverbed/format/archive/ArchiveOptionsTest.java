package io.riverbed.format.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.consumer.ConsumerOptions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArchiveOptionsTest {

  @Test
  void defaultsAreHudisWriterDefaults() {
    assertThat(ArchiveOptions.defaults()).isEqualTo(new ArchiveOptions(20, 30, 5, 500, 10, ConsumerOptions.defaults()));
  }

  @Test
  void flinkNamesHaveHudisFlinkDefaultsAndFallBackToTheWriterKeys() {
    assertThat(ArchiveOptions.fromFlinkMap(Map.of())).isEqualTo(new ArchiveOptions(40, 50, 5, 500, 10, ConsumerOptions.defaults()));
    assertThat(ArchiveOptions.fromFlinkMap(Map.of(ArchiveOptions.MIN_COMMITS, "3", ArchiveOptions.MAX_COMMITS, "9")))
        .isEqualTo(new ArchiveOptions(3, 9, 5, 500, 10, ConsumerOptions.defaults()));
    assertThat(ArchiveOptions.fromFlinkMap(Map.of(ArchiveOptions.FLINK_MIN_COMMITS, "20",
        ArchiveOptions.MIN_COMMITS, "3", ArchiveOptions.FLINK_MAX_COMMITS, "30", "compaction.delta_commits", "2")))
        .isEqualTo(new ArchiveOptions(20, 30, 2, 500, 10, ConsumerOptions.defaults()));
  }

  @Test
  void theConsumerExpirationIsReadFromTheSameMapByBothNames() {
    var conf = Map.of(ConsumerOptions.EXPIRATION, "P2D");
    assertThat(ArchiveOptions.fromMap(conf).consumers().expiration()).isEqualTo(Duration.ofDays(2));
    assertThat(ArchiveOptions.fromFlinkMap(conf).consumers().expiration()).isEqualTo(Duration.ofDays(2));
  }

  @Test
  void documentedDefaultsAreTheDefaultsInEffect() {
    ArchiveOptions.DESCRIPTIONS.forEach((key, d) -> {
      if (key.startsWith("archive.")) {
        assertThat(ArchiveOptions.fromFlinkMap(Map.of(key, d[0]))).as(key)
            .isEqualTo(ArchiveOptions.fromFlinkMap(Map.of()));
      } else {
        assertThat(ArchiveOptions.fromMap(Map.of(key, d[0]))).as(key).isEqualTo(ArchiveOptions.defaults());
      }
    });
  }

  @Test
  void boundsThatKeepNothingOrAreInvertedAreRefused() {
    assertThatThrownBy(() -> ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, "0")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(ArchiveOptions.MIN_COMMITS);
    assertThatThrownBy(() -> ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, "30")))
        .hasMessageContaining(ArchiveOptions.MAX_COMMITS);
    assertThatThrownBy(() -> ArchiveOptions.fromMap(Map.of(ArchiveOptions.MAX_INSTANTS_PER_RUN, "x")))
        .hasMessageContaining(ArchiveOptions.MAX_INSTANTS_PER_RUN);
  }
}
