package io.riverbed.format.write;

import io.riverbed.format.record.OrderingValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps one change per (partition path, record key) of a batch, as Hudi's {@code preCombine}
 * does: the larger ordering value wins, ties go to the later change. Deletes take part with their
 * ordering value; a value of another class than the record's (e.g. a delete without ordering
 * value, {@code Integer 0}, against a {@code Long}) cannot be compared and the later change wins.
 */
public final class BatchPrecombiner {
  private BatchPrecombiner() {}

  /** The surviving changes, in the order their keys first appeared. */
  public static List<WriteRecord> precombine(Iterable<WriteRecord> batch) {
    Map<Key, WriteRecord> winners = new LinkedHashMap<>();
    for (WriteRecord incoming : batch) {
      winners.merge(new Key(incoming.partitionPath(), incoming.recordKey()), incoming, BatchPrecombiner::pick);
    }
    return new ArrayList<>(winners.values());
  }

  /** The change that survives when {@code later} arrives after {@code earlier} for the same key. */
  public static WriteRecord pick(WriteRecord earlier, WriteRecord later) {
    return OrderingValues.laterLoses(earlier.orderingValue(), later.orderingValue()) ? earlier : later;
  }

  private record Key(String partitionPath, String recordKey) {}
}
