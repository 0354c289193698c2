package io.riverbed.format.write.commit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One commit a writer asks the {@link TableCommitter} for: the messages of its tasks for one
 * instant, under the writer's commit identifier (Flink: the checkpoint whose completion commits
 * it). The instant time is what makes a commit unique on the timeline; the identifier is recorded
 * beside the writer id so a writer can tell what it has committed.
 *
 * @param identifier the engine's commit identifier, recorded as {@link TableCommitter#IDENTIFIER_KEY}
 * @param instantTime the pending instant the messages' files were written for
 * @param messages the tasks' messages; each must name {@code instantTime}
 * @param extraMetadata engine keys added to the commit's extraMetadata (e.g. the Flink job id)
 */
public record Committable(long identifier, String instantTime, List<CommitMessage> messages,
    Map<String, String> extraMetadata) {

  public Committable {
    Objects.requireNonNull(instantTime, "instantTime");
    messages = List.copyOf(messages);
    extraMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(extraMetadata));
    for (CommitMessage m : messages) {
      if (!m.instantTime().equals(instantTime)) {
        throw new IllegalArgumentException("message of task " + m.taskId() + " is for instant " + m.instantTime()
            + ", not " + instantTime + " (commit identifier " + identifier + ")");
      }
    }
  }

  /** A commit without engine metadata. */
  public static Committable of(long identifier, String instantTime, List<CommitMessage> messages) {
    return new Committable(identifier, instantTime, messages, Map.of());
  }
}
