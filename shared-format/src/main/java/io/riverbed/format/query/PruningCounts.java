package io.riverbed.format.query;

/**
 * What a reader's {@link ColumnPredicate} saved it: base files and Parquet row groups read, and
 * those skipped because their statistics show no row can pass. Counted by one reader (not
 * thread-safe); engines expose the counts as metrics.
 */
public final class PruningCounts {
  private long baseFilesRead;
  private long baseFilesSkipped;
  private long rowGroupsRead;
  private long rowGroupsSkipped;

  /** Records a base file of {@code rowGroups} row groups of which {@code matching} are read (none: the file is skipped). */
  void baseFile(int rowGroups, int matching) {
    if (matching == 0) {
      baseFilesSkipped++;
    } else {
      baseFilesRead++;
    }
    rowGroupsRead += matching;
    rowGroupsSkipped += rowGroups - matching;
  }

  public long baseFilesRead() {
    return baseFilesRead;
  }

  public long baseFilesSkipped() {
    return baseFilesSkipped;
  }

  public long rowGroupsRead() {
    return rowGroupsRead;
  }

  public long rowGroupsSkipped() {
    return rowGroupsSkipped;
  }

  @Override
  public String toString() {
    return "base files read " + baseFilesRead + ", skipped " + baseFilesSkipped + "; row groups read " + rowGroupsRead
        + ", skipped " + rowGroupsSkipped;
  }
}
