package io.riverbed.format.record;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.InvalidTableException;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * The merge semantics of the Hudi 0.15 Avro payload classes a table may name in
 * {@code hoodie.compaction.payload.class}.
 *
 * <ul>
 *   <li>(a) {@link #preCombineKeepsOlder}: a log record against an earlier log record of the same
 *       key — identical for all three payloads.
 *   <li>(b) {@link #deleteKeepsExisting}: a delete-block entry against the entry a key already has
 *       — identical for all three payloads (it is the log scanner's rule, not the payload's).
 *   <li>(c) {@link #combineWithBase}: the merged log entry onto the base-file record — this is
 *       where the payloads differ.
 * </ul>
 *
 * A record is a delete if {@code _hoodie_is_deleted} is {@code true} or {@code _hoodie_operation}
 * is {@code "D"} ({@link #isDeleteRecord}).
 */
public enum PayloadMergeRule {
  /** Latest write wins against the base file; ordering value only decides between log records. */
  OVERWRITE_WITH_LATEST("org.apache.hudi.common.model.OverwriteWithLatestAvroPayload", false),
  /** Event-time semantics: the base record survives a log record with a smaller ordering value. */
  DEFAULT("org.apache.hudi.common.model.DefaultHoodieRecordPayload", true),
  /** Flink's default; same merge results as {@link #DEFAULT} (it only skips event-time metadata). */
  EVENT_TIME("org.apache.hudi.common.model.EventTimeAvroPayload", true);

  private final String payloadClass;
  private final boolean orderingAgainstBase;

  PayloadMergeRule(String payloadClass, boolean orderingAgainstBase) {
    this.payloadClass = payloadClass;
    this.orderingAgainstBase = orderingAgainstBase;
  }

  /** The fully qualified Hudi payload class this rule reproduces. */
  public String payloadClass() {
    return payloadClass;
  }

  /**
   * True iff the rule orders a key's changes by event time against what the table stores (the
   * base record survives a change with a smaller ordering value), so a writer must also drop a
   * change older than the key's last committed write or delete ({@code Default}, {@code EventTime});
   * false for latest-write-wins ({@code OverwriteWithLatest}).
   */
  public boolean ordersAcrossCommits() {
    return orderingAgainstBase;
  }

  /**
   * The rule for a payload class name as found in {@code hoodie.properties}.
   *
   * @throws InvalidTableException for payload classes Riverbed does not reproduce
   */
  public static PayloadMergeRule forPayloadClass(String className) {
    for (PayloadMergeRule rule : values()) {
      if (rule.payloadClass.equals(className)) {
        return rule;
      }
    }
    throw new InvalidTableException("Unsupported payload class '" + className + "'; supported: "
        + OVERWRITE_WITH_LATEST.payloadClass + ", " + DEFAULT.payloadClass + ", " + EVENT_TIME.payloadClass);
  }

  /**
   * (a) {@code newer.preCombine(older)}: true iff the older log entry is kept. A delete-block
   * marker as older entry always loses; otherwise the older one is kept only if its ordering value
   * is strictly greater (ties go to the later write).
   */
  public boolean preCombineKeepsOlder(Comparable<?> olderOrdering, boolean olderIsDeleteMarker, Comparable<?> newerOrdering) {
    if (olderIsDeleteMarker) {
      return false;
    }
    return OrderingValues.compare(olderOrdering, newerOrdering) > 0;
  }

  /**
   * (b) A delete-block entry against the key's existing log entry (record or earlier delete
   * marker): true iff the existing entry is kept, which requires the delete's ordering value to
   * differ from {@code Integer 0}, to be of exactly the existing value's class, and to be smaller.
   * Otherwise the key becomes a delete marker carrying the delete's ordering value.
   */
  public boolean deleteKeepsExisting(Comparable<?> existingOrdering, Comparable<?> deleteOrdering) {
    return !OrderingValues.NATURAL_ORDER.equals(deleteOrdering)
        && OrderingValues.sameClass(existingOrdering, deleteOrdering)
        && OrderingValues.compare(existingOrdering, deleteOrdering) > 0;
  }

  /** What a key shows once its base record meets its merged log entry. */
  public enum BaseMergeOutcome {
    /** The base record stands. */
    BASE,
    /** The log record replaces it. */
    LOG,
    /** The key is deleted. */
    DELETED
  }

  /**
   * (c) {@code log.combineAndGetUpdateValue(base)}: the record to emit for a key that has a base
   * record and a merged log entry, or empty if the key is deleted.
   *
   * @param logRecord the merged log record, or {@code null} if the log entry is a delete-block
   *     marker (which wins against the base record for every payload in 0.15)
   * @param orderingField the table's ordering field, or {@code null} if it has none
   * @return {@code base} itself if the base record is kept, {@code logRecord} if it wins, empty if
   *     the key is deleted
   */
  public Optional<GenericRecord> combineWithBase(
      String recordKey, GenericRecord base, GenericRecord logRecord, String orderingField) {
    Comparable<?> persisted = logRecord != null && comparesBaseOrdering(orderingField)
        ? OrderingValues.ofRecordForCombine(base, orderingField, recordKey) : null;
    return switch (outcomeWithBase(recordKey, persisted, logRecord, orderingField)) {
      case BASE -> Optional.of(base);
      case LOG -> Optional.of(logRecord);
      case DELETED -> Optional.empty();
    };
  }

  /**
   * True iff {@link #outcomeWithBase} needs the base record's ordering value: event-time payloads
   * on a table with an ordering field. Otherwise the log entry alone decides.
   */
  public boolean comparesBaseOrdering(String orderingField) {
    return orderingAgainstBase && orderingField != null;
  }

  /**
   * (c) as {@link #combineWithBase}, for engines that read base rows in their own form: the base
   * record is represented by its ordering value alone.
   *
   * @param persisted the base record's ordering value as {@link OrderingValues#ofRecordForCombine}
   *     gives it ({@code null} if absent or null; ignored unless {@link #comparesBaseOrdering})
   * @param logRecord the merged log record, or {@code null} for a delete-block marker
   */
  public BaseMergeOutcome outcomeWithBase(String recordKey, Comparable<?> persisted, GenericRecord logRecord,
      String orderingField) {
    if (logRecord == null) {
      return BaseMergeOutcome.DELETED;
    }
    if (comparesBaseOrdering(orderingField)) {
      if (persisted instanceof CharSequence chars && !(persisted instanceof String)) {
        // a stored string compares as a String, however the base file was read (Utf8 for a rewrite)
        persisted = chars.toString();
      }
      if (persisted != null) {
        Comparable<?> incoming = OrderingValues.ofRecordForCombine(logRecord, orderingField, recordKey);
        if (incoming == null) {
          throw new InvalidRecordException("Ordering field '" + orderingField
              + "' is missing or null in the log record with key '" + recordKey + "'");
        }
        if (OrderingValues.compare(persisted, incoming) > 0) {
          return BaseMergeOutcome.BASE;
        }
      }
    }
    return isDeleteRecord(logRecord) ? BaseMergeOutcome.DELETED : BaseMergeOutcome.LOG;
  }

  /** True if the record says it is deleted: {@code _hoodie_is_deleted = true} or {@code _hoodie_operation = "D"}. */
  public static boolean isDeleteRecord(GenericRecord record) {
    Schema schema = record.getSchema();
    Schema.Field deleted = schema.getField(MetaFields.IS_DELETED);
    if (deleted != null && Boolean.TRUE.equals(record.get(deleted.pos()))) {
      return true;
    }
    Schema.Field operation = schema.getField(MetaFields.OPERATION);
    if (operation != null) {
      Object value = record.get(operation.pos());
      return value != null && "D".contentEquals(value.toString());
    }
    return false;
  }
}
