package io.riverbed.format;

/**
 * The one shape of a table's verbs: {@code Verb.of(table, ...)}, option setters, then
 * {@link #execute()}, which does all of the verb's I/O. Rollback, compaction scheduling and
 * running, cleaning, archival, savepoints and restore follow it; a write's commit goes through
 * {@link io.riverbed.format.write.commit.TableCommitter} (it takes the written data).
 *
 * @param <R> what the verb reports: the metadata it wrote, or what it decided
 */
public interface TableOperation<R> {

  /** Runs the operation against the table's current timeline. */
  R execute();
}
