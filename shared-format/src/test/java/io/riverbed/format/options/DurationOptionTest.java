package io.riverbed.format.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DurationOptionTest {

  @Test
  void flinkAndPaimonFormsAndIsoDurationsAreRead() {
    assertThat(DurationOption.parse("7 d")).isEqualTo(Duration.ofDays(7));
    assertThat(DurationOption.parse("7d")).isEqualTo(Duration.ofDays(7));
    assertThat(DurationOption.parse("12 hours")).isEqualTo(Duration.ofHours(12));
    assertThat(DurationOption.parse("30 min")).isEqualTo(Duration.ofMinutes(30));
    assertThat(DurationOption.parse("45s")).isEqualTo(Duration.ofSeconds(45));
    assertThat(DurationOption.parse("500")).isEqualTo(Duration.ofMillis(500));
    assertThat(DurationOption.parse("P2DT3H")).isEqualTo(Duration.ofHours(51));
  }

  @Test
  void formatGivesTheLargestWholeUnit() {
    assertThat(DurationOption.format(Duration.ofDays(7))).isEqualTo("7 d");
    assertThat(DurationOption.format(Duration.ofMinutes(90))).isEqualTo("90 min");
    assertThat(DurationOption.format(Duration.ofMillis(1500))).isEqualTo("1500 ms");
    assertThat(DurationOption.parse(DurationOption.format(Duration.ofHours(36)))).isEqualTo(Duration.ofHours(36));
  }

  @Test
  void aBadValueNamesItsKey() {
    assertThat(DurationOption.read(Map.of(), "k", Duration.ofDays(1))).isEqualTo(Duration.ofDays(1));
    assertThatThrownBy(() -> DurationOption.read(Map.of("k", "a week"), "k", Duration.ofDays(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k must be a duration")
        .hasMessageContaining("'a week'");
    assertThatThrownBy(() -> DurationOption.parse("3 weeks")).hasMessageContaining("unknown time unit 'weeks'");
    assertThatThrownBy(() -> DurationOption.parse("-PT1H")).hasMessageContaining("not a duration");
  }
}
