package io.riverbed.format.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import org.junit.jupiter.api.Test;

class FileNamesTest {

  @Test
  void baseFileNameRoundTrips() {
    String name = FileNames.baseFileName("6d3d1d6e-2298-4080-a0c1-494877d6f40a-0", "0-13-60", "20250618054711154");
    assertThat(name).isEqualTo("6d3d1d6e-2298-4080-a0c1-494877d6f40a-0_0-13-60_20250618054711154.parquet");
    assertThat(FileNames.parseBaseFileName(name))
        .contains(new FileNames.BaseFileName("6d3d1d6e-2298-4080-a0c1-494877d6f40a-0", "0-13-60", "20250618054711154"));
  }

  @Test
  void logFileNameRoundTrips() {
    String name = FileNames.logFileName("abc", "20250101000000000", 3, "1-0-1");
    assertThat(name).isEqualTo(".abc_20250101000000000.log.3_1-0-1");
    FileNames.LogFileName parsed = FileNames.parseLogFileName(name).orElseThrow();
    assertThat(parsed.fileId()).isEqualTo("abc");
    assertThat(parsed.baseInstant()).isEqualTo("20250101000000000");
    assertThat(parsed.version()).isEqualTo(3);
    assertThat(parsed.writeToken()).isEqualTo("1-0-1");
    assertThat(FileNames.isLogFile(name)).isTrue();
    assertThat(FileNames.isLogFile(name + ".cdc")).isFalse();
  }

  @Test
  void otherFilesAreNeitherBaseNorLog() {
    assertThat(FileNames.isBaseFile(FileNames.PARTITION_METADATA)).isFalse();
    assertThat(FileNames.isLogFile(FileNames.PARTITION_METADATA)).isFalse();
    assertThat(FileNames.isBaseFile(".hidden_0-0-0_1.parquet")).isFalse();
  }

  @Test
  void fileIdWithUnderscoreIsRejected() {
    assertThatThrownBy(() -> FileNames.baseFileName("a_b", "0-0-0", "1")).isInstanceOf(TableException.class).hasMessageContaining("a_b");
  }

  @Test
  void logFilesSortByBaseInstantThenVersionThenToken() {
    LogFile a = LogFile.of(new org.apache.hadoop.fs.Path("/t/p/.f_002.log.1_0-1-0"), 1).orElseThrow();
    LogFile b = LogFile.of(new org.apache.hadoop.fs.Path("/t/p/.f_001.log.2_0-1-0"), 1).orElseThrow();
    LogFile c = LogFile.of(new org.apache.hadoop.fs.Path("/t/p/.f_001.log.10_0-1-0"), 1).orElseThrow();
    LogFile d = LogFile.of(new org.apache.hadoop.fs.Path("/t/p/.f_001.log.2_1-0-1"), 1).orElseThrow();
    assertThat(java.util.stream.Stream.of(a, c, d, b).sorted().toList()).containsExactly(b, d, c, a);
  }
}
