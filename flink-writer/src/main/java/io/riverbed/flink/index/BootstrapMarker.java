package io.riverbed.flink.index;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.table.data.RowData;

/**
 * "Index bootstrap subtask {@code subtask} of {@code parallelism} has sent all its index entries":
 * the {@link WriteEnvelope#BOOTSTRAPPED} rows an {@link IndexBootstrapOperator} subtask sends after
 * its entries and before any input record. One row per key group of the bucket assigner (a key
 * chosen to hash into that group), so that every assigner subtask receives one on the channel
 * from every bootstrap subtask, whatever the assigner's parallelism.
 *
 * @param maxParallelism the assigner's number of key groups the marker keys were chosen for; the
 *     assigner checks it against its own
 */
record BootstrapMarker(int subtask, int parallelism, int maxParallelism) {
  private static final String KEY_PREFIX = "\u0000riverbed-index-bootstrapped-";

  /** One marker row per key group {@code 0 .. maxParallelism-1} of a stream keyed by {@code keySelector}. */
  List<RowData> rowsForEveryKeyGroup(KeySelector<RowData, String> keySelector) throws Exception {
    RowData[] byGroup = new RowData[maxParallelism];
    String payload = subtask + "/" + parallelism + "/" + maxParallelism;
    int found = 0;
    long limit = 1000L * maxParallelism + 10_000;
    for (long i = 0; found < maxParallelism; i++) {
      if (i > limit) {
        throw new IllegalStateException("found no marker key for some of " + maxParallelism + " key groups");
      }
      RowData row = WriteEnvelope.of(WriteEnvelope.BOOTSTRAPPED, KEY_PREFIX + i, "", payload, null, null);
      int group = KeyGroupRangeAssignment.assignToKeyGroup(keySelector.getKey(row), maxParallelism);
      if (byGroup[group] == null) {
        byGroup[group] = row;
        found++;
      }
    }
    return new ArrayList<>(List.of(byGroup));
  }

  /** The marker a {@link WriteEnvelope#BOOTSTRAPPED} row carries. */
  static BootstrapMarker of(RowData envelope) {
    String[] parts = WriteEnvelope.fileGroup(envelope).split("/");
    return new BootstrapMarker(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
  }
}
