package io.riverbed.format.record;

import io.riverbed.format.InvalidRecordException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * Ordering (precombine) values as Hudi 0.15 sees them, and how it compares them.
 *
 * <p>Two extraction paths exist in Hudi and they produce values of different Java classes:
 *
 * <ul>
 *   <li>{@link #ofLogRecord}: the value a log scanner attaches to a record read from a log block,
 *       i.e. the raw Avro value ({@code Utf8} for strings, {@code Integer} for dates,
 *       {@code ByteBuffer}/{@code GenericFixed} for decimals). Missing field or no ordering field
 *       ⇒ {@link #NATURAL_ORDER}.
 *   <li>{@link #ofRecordForCombine}: the value {@code DefaultHoodieRecordPayload} reads when it
 *       merges a log record onto a base record; dates become {@link LocalDate} and decimals
 *       {@link BigDecimal}. Missing field or null value ⇒ {@code null}.
 * </ul>
 *
 * <p>Values from delete blocks come back as {@code Boolean, Integer, Long, Float, Double,
 * ByteBuffer, String, LocalDate, BigDecimal, java.time.Instant}. The delete rule only compares
 * values of exactly the same class ({@link #sameClass}); so a string ordering field (record value
 * {@code Utf8}, delete value {@code String}) or a date field makes every delete win. Tables should
 * use int or long ordering fields.
 */
public final class OrderingValues {

  /** Hudi's "natural order" marker: {@code Integer 0}, used when there is no ordering value. */
  public static final Integer NATURAL_ORDER = 0;

  private OrderingValues() {}

  /**
   * The ordering value a log scanner attaches to {@code record}: the raw Avro field value.
   *
   * @throws InvalidRecordException if the field exists and is null (Hudi fails on it too)
   */
  public static Comparable<?> ofLogRecord(GenericRecord record, String orderingField, String recordKey) {
    if (orderingField == null) {
      return NATURAL_ORDER;
    }
    Schema.Field field = record.getSchema().getField(orderingField);
    if (field == null) {
      return NATURAL_ORDER;
    }
    Object value = record.get(field.pos());
    if (value == null) {
      throw new InvalidRecordException(
          "Ordering field '" + orderingField + "' is null in record with key '" + recordKey + "'");
    }
    return asComparable(value, orderingField, recordKey);
  }

  /**
   * As {@link #ofLogRecord}, for the value {@code value} (as an Avro record of the log holds it) of
   * the ordering field, when the record's ordering field exists: an engine that reads the field from
   * its own row passes it without building the record.
   */
  public static Comparable<?> ofLogValue(Object value, String orderingField, String recordKey) {
    if (value == null) {
      throw new InvalidRecordException(
          "Ordering field '" + orderingField + "' is null in record with key '" + recordKey + "'");
    }
    return asComparable(value, orderingField, recordKey);
  }

  /**
   * The ordering value used when merging a log record onto a base record (Default/EventTime
   * payloads): date logical type → {@link LocalDate}, decimal → {@link BigDecimal}; {@code null}
   * when the field is absent or null.
   */
  public static Comparable<?> ofRecordForCombine(GenericRecord record, String orderingField, String recordKey) {
    Schema.Field field = record.getSchema().getField(orderingField);
    return field == null ? null : ofStoredValue(field, record.get(field.pos()), recordKey);
  }

  /**
   * As {@link #ofRecordForCombine}, for the value {@code value} of the ordering field {@code field}
   * as a stored record would hold it (raw values of logical types), without the record.
   */
  public static Comparable<?> ofStoredValue(Schema.Field field, Object value, String recordKey) {
    String orderingField = field.name();
    if (value == null) {
      return null;
    }
    Schema schema = nonNullBranch(field.schema());
    LogicalType logical = schema.getLogicalType();
    if (logical instanceof LogicalTypes.Date && value instanceof Number days) {
      return LocalDate.ofEpochDay(days.longValue());
    }
    if (logical instanceof LogicalTypes.Decimal decimal) {
      if (value instanceof ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return new BigDecimal(new BigInteger(bytes), decimal.getScale());
      }
      if (value instanceof GenericFixed fixed) {
        return new BigDecimal(new BigInteger(fixed.bytes()), decimal.getScale());
      }
    }
    return asComparable(value, orderingField, recordKey);
  }

  /**
   * True iff a change with ordering value {@code later}, arriving after one with {@code earlier}
   * for the same key, loses to it: Hudi's {@code preCombine}, where the earlier change survives only
   * with a strictly greater value (ties go to the later change), and values that cannot be compared
   * (different classes, e.g. a delete without ordering value against a {@code Long}) let the later
   * change win.
   */
  public static boolean laterLoses(Comparable<?> earlier, Comparable<?> later) {
    boolean comparable = earlier.getClass() == later.getClass()
        || (earlier instanceof CharSequence && later instanceof CharSequence);
    if (!comparable) {
      return false;
    }
    try {
      return compare(earlier, later) > 0;
    } catch (InvalidRecordException | ClassCastException e) {
      return false;
    }
  }

  /** True iff both values are of exactly the same class (Hudi's {@code ReflectionUtils.isSameClass}). */
  public static boolean sameClass(Object a, Object b) {
    return a != null && b != null && a.getClass() == b.getClass();
  }

  /**
   * {@code a.compareTo(b)} as Hudi does it. Values of different classes cannot be compared (Hudi
   * fails with a {@code ClassCastException}), except two {@link CharSequence}s ({@code Utf8} vs
   * {@code String}), which are compared as strings.
   *
   * @throws InvalidRecordException for null or mutually incomparable values
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static int compare(Comparable<?> a, Comparable<?> b) {
    if (a == null || b == null) {
      throw new InvalidRecordException("Cannot compare null ordering values: " + a + " vs " + b);
    }
    if (a.getClass() == b.getClass()) {
      return ((Comparable) a).compareTo(b);
    }
    if (a instanceof CharSequence && b instanceof CharSequence) {
      return a.toString().compareTo(b.toString());
    }
    throw new InvalidRecordException("Ordering values of different types cannot be compared: "
        + a.getClass().getName() + " " + a + " vs " + b.getClass().getName() + " " + b);
  }

  private static Comparable<?> asComparable(Object value, String field, String recordKey) {
    if (value instanceof Comparable<?> comparable) {
      return comparable;
    }
    throw new InvalidRecordException("Ordering field '" + field + "' of record with key '" + recordKey
        + "' has a value of type " + value.getClass().getName() + " that cannot be ordered");
  }

  private static Schema nonNullBranch(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return schema;
    }
    for (Schema branch : schema.getTypes()) {
      if (branch.getType() != Schema.Type.NULL) {
        return branch;
      }
    }
    return schema;
  }
}
