package io.riverbed.format.query;

/**
 * What a slice merge needs to know of a base-file row in an engine's own row form: its record key
 * and, for event-time payloads, its ordering value.
 */
public interface BaseRowAccess<R> {

  /** The row's {@code _hoodie_record_key}, or {@code null} if it has none. */
  String recordKey(R row);

  /**
   * The row's ordering value as {@link io.riverbed.format.record.OrderingValues#ofRecordForCombine}
   * gives it for the same record read through Avro ({@code null} if absent or null).
   */
  Comparable<?> orderingValue(R row);
}
