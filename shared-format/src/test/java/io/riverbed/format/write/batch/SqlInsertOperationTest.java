package io.riverbed.format.write.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operation of a SQL INSERT INTO, as Hudi 0.15 chooses it from the new and the deprecated settings. */
class SqlInsertOperationTest {
  @Test
  void insertIsTheDefaultAndTheOperationSettingDecides() {
    assertThat(SqlInsertOperation.of(Map.of())).isEqualTo(WriteOperationType.INSERT);
    assertThat(SqlInsertOperation.of(Map.of(SqlInsertOperation.INSERT_INTO_OPERATION, "UPSERT")))
        .isEqualTo(WriteOperationType.UPSERT);
    assertThat(SqlInsertOperation.of(Map.of(SqlInsertOperation.INSERT_INTO_OPERATION, "bulk_insert",
        SqlInsertOperation.INSERT_MODE, "upsert"))).isEqualTo(WriteOperationType.BULK_INSERT);
  }

  @Test
  void deprecatedSettingsCountOnlyAlone() {
    assertThat(SqlInsertOperation.of(Map.of(SqlInsertOperation.INSERT_MODE, "upsert"))).isEqualTo(WriteOperationType.UPSERT);
    assertThat(SqlInsertOperation.of(Map.of(SqlInsertOperation.INSERT_MODE, "non-strict",
        SqlInsertOperation.BULK_INSERT_ENABLE, "true"))).isEqualTo(WriteOperationType.BULK_INSERT);
    assertThat(SqlInsertOperation.of(Map.of(SqlInsertOperation.BULK_INSERT_ENABLE, "true")))
        .isEqualTo(WriteOperationType.BULK_INSERT);
    // with the new dup policy set, Hudi ignores the legacy insert mode
    assertThat(SqlInsertOperation.of(Map.of(SqlInsertOperation.INSERT_MODE, "upsert",
        SqlInsertOperation.INSERT_DUP_POLICY, "none"))).isEqualTo(WriteOperationType.INSERT);
  }

  @Test
  void valuesRiverbedDoesNotRunAreRefusedByName() {
    assertThatThrownBy(() -> SqlInsertOperation.of(Map.of(SqlInsertOperation.INSERT_INTO_OPERATION, "delete")))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("hoodie.spark.sql.insert.into.operation='delete'");
    assertThatThrownBy(() -> SqlInsertOperation.of(Map.of(SqlInsertOperation.INSERT_MODE, "strict")))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("hoodie.sql.insert.mode='strict'");
    assertThatThrownBy(() -> SqlInsertOperation.of(Map.of(SqlInsertOperation.INSERT_DUP_POLICY, "drop")))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("hoodie.datasource.insert.dup.policy='drop'");
  }
}
