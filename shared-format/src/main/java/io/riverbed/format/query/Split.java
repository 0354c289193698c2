package io.riverbed.format.query;

import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.file.FileSlice;
import java.util.Optional;

/**
 * One unit of reading: a file slice, the instant its logs are read up to, and for incremental
 * queries the instant range its rows must fall into (log blocks are merged whole up to
 * {@code latestInstant}, as Hudi 0.15 merges them).
 *
 * @param slice the base file and log files to merge (no logs for read-optimized reads)
 * @param latestInstant log blocks after this instant end the scan
 * @param range incremental range; rows whose {@code _hoodie_commit_time} lies outside are dropped
 */
public record Split(FileSlice slice, String latestInstant, Optional<InstantRange> range) {
  public boolean baseOnly() {
    return slice.logFiles().isEmpty();
  }
}
