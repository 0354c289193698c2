package io.riverbed.format.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.base.BaseFileOptions;
import io.riverbed.format.consumer.ConsumerOptions;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.concurrency.ConcurrencyOptions;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CoreOptionReferenceTest {
  @Test
  void optionsPageCoreSectionIsWhatTheOptionsClassesDescribe() {
    OptionsPage.check(CoreOptionReference.SECTION, CoreOptionReference.render());
  }

  @Test
  void documentedDefaultsAreTheDefaultsInEffect() {
    WriteOptions.DESCRIPTIONS.forEach((key, d) ->
        assertThat(WriteOptions.fromMap(Map.of(key, d[0]))).as(key).isEqualTo(WriteOptions.defaults()));
    BaseFileOptions.DESCRIPTIONS.forEach((key, d) ->
        assertThat(BaseFileOptions.fromMap(Map.of(key, d[0]))).as(key).isEqualTo(BaseFileOptions.defaults()));
    ConsumerOptions.DESCRIPTIONS.forEach((key, d) ->
        assertThat(ConsumerOptions.fromMap(Map.of(key, d[0]))).as(key).isEqualTo(ConsumerOptions.defaults()));
    ConcurrencyOptions.DESCRIPTIONS.forEach((key, d) -> {
      if (!d[0].isEmpty()) {
        assertThat(ConcurrencyOptions.fromMap(Map.of(key, d[0]))).as(key).isEqualTo(ConcurrencyOptions.defaults());
      }
    });
    CompactionOptions.DESCRIPTIONS.forEach((key, d) -> {
      if (!d[0].equals("java.io.tmpdir")) {
        assertThat(CompactionOptions.fromMap(Map.of(key, d[0]))).as(key).isEqualTo(CompactionOptions.defaults());
      }
    });
  }
}
