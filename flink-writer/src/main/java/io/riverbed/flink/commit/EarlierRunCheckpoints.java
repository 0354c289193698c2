package io.riverbed.flink.commit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the retained checkpoints of the run a job was restored from ({@code --restore}), once the
 * job has completed a checkpoint of its own that needs none of its files: each run of
 * {@code riverbed-write} gets a new job id, so without this every restored run leaves the earlier
 * run's folder behind ({@code <checkpoint dir>/<job id>/chk-<n>}, {@code shared/}, {@code taskowned/}).
 *
 * <p>The earlier run's folder is deleted only when all of these hold: the restore started from a
 * retained checkpoint ({@code chk-<n>}, not a savepoint) in a job folder (named by a 32-hex-digit
 * job id) of the same checkpoint directory as this run's; this run's newest completed checkpoint is
 * in its own folder; and that checkpoint's {@code _metadata}, which names the path of every file the
 * checkpoint refers to, does not name the earlier folder (after a restore in Flink's default
 * {@code NO_CLAIM} mode the first checkpoint is a full one; in {@code CLAIM} or {@code LEGACY} mode
 * incremental RocksDB checkpoints keep referring to the earlier run's shared files, and then the
 * folder is kept, and tried again at the next checkpoint).
 */
final class EarlierRunCheckpoints {
  private static final Logger LOG = LoggerFactory.getLogger(EarlierRunCheckpoints.class);
  private static final Pattern CHECKPOINT = Pattern.compile("chk-\\d+");
  private static final Pattern JOB_ID = Pattern.compile("[0-9a-f]{32}");

  /** What {@link #removeIfUnreferenced} did, and why. */
  enum Outcome {
    DELETED,
    /** The restore did not start from a retained checkpoint ({@code chk-<n>}) in a job folder. */
    NOT_A_RETAINED_CHECKPOINT,
    /** The restored checkpoint is this run's own (a failover). */
    SAME_RUN,
    /** The earlier run's folder is not in this run's checkpoint directory. */
    OTHER_DIRECTORY,
    /** This run's newest completed checkpoint still refers to files of the earlier run. */
    STILL_REFERENCED,
    /** The folder was gone already. */
    ABSENT
  }

  private EarlierRunCheckpoints() {}

  /**
   * Deletes the job folder of {@code restoredCheckpoint} if {@code completedCheckpoint} (this run's
   * newest completed checkpoint) does not need it; both are Flink's external pointers (the
   * {@code chk-<n>} folders).
   */
  static Outcome removeIfUnreferenced(String restoredCheckpoint, String completedCheckpoint) throws IOException {
    Path restored = folder(new Path(restoredCheckpoint));
    Path completed = folder(new Path(completedCheckpoint));
    Path earlierRun = restored.getParent();
    Path thisRun = completed.getParent();
    if (earlierRun == null || thisRun == null || !CHECKPOINT.matcher(restored.getName()).matches()
        || !JOB_ID.matcher(earlierRun.getName()).matches()) {
      return Outcome.NOT_A_RETAINED_CHECKPOINT;
    }
    if (sameFolder(earlierRun, thisRun)) {
      return Outcome.SAME_RUN;
    }
    if (earlierRun.getParent() == null || thisRun.getParent() == null
        || !sameFolder(earlierRun.getParent(), thisRun.getParent())) {
      return Outcome.OTHER_DIRECTORY;
    }
    FileSystem fs = earlierRun.getFileSystem();
    if (!fs.exists(earlierRun)) {
      return Outcome.ABSENT;
    }
    if (contains(read(new Path(completed, "_metadata")), earlierRun.getName())) {
      return Outcome.STILL_REFERENCED;
    }
    if (!fs.delete(earlierRun, true) && fs.exists(earlierRun)) {
      throw new IOException("could not delete " + earlierRun);
    }
    return Outcome.DELETED;
  }

  /**
   * As {@link #removeIfUnreferenced}, logging instead of throwing: housekeeping never fails the job.
   * Returns true when nothing is left to do (deleted, or never to be deleted by this run).
   */
  static boolean removeLogged(String table, String restoredCheckpoint, String completedCheckpoint) {
    try {
      Outcome outcome = removeIfUnreferenced(restoredCheckpoint, completedCheckpoint);
      switch (outcome) {
        case DELETED -> LOG.info("Table {}: deleted the checkpoints of the earlier run {} (this run's checkpoint {} "
            + "needs none of them)", table, new Path(restoredCheckpoint).getParent(), completedCheckpoint);
        case STILL_REFERENCED -> LOG.info("Table {}: kept the checkpoints of the earlier run {}: checkpoint {} still "
            + "refers to its files", table, new Path(restoredCheckpoint).getParent(), completedCheckpoint);
        default -> LOG.debug("Table {}: earlier run's checkpoints of {} not deleted: {}", table, restoredCheckpoint,
            outcome);
      }
      return outcome != Outcome.STILL_REFERENCED;
    } catch (IOException | RuntimeException e) {
      LOG.warn("Table {}: could not delete the checkpoints of the earlier run {}; they can be deleted by hand",
          table, new Path(restoredCheckpoint).getParent(), e);
      return true;
    }
  }

  /** A pointer may name the checkpoint's {@code _metadata} file rather than its folder. */
  private static Path folder(Path pointer) {
    return pointer.getName().equals("_metadata") && pointer.getParent() != null ? pointer.getParent() : pointer;
  }

  private static boolean sameFolder(Path a, Path b) {
    return a.toUri().normalize().getPath().equals(b.toUri().normalize().getPath())
        && java.util.Objects.equals(a.toUri().getScheme(), b.toUri().getScheme())
        && java.util.Objects.equals(a.toUri().getAuthority(), b.toUri().getAuthority());
  }

  private static byte[] read(Path file) throws IOException {
    try (InputStream in = file.getFileSystem().open(file)) {
      var out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  static boolean contains(byte[] haystack, String needle) {
    byte[] n = needle.getBytes(StandardCharsets.UTF_8);
    outer:
    for (int i = 0; i + n.length <= haystack.length; i++) {
      for (int j = 0; j < n.length; j++) {
        if (haystack[i + j] != n[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
