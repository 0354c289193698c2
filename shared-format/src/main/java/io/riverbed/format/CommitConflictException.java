package io.riverbed.format;

/**
 * A commit another writer got in the way of: a timeline transition it (or an earlier attempt)
 * already made, a writer lease it holds, or a file group it wrote while this commit's instant was
 * in flight (optimistic concurrency, {@link io.riverbed.format.write.commit.TableCommitter}).
 */
public class CommitConflictException extends TableException {
  public CommitConflictException(String message) {
    super(message);
  }
}
