package io.riverbed.flink.read;

import java.util.List;

/**
 * The enumerator's checkpointed state: whether the read was planned, and the splits not yet
 * assigned to a reader (splits a reader holds are in that reader's state).
 */
public record PendingSplits(boolean planned, List<FileSliceSplit> unassigned) {
  public PendingSplits {
    unassigned = List.copyOf(unassigned);
  }

  public static PendingSplits notPlanned() {
    return new PendingSplits(false, List.of());
  }
}
