package io.riverbed.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SamplesTest {

  @Test
  void medianOfOddAndEvenCountsAndSpreadRelativeToMedian() {
    Samples s = new Samples("t");
    for (double v : new double[] {5, 1, 3}) {
      s.add(v);
    }
    assertThat(s.median()).isEqualTo(3.0);
    assertThat(s.spread()).isCloseTo(4.0 / 3.0, within(1e-9));
    s.add(7);
    assertThat(s.median()).isEqualTo(4.0);
    assertThat(s.summary("%.1f")).isEqualTo("4.0 (1.0–7.0, spread 150%)");
  }

  @Test
  void ratiosArePairedByRound() {
    Samples a = new Samples("a");
    Samples b = new Samples("b");
    a.add(10);
    a.add(30);
    b.add(5);
    b.add(10);
    assertThat(Samples.ratios("a/b", a, b).values()).containsExactly(2.0, 3.0);
  }
}
