package io.riverbed.admin;

import io.riverbed.format.docs.OptionsPage;
import org.junit.jupiter.api.Test;

class AdminOptionReferenceTest {
  @Test
  void optionsPageAdminSectionIsWhatTheCommandsHelpSays() {
    OptionsPage.check(AdminOptionReference.SECTION, AdminOptionReference.render());
  }
}
