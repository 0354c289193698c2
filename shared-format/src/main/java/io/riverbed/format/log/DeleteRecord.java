package io.riverbed.format.log;

import io.riverbed.format.record.OrderingValues;

/**
 * One entry of a delete block. {@code orderingValue} is never null: an absent value is Hudi's
 * natural-order marker {@code Integer 0} (a null one would make Hudi readers fail).
 *
 * <p>Supported value classes on write: {@code Boolean, Integer, Long, Float, Double, ByteBuffer,
 * String/Utf8 (any CharSequence), LocalDate, BigDecimal (scale ≤ 15, precision ≤ 30 after upcast),
 * java.time.Instant (microseconds), LocalTime (microseconds)}. Values read back are of the class
 * Hudi 0.15 returns: the same, except CharSequence → {@code String}, BigDecimal → scale 15, and
 * LocalTime → {@code Long} micros (Hudi has no unwrapping for time-micros).
 */
public record DeleteRecord(String recordKey, String partitionPath, Comparable<?> orderingValue) {
  public DeleteRecord {
    if (orderingValue == null) {
      orderingValue = OrderingValues.NATURAL_ORDER;
    }
  }

  /** A delete without ordering value (natural order: it wins against any earlier record). */
  public static DeleteRecord of(String recordKey, String partitionPath) {
    return new DeleteRecord(recordKey, partitionPath, OrderingValues.NATURAL_ORDER);
  }
}
