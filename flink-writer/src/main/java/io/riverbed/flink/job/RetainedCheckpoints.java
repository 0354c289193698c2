package io.riverbed.flink.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Finds the checkpoint to resume from in a checkpoint directory, laid out by Flink as
 * {@code <dir>/<job id>/chk-<n>/_metadata}. The newest is the completed one (it has its
 * {@code _metadata}) written last; of two written in the same millisecond the higher number.
 */
public final class RetainedCheckpoints {
  private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");

  private RetainedCheckpoints() {}

  private record Candidate(Path path, long modified, long number) {}

  public static Optional<String> latest(String checkpointDir) {
    Path root = new Path(checkpointDir);
    try {
      FileSystem fs = root.getFileSystem();
      if (!fs.exists(root)) {
        return Optional.empty();
      }
      Candidate best = null;
      Comparator<Candidate> order = Comparator.comparingLong(Candidate::modified).thenComparingLong(Candidate::number);
      for (FileStatus job : list(fs, root)) {
        if (!job.isDir()) {
          continue;
        }
        for (FileStatus chk : list(fs, job.getPath())) {
          Matcher m = CHECKPOINT.matcher(chk.getPath().getName());
          if (!chk.isDir() || !m.matches()) {
            continue;
          }
          Path metadata = new Path(chk.getPath(), "_metadata");
          if (!fs.exists(metadata)) {
            continue;
          }
          Candidate c = new Candidate(chk.getPath(), fs.getFileStatus(metadata).getModificationTime(), Long.parseLong(m.group(1)));
          if (best == null || order.compare(c, best) > 0) {
            best = c;
          }
        }
      }
      return Optional.ofNullable(best).map(c -> c.path().toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list checkpoints under " + checkpointDir, e);
    }
  }

  private static FileStatus[] list(FileSystem fs, Path dir) throws IOException {
    FileStatus[] s = fs.listStatus(dir);
    return s == null ? new FileStatus[0] : s;
  }
}
