package io.riverbed.hive.input;

import io.riverbed.format.docs.OptionsPage;
import org.junit.jupiter.api.Test;

class HiveInputOptionReferenceTest {
  @Test
  void optionsPageHiveInputSectionIsWhatConsumeOptionsSay() {
    OptionsPage.check(HiveInputOptionReference.SECTION, HiveInputOptionReference.render());
  }
}
