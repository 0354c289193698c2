package io.riverbed.format.write.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.table.TableExistsException;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class SaveModeTest {
  static final Path BASE = new Path("/lake/t");

  @Test
  void everyModeCreatesAMissingTable() {
    for (SaveMode m : SaveMode.values()) {
      assertThat(m.step(BASE, false)).isEqualTo(SaveMode.Step.CREATE);
    }
  }

  @Test
  void anExistingTableIsWrittenReplacedSkippedOrRefused() {
    assertThat(SaveMode.of("Append").step(BASE, true)).isEqualTo(SaveMode.Step.WRITE);
    assertThat(SaveMode.of("overwrite").step(BASE, true)).isEqualTo(SaveMode.Step.REPLACE);
    assertThat(SaveMode.of("Ignore").step(BASE, true)).isEqualTo(SaveMode.Step.SKIP);
    assertThatThrownBy(() -> SaveMode.of("ErrorIfExists").step(BASE, true))
        .isInstanceOf(TableExistsException.class).hasMessageContaining("/lake/t");
  }
}
