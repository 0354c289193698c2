package io.riverbed.format.query;

import io.riverbed.format.TableException;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.base.LookAheadIterator;
import io.riverbed.format.log.LogEntry;
import io.riverbed.format.log.MergedLogRecords;
import io.riverbed.format.record.MetaFields;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.avro.generic.GenericRecord;

/**
 * The rows of a file slice with logs, in any row form: each base row kept, replaced by its key's
 * merged log record or dropped, as the table's payload rule says, then the records only the logs
 * hold. Base rows pass through as the engine read them; only log records are converted. Given a
 * form for deletes, a key the logs delete yields a row of that form instead of nothing.
 */
final class MergedBaseRows<R> extends LookAheadIterator<R> {
  private final SliceMerge merge;
  private final MergedLogRecords logs;
  private final CloseableIterator<R> base;
  private final BaseRowAccess<R> access;
  private final Function<GenericRecord, R> fromLog;
  private final Function<LogEntry, R> fromDelete;
  private final boolean readsBaseOrdering;
  private final Set<String> mergedKeys = new HashSet<>();
  private Iterator<LogEntry> logOnly;

  MergedBaseRows(SliceMerge merge, MergedLogRecords logs, CloseableIterator<R> base, BaseRowAccess<R> access,
      Function<GenericRecord, R> fromLog) {
    this(merge, logs, base, access, fromLog, null);
  }

  /** @param fromDelete the row of a deleted key's log entry; null: deleted keys yield no row */
  MergedBaseRows(SliceMerge merge, MergedLogRecords logs, CloseableIterator<R> base, BaseRowAccess<R> access,
      Function<GenericRecord, R> fromLog, Function<LogEntry, R> fromDelete) {
    this.merge = merge;
    this.logs = logs;
    this.base = base;
    this.access = access;
    this.fromLog = fromLog;
    this.fromDelete = fromDelete;
    this.readsBaseOrdering = merge.comparesBaseOrdering();
  }

  @Override
  protected R computeNext() {
    while (base.hasNext()) {
      R merged = mergeWithBase(base.next());
      if (merged != null) {
        return merged;
      }
    }
    if (logOnly == null) {
      logOnly = logs.iterator();
    }
    while (logOnly.hasNext()) {
      LogEntry entry = logOnly.next();
      if (mergedKeys.contains(entry.recordKey())) {
        continue;
      }
      if (entry.isDelete()) {
        if (fromDelete != null) {
          return fromDelete.apply(entry);
        }
      } else if (entry instanceof LogEntry.Upsert u) {
        return fromLog.apply(u.record());
      }
    }
    return null;
  }

  private R mergeWithBase(R row) {
    String key = access.recordKey(row);
    if (key == null) {
      throw new TableException("record without " + MetaFields.RECORD_KEY + " in a base file of "
          + merge.table().basePath());
    }
    Optional<LogEntry> entry = logs.get(key);
    if (entry.isEmpty()) {
      return row;
    }
    mergedKeys.add(key);
    GenericRecord logRecord = entry.get() instanceof LogEntry.Upsert u ? u.record() : null;
    Comparable<?> persisted = readsBaseOrdering && logRecord != null ? access.orderingValue(row) : null;
    return switch (merge.outcomeWithBase(key, persisted, logRecord)) {
      case BASE -> row;
      case LOG -> fromLog.apply(logRecord);
      case DELETED -> fromDelete == null ? null : fromDelete.apply(entry.get());
    };
  }

  @Override
  public void close() {
    try {
      base.close();
    } finally {
      logs.close();
    }
  }
}
