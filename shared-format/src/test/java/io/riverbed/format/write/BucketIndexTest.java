package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Hudi's bucket ids: {@code (hashKeys.hashCode() & Integer.MAX_VALUE) % numBuckets} of a Java list. */
class BucketIndexTest {

  @Test
  void simpleRecordKeyHashesTheWholeKeyAsAOneElementList() {
    // 31 * 1 + "abc".hashCode() = 96385; 96385 % 8 = 1
    assertThat(BucketIndex.bucket("abc", List.of("id"), 8)).isEqualTo(1);
  }

  @Test
  void complexRecordKeyHashesTheValuesOfTheHashFieldsInFieldOrder() {
    // [eu]: 31 + 3248 = 3279; % 4 = 3
    assertThat(BucketIndex.bucket("id:7,region:eu", List.of("region"), 4)).isEqualTo(3);
    // [7, eu]: 31 * (31 + 55) + 3248 = 5914; % 10 = 4
    assertThat(BucketIndex.bucket("id:7,region:eu", List.of("id", "region"), 10)).isEqualTo(4);
  }

  @Test
  void nullAndEmptyKeyPartsHashAsHudiDecodesThem() {
    assertThat(BucketIndex.bucket("id:7,region:__null__", List.of("region"), 8)).isEqualTo(31 % 8);
    assertThat(BucketIndex.bucket("id:7,region:__empty__", List.of("region"), 8)).isEqualTo(31 % 8);
  }

  @Test
  void bucketEqualsJavaListHashCodeAsHudiComputesIt() {
    Random random = new Random(42);
    for (int i = 0; i < 1_000; i++) {
      String id = Long.toString(random.nextLong(), 36);
      String region = "r" + random.nextInt(50);
      int buckets = 1 + random.nextInt(64);
      int hudi = (Arrays.asList(id, region).hashCode() & Integer.MAX_VALUE) % buckets;
      assertThat(BucketIndex.bucket("id:" + id + ",region:" + region, List.of("id", "region"), buckets)).isEqualTo(hudi);
      assertThat(BucketIndex.bucket(id, List.of("id"), buckets))
          .isEqualTo((Arrays.asList(id).hashCode() & Integer.MAX_VALUE) % buckets);
    }
  }

  @Test
  void hashFieldMissingFromTheRecordKeyIsRejectedWithBoth() {
    assertThatThrownBy(() -> BucketIndex.bucket("id:7", List.of("region"), 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("region").hasMessageContaining("id:7");
  }

  @Test
  void fileIdsOfABucketStartWithItsNumberAndDecodeBack() {
    String fileId = BucketIndex.newFileId(5);
    assertThat(fileId).startsWith("00000005-").hasSize(36);
    assertThat(BucketIndex.bucketOf(fileId)).isEqualTo(5);
    assertThat(BucketIndex.bucketOf("3f1c2a9e-0000-4000-8000-000000000000-0")).isEqualTo(-1);
    assertThat(BucketIndex.bucketOf("abc")).isEqualTo(-1);
  }
}
