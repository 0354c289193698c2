package io.riverbed.format.write.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.write.WriteOptions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InsertBucketsTest {
  /** 10 records per new file group: 10,000 bytes over a 1,000-byte estimate. */
  static final WriteOptions SMALL_FILES = WriteOptions.fromMap(Map.of(WriteOptions.MAX_FILE_SIZE, "10000",
      WriteOptions.RECORD_SIZE_ESTIMATE, "1000"));

  @Test
  void aTableWithoutFilesOpensAsFewNewGroupsAsTheKeysNeedAndSharesThemEvenly() {
    InsertBuckets plan = InsertBuckets.plan(null, SMALL_FILES, 1, Map.of("a", 25L, "b", 10L, "c", 0L));
    Map<String, List<String>> groups = plan.fileIds();
    assertThat(groups.keySet()).containsExactly("a", "b");
    assertThat(groups.get("a")).hasSize(3).doesNotHaveDuplicates();
    assertThat(groups.get("b")).hasSize(1);

    Map<String, Integer> perGroup = new HashMap<>();
    for (int i = 0; i < 9000; i++) {
      String fileId = plan.fileIdOf("a", "key-" + i);
      perGroup.merge(fileId, 1, Integer::sum);
      assertThat(plan.fileIdOf("a", "key-" + i)).as("the same key, the same group").isEqualTo(fileId);
    }
    assertThat(perGroup.keySet()).containsExactlyInAnyOrderElementsOf(groups.get("a"));
    assertThat(perGroup.values()).allSatisfy(n -> assertThat(n).isBetween(2700, 3300));
    assertThat(plan.tookNewKeys(new FileGroupId("a", groups.get("a").get(0)))).isTrue();
    assertThat(plan.tookNewKeys(new FileGroupId("b", groups.get("a").get(0)))).isFalse();
  }

  @Test
  void aKeyOfAPartitionThePlanDidNotCountIsRefusedByName() {
    InsertBuckets plan = InsertBuckets.plan(null, SMALL_FILES, 1, Map.of("a", 5L));
    assertThatThrownBy(() -> plan.fileIdOf("z", "key-7")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'z'").hasMessageContaining("key-7");
  }
}
