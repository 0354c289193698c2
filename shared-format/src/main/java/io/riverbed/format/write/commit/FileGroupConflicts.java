package io.riverbed.format.write.commit;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.CompactionOperation;
import io.riverbed.format.timeline.CompactionPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.BucketIndex;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Optimistic concurrency control at file-group level: may pending write T commit, given what
 * other writers did while T was in flight? The rules are Apache Hudi's
 * ({@code SimpleConcurrentFileWritesConflictResolutionStrategy} and {@code ConcurrentOperation}):
 *
 * <ul>
 *   <li>The other operations are the completed commits, delta commits and replace commits that
 *       completed after T started, and compactions, pending or completed, planned after T started.
 *       "After T started": an instant time later than T's, or (for an instant that started earlier
 *       and completed while T ran) a completed file whose modification time is later than that of
 *       T's requested file (Hudi's state transition time of a layout-1 timeline).
 *   <li>Commits of the same writer (the same {@link TableCommitter#WRITER_ID_KEY}) are not
 *       concurrent with T: one writer orders its own instants.
 *   <li>An operation conflicts if it wrote a file group T wrote (same partition and file id); a
 *       replace commit also touches the file groups it replaced; a compaction the file groups of
 *       its plan.
 *   <li>A compaction planned before T (an earlier instant time) never conflicts: T's log appends to
 *       its file groups went into the slice after it.
 *   <li>With the bucket index, two file groups of one partition conflict when their file ids name the
 *       same bucket (Hudi's {@code BucketIndexConcurrentFileWritesConflictResolutionStrategy}): two
 *       writers that each made a new file group for a bucket would leave a key in two groups.
 * </ul>
 */
final class FileGroupConflicts {
  private FileGroupConflicts() {}

  /**
   * @param modified every timeline file's modification time ({@link TimelineStore#modificationTimes()})
   * @throws CommitConflictException naming the first conflicting file group and the other
   *     instant, if another writer's operation touched a file group of {@code touched}
   */
  static void check(Table table, TimelineStore store, Map<Instant, Long> modified, Instant pending, String writerId,
      Set<FileGroupId> touched, boolean bucketIndex) {
    if (touched.isEmpty()) {
      return;
    }
    Timeline timeline = Timeline.fromInstants(modified.keySet());
    long startedAt = startOf(pending, modified);
    for (Instant other : timeline.commitsTimeline().completed().instants()) {
      if (other.time().equals(pending.time())) {
        continue;
      }
      boolean startedLater = other.time().compareTo(pending.time()) > 0;
      Long completedAt = modified.get(other);
      if (!startedLater && (completedAt == null || completedAt <= startedAt)) {
        continue;
      }
      CommitMetadata metadata = CommitMetadata.parse(store.read(other), store.pathOf(other).toString());
      String otherWriter = metadata.extraMetadata().get(TableCommitter.WRITER_ID_KEY);
      if (writerId.equals(otherWriter)) {
        continue;
      }
      boolean compaction = metadata.compacted() || metadata.operationType() == WriteOperationType.COMPACT;
      if (compaction && !startedLater) {
        continue;
      }
      Set<FileGroupId> written = new LinkedHashSet<>();
      metadata.fileIdsByPartition().forEach((p, ids) -> ids.forEach(id -> written.add(new FileGroupId(p, id))));
      metadata.replacedFileIds().forEach((p, ids) -> ids.forEach(id -> written.add(new FileGroupId(p, id))));
      failOnOverlap(table, pending, touched, written, other, otherWriter == null ? "a writer without a writer id"
          : "writer " + otherWriter, compaction ? "compaction completed" : "commit completed", bucketIndex);
    }
    for (Instant compaction : timeline.pendingCompactions().instants()) {
      if (compaction.time().compareTo(pending.time()) <= 0) {
        continue;
      }
      Instant requested = Instant.requested(compaction.time(), Action.COMPACTION);
      CompactionPlan plan = CompactionPlan.fromBytes(store.read(requested), store.pathOf(requested).toString());
      Set<FileGroupId> planned = new LinkedHashSet<>();
      for (CompactionOperation op : plan.operations()) {
        planned.add(new FileGroupId(op.partitionPath(), op.fileId()));
      }
      failOnOverlap(table, pending, touched, planned, compaction, "a compaction", "compaction planned", bucketIndex);
    }
  }

  /** The modification time of T's requested file (of its inflight file if that is all there is). */
  private static long startOf(Instant pending, Map<Instant, Long> modified) {
    Long requested = modified.get(new Instant(pending.time(), pending.action(), State.REQUESTED));
    if (requested != null) {
      return requested;
    }
    Long inflight = modified.get(new Instant(pending.time(), pending.action(), State.INFLIGHT));
    return inflight != null ? inflight : Long.MIN_VALUE;
  }

  private static void failOnOverlap(Table table, Instant pending, Set<FileGroupId> touched, Set<FileGroupId> other,
      Instant otherInstant, String otherWriter, String what, boolean bucketIndex) {
    Map<FileGroupId, FileGroupId> otherByKey = new HashMap<>();
    other.forEach(id -> otherByKey.putIfAbsent(conflictKey(id, bucketIndex), id));
    Set<FileGroupId> both = new TreeSet<>();
    touched.stream().filter(id -> otherByKey.containsKey(conflictKey(id, bucketIndex))).forEach(both::add);
    if (both.isEmpty()) {
      return;
    }
    FileGroupId first = both.iterator().next();
    FileGroupId theirs = otherByKey.get(conflictKey(first, bucketIndex));
    String sameBucket = theirs.equals(first) ? "" : " (bucket " + BucketIndex.bucketOf(first.fileId())
        + ", which the other instant wrote as file group " + theirs.fileId() + ")";
    throw new CommitConflictException("cannot commit " + pending + " on table " + table.basePath() + ": file group "
        + first + sameBucket + (both.size() > 1 ? " (and " + (both.size() - 1) + " more)" : "")
        + " was also written by " + otherInstant + " (" + what + " by " + otherWriter + " while " + pending.time()
        + " was in flight); " + pending + " stays pending, to be rolled back");
  }

  /** What two writes must not share: the file group, or with the bucket index its partition and bucket. */
  private static FileGroupId conflictKey(FileGroupId id, boolean bucketIndex) {
    int bucket = bucketIndex ? BucketIndex.bucketOf(id.fileId()) : -1;
    return bucket < 0 ? id : new FileGroupId(id.partitionPath(), "bucket " + bucket);
  }
}
