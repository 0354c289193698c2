package io.riverbed.flink.job;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Waits until a finished job's last commit is on the timeline. Flink reports a bounded job
 * finished once its final checkpoint completed, while the write coordinator may still be writing
 * the commit of that checkpoint on its own thread; a launcher that exits then would cut it off,
 * and the next run would roll the data back. So the launcher waits until no commit, deltacommit
 * or replacecommit of the table is pending (a scheduled compaction may stay pending).
 */
final class SettledCommits {
  private static final Duration POLL = Duration.ofMillis(50);

  private SettledCommits() {}

  /** Returns once nothing is pending; fails naming the pending instants after {@code timeout}. */
  static void await(String tablePath, Duration timeout) {
    Path base = new Path(tablePath);
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      FileSystem fs = base.getFileSystem(new Configuration());
      if (!Table.exists(fs, base)) {
        return;
      }
      Table table = Table.open(fs, base);
      TimelineStore store = TimelineStore.at(fs, table.metaPath());
      while (true) {
        List<Instant> pending = pendingWrites(store.load());
        if (pending.isEmpty()) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new TableException("the job finished but " + pending + " of table " + base + " did not complete within "
              + timeout.toSeconds() + " s; the next run rolls them back (run it with --restore latest to commit them)");
        }
        Thread.sleep(POLL.toMillis());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the timeline of " + base, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TableException("interrupted while waiting for the last commit of " + base, e);
    }
  }

  private static List<Instant> pendingWrites(Timeline timeline) {
    return timeline.commitsTimeline().pending().instants();
  }
}
