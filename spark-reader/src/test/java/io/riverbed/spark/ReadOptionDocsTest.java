package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ReadOptionDocsTest {
  @Test
  void deployReadmeListsEveryReadOptionAsTheCodeDescribesIt() throws Exception {
    String readme = Files.readString(Path.of("..", "deploy", "README.md"), StandardCharsets.UTF_8);
    assertThat(readme).contains(ReadOption.markdownTable());
  }
}
