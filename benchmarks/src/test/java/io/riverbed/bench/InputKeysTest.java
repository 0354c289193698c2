package io.riverbed.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InputKeysTest {
  @Test
  void uniformKeysAreNewOnEvenEventsAndEarlierKeysOnOddOnes() {
    InputKeys keys = InputKeys.uniform();
    Set<Long> seen = new HashSet<>();
    for (long i = 0; i < 10_000; i++) {
      long key = keys.next(i);
      if (i >= 1000 && i % 2 == 1) {
        assertThat(seen).contains(key);
      }
      seen.add(key);
    }
    assertThat(keys.distinct()).isEqualTo(seen.size()).isEqualTo(5_500);
  }

  @Test
  void zipfKeysAreDeterministicSkewedAndCountedOnce() {
    InputKeys a = InputKeys.named("zipf", 20_000, 1.1);
    InputKeys b = InputKeys.named("zipf", 20_000, 1.1);
    Set<Long> seen = new HashSet<>();
    long zeros = 0;
    for (long i = 0; i < 20_000; i++) {
      long key = a.next(i);
      assertThat(b.next(i)).isEqualTo(key);
      assertThat(key).isBetween(0L, 9_999L);
      zeros += key == 0 ? 1 : 0;
      seen.add(key);
    }
    assertThat(a.distinct()).isEqualTo(seen.size()).isLessThan(10_000);
    // rank 0's share of the mass for 10,000 keys at skew 1.1 is about 1/H(10000, 1.1) ~ 0.15: ~3,030 of 20,000
    assertThat(zeros).isBetween(2_600L, 3_500L);
  }

  @Test
  void unknownDistributionIsRefusedByName() {
    assertThatThrownBy(() -> InputKeys.named("normal", 10, 1.0)).hasMessageContaining("normal");
  }
}
