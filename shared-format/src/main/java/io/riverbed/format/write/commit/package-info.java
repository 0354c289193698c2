/**
 * The engine-neutral commit protocol: write tasks hand {@link io.riverbed.format.write.commit.CommitMessage}s
 * to one {@link io.riverbed.format.write.commit.TableCommitter}, which commits each
 * {@link io.riverbed.format.write.commit.Committable} as one instant (idempotent per instant, recorded
 * with the writer id and commit identifier, checked for file-group conflicts with concurrent
 * writers) and then runs the {@link io.riverbed.format.write.commit.PostCommitAction}s
 * (e.g. {@link io.riverbed.format.write.commit.CompactionTrigger}, Hive sync).
 */
package io.riverbed.format.write.commit;
