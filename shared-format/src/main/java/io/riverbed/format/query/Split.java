package io.riverbed.format.query;

import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.file.FileSlice;
import java.util.Optional;

/**
 * One unit of reading: a file slice, the instant its logs are read up to, and for incremental
 * queries the instant range that log blocks and rows must fall into.
 *
 * @param slice the base file and log files to merge (no logs for read-optimized reads)
 * @param latestInstant log blocks after this instant end the scan
 * @param range incremental range; rows whose {@code _hoodie_commit_time} lies outside are dropped,
 *     and so are base-file row groups and pages whose commit-time statistics lie outside
 * @param rangeSkipsLogBlocks whether log blocks of instants outside {@code range} are skipped before
 *     merging (an incremental read of the commits' own files, which Hudi's reader reads alone), or
 *     every committed block up to {@code latestInstant} is merged and only the merged rows are
 *     filtered (the full-table-scan fallback, which reads the latest slices as a snapshot does)
 */
public record Split(FileSlice slice, String latestInstant, Optional<InstantRange> range, boolean rangeSkipsLogBlocks) {

  /** A split whose range, if any, also selects the log blocks read. */
  public Split(FileSlice slice, String latestInstant, Optional<InstantRange> range) {
    this(slice, latestInstant, range, true);
  }

  public boolean baseOnly() {
    return slice.logFiles().isEmpty();
  }
}
