package io.riverbed.format.log;

import java.io.Closeable;
import java.util.Iterator;
import java.util.Optional;

/**
 * The result of a {@link SliceLogScanner} scan: per record key the latest {@link LogEntry}, plus
 * scan counters. May hold a local spill file; {@link #close()} deletes it.
 */
public final class MergedLogRecords implements Iterable<LogEntry>, Closeable {

  private final SpillableEntryMap entries;
  private final ScanStats stats;

  MergedLogRecords(SpillableEntryMap entries, ScanStats stats) {
    this.entries = entries;
    this.stats = stats;
  }

  /** The entry for {@code recordKey}, if the logs mention it. */
  public Optional<LogEntry> get(String recordKey) {
    return Optional.ofNullable(entries.get(recordKey));
  }

  /** Number of distinct keys (deleted ones included). */
  public int size() {
    return entries.size();
  }

  public ScanStats stats() {
    return stats;
  }

  /** All entries, in no particular order; spilled entries are loaded one at a time. */
  @Override
  public Iterator<LogEntry> iterator() {
    return entries.iterator();
  }

  @Override
  public void close() {
    entries.close();
  }
}
