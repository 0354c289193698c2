package io.riverbed.spark;

import io.riverbed.format.docs.OptionsPage;
import org.junit.jupiter.api.Test;

class SparkOptionReferenceTest {
  @Test
  void optionsPageSparkSectionIsWhatReadOptionAndTheUsageTextSay() {
    OptionsPage.check(SparkOptionReference.SECTION, SparkOptionReference.render());
  }
}
