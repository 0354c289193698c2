package io.riverbed.hive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HiveSyncArgumentsTest {
  @Test
  void theArgumentsPrintWithTheirSecretsRedacted() {
    HiveSyncArguments arguments = HiveSyncArguments.parse("--base-path", "s3a://lake/t",
        "--set", "hoodie.datasource.hive_sync.password=hunter2",
        "--set", "hoodie.datasource.hive_sync.jdbcurl=jdbc:hive2://h:10000/db;password=hunter3",
        "--hadoop-conf", "fs.s3a.secret.key=hunter4");

    assertThat(arguments.options()).containsEntry("hoodie.datasource.hive_sync.password", "hunter2");
    assertThat(arguments.toString()).doesNotContain("hunter").contains("hoodie.datasource.hive_sync.password=******",
        "fs.s3a.secret.key=******", "s3a://lake/t");
  }

  @Test
  void aMalformedSecretEntryIsRefusedWithoutEchoingIt() {
    assertThatThrownBy(() -> HiveSyncArguments.parse("--base-path", "/t", "--set", "hoodie.datasource.hive_sync.password:hunter2"))
        .isInstanceOf(HiveSyncArguments.UsageException.class)
        .hasMessage("--set '******' is not KEY=VALUE");
  }
}
