package io.riverbed.format.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretOptionsTest {
  @Test
  void passwordSecretCredentialTokenAndFileSystemKeyOptionsAreSecret() {
    assertThat(SecretOptions.isSecret("hoodie.datasource.hive_sync.password")).isTrue();
    assertThat(SecretOptions.isSecret("hive_sync.password")).isTrue();
    assertThat(SecretOptions.isSecret("hadoop.fs.s3a.secret.key")).isTrue();
    assertThat(SecretOptions.isSecret("fs.s3a.access.key")).isTrue();
    assertThat(SecretOptions.isSecret("hadoop.fs.s3a.bucket.lake.access.key")).isTrue();
    assertThat(SecretOptions.isSecret("fs.s3a.session.token")).isTrue();
    assertThat(SecretOptions.isSecret("fs.azure.account.key.acct.dfs.core.windows.net")).isTrue();
    assertThat(SecretOptions.isSecret("hadoop.fs.s3a.aws.credentials.provider")).isTrue();
    assertThat(SecretOptions.isSecret("properties.sasl.jaas.config")).isTrue();
    assertThat(SecretOptions.isSecret("Ssl.KeyStore.PASSWORD")).isTrue();
  }

  @Test
  void ordinaryOptionsAreNotSecret() {
    assertThat(SecretOptions.isSecret("hoodie.datasource.write.recordkey.field")).isFalse();
    assertThat(SecretOptions.isSecret("hoodie.bucket.index.hash.field")).isFalse();
    assertThat(SecretOptions.isSecret("hive_sync.metastore.uris")).isFalse();
    assertThat(SecretOptions.isSecret("hadoop.fs.s3a.endpoint")).isFalse();
    assertThat(SecretOptions.isSecret("hoodie.datasource.hive_sync.jdbcurl")).isFalse();
  }

  @Test
  void secretValuesPrintRedactedAndOthersAsGiven() {
    assertThat(SecretOptions.redact("hive_sync.password", "hunter2")).isEqualTo(SecretOptions.REDACTED);
    assertThat(SecretOptions.redact("write.tasks", "4")).isEqualTo("4");
    assertThat(SecretOptions.redact("write.tasks", null)).isNull();
  }

  @Test
  void passwordParametersOfJdbcUrlsAndUriUserInfoAreRedacted() {
    assertThat(SecretOptions.redact("hoodie.datasource.hive_sync.jdbcurl", "jdbc:hive2://h:10000/db;password=hunter2;ssl=true"))
        .isEqualTo("jdbc:hive2://h:10000/db;password=******;ssl=true");
    assertThat(SecretOptions.redactText("jdbc:mysql://h/db?user=u&PWD=hunter2&x=1")).isEqualTo("jdbc:mysql://h/db?user=u&PWD=******&x=1");
    assertThat(SecretOptions.redactText("thrift://admin:hunter2@h:9083")).isEqualTo("thrift://admin:******@h:9083");
    assertThat(SecretOptions.redactText("thrift://h:9083,thrift://g:9083")).isEqualTo("thrift://h:9083,thrift://g:9083");
  }

  @Test
  void aMapIsCopiedInOrderWithItsSecretsRedacted() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("path", "s3a://lake/t");
    options.put("hadoop.fs.s3a.secret.key", "hunter2");
    options.put("hive_sync.jdbc_url", "jdbc:hive2://h:10000/db;password=hunter2");

    assertThat(SecretOptions.redact(options)).containsExactly(
        Map.entry("path", "s3a://lake/t"),
        Map.entry("hadoop.fs.s3a.secret.key", SecretOptions.REDACTED),
        Map.entry("hive_sync.jdbc_url", "jdbc:hive2://h:10000/db;password=" + SecretOptions.REDACTED));
    assertThat(options).containsEntry("hadoop.fs.s3a.secret.key", "hunter2");
  }
}
