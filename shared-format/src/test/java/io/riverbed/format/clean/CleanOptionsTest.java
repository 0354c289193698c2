package io.riverbed.format.clean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.consumer.ConsumerOptions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CleanOptionsTest {

  @Test
  void defaultsAreHudisWriterDefaults() {
    assertThat(CleanOptions.defaults())
        .isEqualTo(new CleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 10, 24, 3, true, 1, ConsumerOptions.defaults()));
  }

  @Test
  void flinkNamesHaveHudisFlinkDefaultsAndFallBackToTheWriterKeys() {
    assertThat(CleanOptions.fromFlinkMap(Map.of()))
        .isEqualTo(new CleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 30, 24, 5, true, 1, ConsumerOptions.defaults()));
    assertThat(CleanOptions.fromFlinkMap(Map.of(CleanOptions.COMMITS_RETAINED, "7", CleanOptions.POLICY,
        "keep_latest_by_hours")))
        .extracting(CleanOptions::commitsRetained, CleanOptions::policy)
        .containsExactly(7, CleaningPolicy.KEEP_LATEST_BY_HOURS);
    assertThat(CleanOptions.fromFlinkMap(Map.of(CleanOptions.FLINK_RETAIN_COMMITS, "4",
        CleanOptions.COMMITS_RETAINED, "7", CleanOptions.FLINK_RETAIN_FILE_VERSIONS, "2")))
        .extracting(CleanOptions::commitsRetained, CleanOptions::fileVersionsRetained)
        .containsExactly(4, 2);
  }

  @Test
  void theConsumerExpirationIsReadFromTheSameMapByBothNames() {
    var conf = Map.of(ConsumerOptions.EXPIRATION, "36 h");
    assertThat(CleanOptions.fromMap(conf).consumers().expiration()).isEqualTo(Duration.ofHours(36));
    assertThat(CleanOptions.fromFlinkMap(conf).consumers().expiration()).isEqualTo(Duration.ofHours(36));
  }

  @Test
  void documentedDefaultsAreTheDefaultsInEffect() {
    CleanOptions.DESCRIPTIONS.forEach((key, d) -> {
      if (key.startsWith("clean.")) {
        assertThat(CleanOptions.fromFlinkMap(Map.of(key, d[0]))).as(key).isEqualTo(CleanOptions.fromFlinkMap(Map.of()));
      } else {
        assertThat(CleanOptions.fromMap(Map.of(key, d[0]))).as(key).isEqualTo(CleanOptions.defaults());
      }
    });
  }

  @Test
  void retainingNothingIsRefused() {
    assertThatThrownBy(() -> CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "0")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(CleanOptions.COMMITS_RETAINED);
    assertThatThrownBy(() -> CleanOptions.fromMap(Map.of(CleanOptions.POLICY, "KEEP_ALL")))
        .hasMessageContaining("KEEP_LATEST_FILE_VERSIONS");
    assertThatThrownBy(() -> CleanOptions.fromMap(Map.of(CleanOptions.FILE_VERSIONS_RETAINED, "x")))
        .hasMessageContaining(CleanOptions.FILE_VERSIONS_RETAINED);
  }
}
