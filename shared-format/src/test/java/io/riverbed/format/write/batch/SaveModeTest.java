package io.riverbed.format.write.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.table.TableExistsException;
import io.riverbed.format.timeline.WriteOperationType;
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

  @Test
  void insertOverwriteTableUnderOverwriteKeepsTheTableAsHudiDoes() {
    assertThat(SaveMode.OVERWRITE.step(BASE, true, WriteOperationType.INSERT_OVERWRITE_TABLE))
        .isEqualTo(SaveMode.Step.WRITE);
    assertThat(SaveMode.OVERWRITE.step(BASE, true, WriteOperationType.INSERT_OVERWRITE))
        .isEqualTo(SaveMode.Step.REPLACE);
    assertThat(SaveMode.APPEND.step(BASE, true, WriteOperationType.INSERT_OVERWRITE_TABLE))
        .isEqualTo(SaveMode.Step.WRITE);
    assertThat(SaveMode.OVERWRITE.step(BASE, false, WriteOperationType.INSERT_OVERWRITE_TABLE))
        .isEqualTo(SaveMode.Step.CREATE);
  }

  @Test
  void deletePartitionNeedsAnExistingTableAndRefusesOverwrite() {
    assertThat(SaveMode.APPEND.step(BASE, true, WriteOperationType.DELETE_PARTITION)).isEqualTo(SaveMode.Step.WRITE);
    assertThatThrownBy(() -> SaveMode.APPEND.step(BASE, false, WriteOperationType.DELETE_PARTITION))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("no Hudi table at /lake/t");
    assertThatThrownBy(() -> SaveMode.OVERWRITE.step(BASE, true, WriteOperationType.DELETE_PARTITION))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("mode Append");
  }
}
