package io.riverbed.hive;

import io.riverbed.format.docs.OptionsPage;
import org.junit.jupiter.api.Test;

class HiveOptionReferenceTest {
  @Test
  void optionsPageHiveSectionIsWhatHiveSyncOptionsAndTheUsageTextSay() {
    OptionsPage.check(HiveOptionReference.SECTION, HiveOptionReference.render());
  }
}
