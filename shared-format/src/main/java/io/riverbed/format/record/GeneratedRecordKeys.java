package io.riverbed.format.record;

/**
 * The record keys a writer gives the records of a table without record key fields, as Apache Hudi
 * 0.14+ generates them: {@code <instant>_<task>_<row>}, the instant the write commits, the index
 * of the write task (Spark partition) that read the row, and the row's position among that task's
 * rows. Keys are unique across writes because instants are, and within a write because each task
 * numbers its own rows.
 */
public final class GeneratedRecordKeys {
  private final String prefix;
  private long next;

  private GeneratedRecordKeys(String instantTime, int task) {
    this.prefix = instantTime + '_' + task + '_';
  }

  /** The keys of the rows write task {@code task} of instant {@code instantTime} reads, from row 0. */
  public static GeneratedRecordKeys of(String instantTime, int task) {
    if (instantTime == null || instantTime.isBlank()) {
      throw new IllegalArgumentException("generated record keys need the instant of the write");
    }
    return new GeneratedRecordKeys(instantTime, task);
  }

  /** The key of the next row. */
  public String next() {
    return prefix + next++;
  }
}
