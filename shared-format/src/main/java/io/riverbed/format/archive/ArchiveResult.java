package io.riverbed.format.archive;

import io.riverbed.format.timeline.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What one archival run did: the archive file it wrote (empty when nothing was due) and every state
 * file it moved there, in time order.
 *
 * @param archiveFile the new file's name in {@code .hoodie/archived/}
 * @param archived the moved state files (requested, inflight and completed files of each instant)
 * @param backlog true when the per-run cap stopped the run before everything due was archived
 */
public record ArchiveResult(Optional<String> archiveFile, List<Instant> archived, boolean backlog) {

  public ArchiveResult {
    archived = List.copyOf(archived);
  }

  static ArchiveResult nothing() {
    return new ArchiveResult(Optional.empty(), List.of(), false);
  }

  /** The completed instants archived, in time order. */
  public List<Instant> completedInstants() {
    return archived.stream().filter(Instant::isCompleted).toList();
  }
}
