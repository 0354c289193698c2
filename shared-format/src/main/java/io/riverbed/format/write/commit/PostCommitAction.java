package io.riverbed.format.write.commit;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;

/**
 * Work a {@link TableCommitter} runs after each commit it makes (compaction scheduling, Hive
 * sync, and the cleaning and archival to come), so engines need not know the modules that do it.
 * Runs once per successful commit, in registration order, on the committer's thread. A failure is
 * logged and never undoes the commit, which is already visible; an action that wants retries does
 * them after a later commit.
 */
@FunctionalInterface
public interface PostCommitAction {
  /**
   * Called after {@code committed} became visible.
   *
   * @param table the table committed to
   * @param committed the completed instant
   * @param metadata what was written as its commit metadata
   */
  void afterCommit(Table table, Instant committed, CommitMetadata metadata);
}
