package io.riverbed.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Flink job beside other writers: only with the bucket index. */
class ConcurrentWriterOptionsTest {
  private static final String OCC = "optimistic_concurrency_control";

  @Test
  void optimisticConcurrencyControlWithTheStateIndexIsRefusedNamingTheSafeSetup() {
    assertThatThrownBy(() -> FlinkWriteOptions.fromMap(Map.of("path", "/t", "hoodie.write.concurrency.mode", OCC)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hoodie.write.concurrency.mode=optimistic_concurrency_control needs index.type=BUCKET")
        .hasMessageContaining("hoodie.index.type=BUCKET").hasMessageContaining("hoodie.bucket.index.num.buckets");
  }

  @Test
  void optimisticConcurrencyControlWithTheBucketIndexIsASharedWriter() {
    FlinkWriteOptions options = FlinkWriteOptions.fromMap(Map.of("path", "/t", "hoodie.write.concurrency.mode", OCC,
        "index.type", "BUCKET", "hoodie.bucket.index.num.buckets", "8"));
    assertThat(options.concurrencyOptions().multiWriter()).isTrue();
    assertThat(FlinkWriteOptions.fromMap(Map.of("path", "/t")).concurrencyOptions().multiWriter()).isFalse();
  }
}
