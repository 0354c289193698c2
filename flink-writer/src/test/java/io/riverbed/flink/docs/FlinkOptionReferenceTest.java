package io.riverbed.flink.docs;

import io.riverbed.format.docs.OptionsPage;
import org.junit.jupiter.api.Test;

class FlinkOptionReferenceTest {
  @Test
  void optionsPageFlinkSectionIsWhatTheOptionsClassesAndUsageTextSay() {
    OptionsPage.check(FlinkOptionReference.SECTION, FlinkOptionReference.render());
  }
}
