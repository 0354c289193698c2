package io.riverbed.format.clean;

import io.riverbed.format.timeline.CleanMetadata;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one completed clean did: its instant, the earliest instant it retained and the files it
 * deleted per partition, as recorded in its {@code T.clean} file.
 */
public record CleanResult(CleanMetadata metadata) {

  public String instantTime() {
    return metadata.startCleanTime();
  }

  /** The earliest write instant whose files the clean kept; "" for KEEP_LATEST_FILE_VERSIONS. */
  public String earliestInstantRetained() {
    return metadata.earliestCommitToRetain();
  }

  public int filesDeleted() {
    return metadata.totalFilesDeleted();
  }

  /** Per partition path, the names of the files this clean deleted. */
  public Map<String, List<String>> deletedFilesByPartition() {
    var out = new LinkedHashMap<String, List<String>>();
    metadata.partitionMetadata().forEach((p, m) -> out.put(p, m.successDeleteFiles()));
    return out;
  }

  /** Per partition path, the planned files that were already gone (a clean resumed after a crash). */
  public Map<String, List<String>> alreadyGoneByPartition() {
    var out = new LinkedHashMap<String, List<String>>();
    metadata.partitionMetadata().values().stream().filter(m -> !m.failedDeleteFiles().isEmpty())
        .forEach(m -> out.put(m.partitionPath(), m.failedDeleteFiles()));
    return out;
  }
}
