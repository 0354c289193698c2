package io.riverbed.format.log;

import io.riverbed.format.record.PayloadMergeRule;
import org.apache.avro.generic.GenericRecord;

/** What the logs of a file slice say about one record key after merging. */
public sealed interface LogEntry {

  String recordKey();

  /** The entry's ordering value (never null). */
  Comparable<?> orderingValue();

  /** True if the key is deleted: a delete-block marker, or a record flagged deleted. */
  boolean isDelete();

  /** The latest record written to the logs for the key (it may itself be flagged deleted). */
  record Upsert(String recordKey, GenericRecord record, Comparable<?> orderingValue) implements LogEntry {
    @Override
    public boolean isDelete() {
      return PayloadMergeRule.isDeleteRecord(record);
    }
  }

  /** A delete-block entry that won; it wins against the base record for every 0.15 payload. */
  record Delete(String recordKey, String partitionPath, Comparable<?> orderingValue) implements LogEntry {
    @Override
    public boolean isDelete() {
      return true;
    }
  }
}
