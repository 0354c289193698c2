package io.riverbed.flink.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.commit.EarlierRunCheckpoints.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which earlier run's checkpoints a restored job deletes, in Flink's checkpoint layout
 * ({@code <dir>/<job id>/chk-<n>/_metadata}, {@code shared/}), without a cluster.
 */
class EarlierRunCheckpointsTest {
  private static final String EARLIER = "0123456789abcdef0123456789abcdef";
  private static final String THIS_RUN = "fedcba9876543210fedcba9876543210";

  @TempDir Path dir;

  /** A completed checkpoint whose {@code _metadata} holds {@code metadata}. */
  private Path checkpoint(Path root, String job, int n, String metadata) throws IOException {
    Path chk = Files.createDirectories(root.resolve(job).resolve("chk-" + n));
    Files.writeString(chk.resolve("_metadata"), metadata);
    Files.createDirectories(root.resolve(job).resolve("shared"));
    Files.writeString(root.resolve(job).resolve("shared").resolve("000012.sst"), "sst");
    return chk;
  }

  private static String pointer(Path chk) {
    return chk.toUri().toString();
  }

  @Test
  void theEarlierRunsFolderIsDeletedOnceThisRunsCheckpointNeedsNoneOfItsFiles() throws IOException {
    Path restored = checkpoint(dir, EARLIER, 7, "state of " + EARLIER + " run");
    Path completed = checkpoint(dir, THIS_RUN, 9, "file:" + dir.resolve(THIS_RUN) + "/shared/000012.sst");

    assertThat(EarlierRunCheckpoints.removeIfUnreferenced(pointer(restored), pointer(completed)))
        .isEqualTo(Outcome.DELETED);

    assertThat(dir.resolve(EARLIER)).doesNotExist();
    assertThat(completed.resolve("_metadata")).exists();
    assertThat(dir.resolve(THIS_RUN).resolve("shared").resolve("000012.sst")).exists();
  }

  @Test
  void theEarlierRunIsKeptWhileThisRunsCheckpointStillRefersToItsSharedFiles() throws IOException {
    Path restored = checkpoint(dir, EARLIER, 7, "x");
    // a CLAIM-mode incremental checkpoint: it reuses an SST file the earlier run uploaded
    Path completed = checkpoint(dir, THIS_RUN, 9, "file:" + dir.resolve(EARLIER) + "/shared/000012.sst");

    assertThat(EarlierRunCheckpoints.removeIfUnreferenced(pointer(restored), pointer(completed)))
        .isEqualTo(Outcome.STILL_REFERENCED);
    assertThat(restored.resolve("_metadata")).exists();
  }

  @Test
  void aFailoverWithinTheRunDeletesNothing() throws IOException {
    Path restored = checkpoint(dir, THIS_RUN, 7, "x");
    Path completed = checkpoint(dir, THIS_RUN, 9, "y");

    assertThat(EarlierRunCheckpoints.removeIfUnreferenced(pointer(restored), pointer(completed)))
        .isEqualTo(Outcome.SAME_RUN);
    assertThat(restored.resolve("_metadata")).exists();
  }

  @Test
  void savepointsAndFoldersThatAreNotJobFoldersAreNeverDeleted() throws IOException {
    Path completed = checkpoint(dir, THIS_RUN, 9, "y");
    Path savepoint = Files.createDirectories(dir.resolve("savepoint-0123ab-4567cdef89ab"));
    Files.writeString(savepoint.resolve("_metadata"), "x");
    Path copied = checkpoint(dir, "backup-of-tuesday", 3, "x");

    assertThat(EarlierRunCheckpoints.removeIfUnreferenced(pointer(savepoint), pointer(completed)))
        .isEqualTo(Outcome.NOT_A_RETAINED_CHECKPOINT);
    assertThat(EarlierRunCheckpoints.removeIfUnreferenced(pointer(copied), pointer(completed)))
        .isEqualTo(Outcome.NOT_A_RETAINED_CHECKPOINT);
    assertThat(savepoint.resolve("_metadata")).exists();
    assertThat(copied.resolve("_metadata")).exists();
  }

  @Test
  void aCheckpointOfAnotherCheckpointDirectoryIsNeverDeleted() throws IOException {
    Path elsewhere = checkpoint(dir.resolve("other-dir"), EARLIER, 7, "x");
    Path completed = checkpoint(dir.resolve("this-dir"), THIS_RUN, 9, "y");

    assertThat(EarlierRunCheckpoints.removeIfUnreferenced(pointer(elsewhere), pointer(completed)))
        .isEqualTo(Outcome.OTHER_DIRECTORY);
    assertThat(elsewhere.resolve("_metadata")).exists();
  }

  @Test
  void aPointerToTheMetadataFileNamesItsCheckpoint() throws IOException {
    Path restored = checkpoint(dir, EARLIER, 7, "x");
    Path completed = checkpoint(dir, THIS_RUN, 9, "y");

    assertThat(EarlierRunCheckpoints.removeIfUnreferenced(pointer(restored.resolve("_metadata")), pointer(completed)))
        .isEqualTo(Outcome.DELETED);
    assertThat(EarlierRunCheckpoints.removeIfUnreferenced(pointer(restored), pointer(completed)))
        .isEqualTo(Outcome.ABSENT);
  }
}
