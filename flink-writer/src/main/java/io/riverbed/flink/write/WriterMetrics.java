package io.riverbed.flink.write;

import io.riverbed.format.timeline.WriteStat;
import java.util.Collection;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * A writer task's metrics in its operator metric group, counted from the files each checkpoint's
 * flush wrote (Flink's own {@code numRecordsIn} counts the changes that came in): records written
 * and deleted as Hudi's write stats count them, bytes and files written.
 */
final class WriterMetrics {
  static final String RECORDS_WRITTEN = "numRecordsWritten";
  static final String RECORDS_DELETED = "numRecordsDeleted";
  static final String BYTES_WRITTEN = "numBytesWritten";
  static final String FILES_WRITTEN = "numFilesWritten";

  private final Counter recordsWritten;
  private final Counter recordsDeleted;
  private final Counter bytesWritten;
  private final Counter filesWritten;

  WriterMetrics(MetricGroup group) {
    this.recordsWritten = group.counter(RECORDS_WRITTEN);
    this.recordsDeleted = group.counter(RECORDS_DELETED);
    this.bytesWritten = group.counter(BYTES_WRITTEN);
    this.filesWritten = group.counter(FILES_WRITTEN);
  }

  /** Counts what one flush wrote. */
  void flushed(Collection<WriteStat> stats) {
    for (WriteStat s : stats) {
      recordsWritten.inc(s.numWrites());
      recordsDeleted.inc(s.numDeletes());
      bytesWritten.inc(s.totalWriteBytes());
      filesWritten.inc();
    }
  }
}
