package io.riverbed.flink.commit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;

/**
 * The instant requests a write coordinator holds back while a due compaction waits for the open
 * instants to commit. A compaction plan may only take file slices no open instant writes into, and
 * under a steady stream some writer has always begun the next instant by the time the previous one
 * commits (a flush of a full buffer, a late change to count); holding the requests that would begin
 * yet another instant lets the open ones commit, the plan be made, and the writers go on, once per
 * due compaction. The writers wait for at most the rest of one checkpoint.
 */
final class CompactionHold {
  private record Held(int subtask, Runnable answer, CompletableFuture<CoordinationResponse> response) {}

  private boolean waiting;
  /** The newest epoch of the instants waited for: checkpoint {@code epoch + 1} commits them. */
  private long epoch;
  private final List<Held> held = new ArrayList<>();

  /**
   * A compaction is due and waits for the open instants, the newest of which was opened for
   * {@code newestEpoch}, to commit.
   */
  void await(long newestEpoch) {
    waiting = true;
    epoch = newestEpoch;
  }

  /**
   * Checkpoint {@code checkpointId} begins (or was aborted, {@code aborted}) while the instants are
   * still open: the checkpoint that was to commit them did not, so waiting longer would hold the
   * writers for another whole checkpoint.
   */
  boolean givesUpAt(long checkpointId, boolean aborted) {
    return waiting && (aborted ? checkpointId >= epoch + 1 : checkpointId > epoch + 1);
  }

  boolean isWaiting() {
    return waiting;
  }

  /**
   * Whether a request for {@code requestEpoch} that would begin a new instant is to be held: only
   * if its writer is past the epochs waited for. A writer still in one of them (one that joined a
   * newer instant while its own barrier was late, and so may not be given it again) is needed for
   * the checkpoint that commits them; held, it would block that checkpoint. Its new instant is
   * opened for its epoch and commits with the ones waited for.
   */
  boolean holds(long requestEpoch) {
    return waiting && requestEpoch > epoch;
  }

  /** Holds the answer to a request of {@code subtask} that would begin a new instant. */
  void hold(int subtask, Runnable answer, CompletableFuture<CoordinationResponse> response) {
    held.add(new Held(subtask, answer, response));
  }

  int heldRequests() {
    return held.size();
  }

  /** Stops waiting and answers every held request, oldest first. */
  void release() {
    waiting = false;
    List<Held> answers = new ArrayList<>(held);
    held.clear();
    answers.forEach(h -> h.answer().run());
  }

  /** Fails the held requests of {@code subtask} (its attempt is gone) with {@code reason}. */
  void drop(int subtask, Exception reason) {
    held.removeIf(h -> {
      if (h.subtask() == subtask) {
        h.response().completeExceptionally(reason);
        return true;
      }
      return false;
    });
  }

  /** Stops waiting and fails every held request with {@code reason} (the coordinator was reset). */
  void dropAll(Exception reason) {
    waiting = false;
    held.forEach(h -> h.response().completeExceptionally(reason));
    held.clear();
  }
}
