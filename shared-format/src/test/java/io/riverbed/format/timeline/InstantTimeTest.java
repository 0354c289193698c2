package io.riverbed.format.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InstantTimeTest {

  @Test
  void generatedTimesAreSeventeenDigitsAndStrictlyIncreasing() {
    InstantTime gen = InstantTime.generator(ZoneOffset.UTC);
    String prev = "";
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 5000; i++) {
      String t = gen.next();
      assertThat(t).hasSize(17).containsOnlyDigits();
      assertThat(t.compareTo(prev)).isPositive();
      assertThat(seen.add(t)).isTrue();
      prev = t;
    }
  }

  @Test
  void nextAfterStaysAboveAFloorFromTheFuture() {
    InstantTime gen = InstantTime.generator(ZoneOffset.UTC);
    String t = gen.nextAfter("29991231235959999");
    assertThat(t).isEqualTo("30000101000000000");
  }

  @Test
  void parsesTheTimeTravelForms() {
    assertThat(InstantTime.parseQueryInstant("20250102030405006")).isEqualTo("20250102030405006");
    assertThat(InstantTime.parseQueryInstant("20250102030405")).isEqualTo("20250102030405");
    assertThat(InstantTime.parseQueryInstant("2025-01-02 03:04:05")).isEqualTo("20250102030405999");
    assertThat(InstantTime.parseQueryInstant("2025-01-02 03:04:05.123")).isEqualTo("20250102030405123");
    assertThat(InstantTime.parseQueryInstant("2025-01-02")).isEqualTo("20250102000000000");
  }

  @Test
  void rejectsTextThatIsNoInstantNamingIt() {
    assertThatThrownBy(() -> InstantTime.parseQueryInstant("yesterday"))
        .isInstanceOf(TableException.class).hasMessageContaining("'yesterday'");
    assertThatThrownBy(() -> InstantTime.parseQueryInstant("2025-13-45"))
        .isInstanceOf(TableException.class);
  }
}
