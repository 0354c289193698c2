package io.riverbed.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetainedCheckpointsTest {
  @TempDir Path dir;

  private Path checkpoint(String job, int n, long modifiedMillis, boolean complete) throws IOException {
    Path chk = Files.createDirectories(dir.resolve(job).resolve("chk-" + n));
    if (complete) {
      Path metadata = Files.writeString(chk.resolve("_metadata"), "x");
      Files.setLastModifiedTime(metadata, FileTime.fromMillis(modifiedMillis));
    }
    return chk;
  }

  @Test
  void latestIsTheCompletedCheckpointWrittenLastAcrossJobs() throws IOException {
    checkpoint("job-a", 7, 1_000, true);
    Path newest = checkpoint("job-b", 2, 5_000, true);
    checkpoint("job-b", 3, 9_000, false); // in progress: no _metadata
    Files.createDirectories(dir.resolve("job-b").resolve("shared"));
    Files.createDirectories(dir.resolve("job-b").resolve("taskowned"));
    assertThat(RetainedCheckpoints.latest(dir.toUri().toString()))
        .hasValueSatisfying(p -> assertThat(p).endsWith("job-b/chk-2"));
    assertThat(newest).exists();
  }

  @Test
  void sameTimeTakesTheHigherNumber() throws IOException {
    checkpoint("job", 4, 1_000, true);
    checkpoint("job", 5, 1_000, true);
    assertThat(RetainedCheckpoints.latest(dir.toString())).hasValueSatisfying(p -> assertThat(p).endsWith("chk-5"));
  }

  @Test
  void noneInAnEmptyOrMissingDirectory() {
    assertThat(RetainedCheckpoints.latest(dir.toString())).isEmpty();
    assertThat(RetainedCheckpoints.latest(dir.resolve("absent").toString())).isEmpty();
  }
}
