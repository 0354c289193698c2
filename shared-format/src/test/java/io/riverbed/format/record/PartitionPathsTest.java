package io.riverbed.format.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionPathsTest {

  @Test
  void escapeUsesHivesCharacterSetWithUpperCaseHex() {
    assertThat(PartitionPaths.escapePathName("a b-c_d.e")).isEqualTo("a b-c_d.e");
    assertThat(PartitionPaths.escapePathName("\"#%'*/:=?\\{[]^\u007F\n"))
        .isEqualTo("%22%23%25%27%2A%2F%3A%3D%3F%5C%7B%5B%5D%5E%7F%0A");
    assertThat(PartitionPaths.escapePathName("}|<>~")).as("not in Hive's set").isEqualTo("}|<>~");
    assertThat(PartitionPaths.escapePathName("")).isEqualTo("__HIVE_DEFAULT_PARTITION__");
    assertThat(PartitionPaths.escapePathName(null)).isEqualTo("__HIVE_DEFAULT_PARTITION__");
  }

  @Test
  void unescapeInvertsEscape() {
    for (String value : List.of("2024/01/01 10:00", "100%", "a=b", "\u00e9t\u00e9", "%zz", "x%2")) {
      assertThat(PartitionPaths.unescapePathName(PartitionPaths.escapePathName(value))).isEqualTo(value);
    }
    assertThat(PartitionPaths.unescapePathName("%zz")).isEqualTo("%zz");
  }

  @Test
  void parseRejectsPathsThatDoNotFitTheFields() {
    assertThatThrownBy(() -> PartitionPaths.parse("a/b/c", List.of("x", "y"), false, false))
        .isInstanceOf(TableException.class).hasMessageContaining("a/b/c");
    assertThatThrownBy(() -> PartitionPaths.parse("y=1", List.of("x"), true, false))
        .isInstanceOf(TableException.class).hasMessageContaining("x=");
    assertThatThrownBy(() -> PartitionPaths.parse("p", List.of(), false, false))
        .isInstanceOf(TableException.class);
  }

  @Test
  void hiveStyleParseKeepsUnencodedSlashesInsideValues() {
    assertThat(PartitionPaths.parse("a=1/2/b=3", List.of("a", "b"), true, false))
        .containsEntry("a", "1/2").containsEntry("b", "3");
  }
}
