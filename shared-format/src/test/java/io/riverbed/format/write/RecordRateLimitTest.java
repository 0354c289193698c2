package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordRateLimitTest {
  private long now = 1_000;
  private final List<Long> parked = new ArrayList<>();

  private RecordRateLimit limit(double perSecond) {
    return RecordRateLimit.perSecond(perSecond, () -> now, nanos -> {
      parked.add(nanos);
      now += nanos;
    });
  }

  @Test
  void recordsPassOneIntervalApart() {
    RecordRateLimit limit = limit(10);
    for (int i = 0; i < 5; i++) {
      limit.acquire();
    }
    assertThat(parked).containsExactly(100_000_000L, 100_000_000L, 100_000_000L, 100_000_000L);
    assertThat(now).isEqualTo(1_000 + 400_000_000L);
  }

  @Test
  void aSlowCallerIsNotRepaidWithABurst() {
    RecordRateLimit limit = limit(10);
    limit.acquire();
    now += 1_000_000_000L;
    limit.acquire();
    limit.acquire();
    assertThat(parked).containsExactly(100_000_000L);
  }

  @Test
  void aRateMustBePositive() {
    assertThatThrownBy(() -> limit(0)).hasMessageContaining("must be > 0 records per second");
  }
}
